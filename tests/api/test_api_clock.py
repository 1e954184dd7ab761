"""Turn clocks through the API: `clock` at creation, validated with its field path, and the
view's `clock` and the seat in turn's `deadline`, computed from the store (the commit of the
match's last event plus the phase's budget), so a view read right after a move has them
before any read model has caught up."""

from __future__ import annotations

import datetime as dt
import uuid

from tests.api.conftest import register


async def test_a_bad_clock_is_a_400_naming_the_field(client) -> None:
    player = await register(client)
    response = await client.post("/v1/matches", headers=player.headers,
                                 json={"game": "cinch", "seats": {"N": "me", "E": "open", "S": "open", "W": "open"},
                                       "clock": {"bid": 30, "play": -1}})
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "bad_clock" and response.json()["details"]["field"] == "$.clock.play"


async def test_the_view_shows_the_deadline_of_the_seat_in_turn(client) -> None:
    players = [await register(client) for _ in range(4)]
    created = await client.post("/v1/matches", headers=players[0].headers,
                                json={"game": "cinch", "options": {"deals": 1}, "clock": {"bid": 30, "play": 15},
                                      "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    for seat, player in zip("ESW", players[1:]):
        taken = await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=player.headers, json={})
        assert taken.status_code == 200, taken.text
    before = dt.datetime.now(dt.timezone.utc)

    view = (await client.get(f"/v1/matches/{match_id}", headers=players[0].headers)).json()
    assert view["to_act"], view
    deadline = dt.datetime.fromisoformat(view["deadline"].replace("Z", "+00:00"))
    assert before < deadline <= before + dt.timedelta(seconds=31)   # the bidding budget, from the turn's start
    assert view["clock"] == {"bid": 30.0, "play": 15.0}

    # The seat in turn acts: the very next view already counts from that move's commit.
    seat = view["to_act"][0]
    actor = players["NESW".index(seat)]
    mine = (await client.get(f"/v1/matches/{match_id}", headers=actor.headers)).json()
    moved = await client.post(f"/v1/matches/{match_id}/actions", headers=actor.headers,
                              json={"command_id": str(uuid.uuid4()), "expected_version": mine["version"],
                                    **mine["table"]["legal"][0]})
    assert moved.status_code == 200, moved.text
    after = (await client.get(f"/v1/matches/{match_id}", headers=players[0].headers)).json()
    assert after["version"] > view["version"] and after["to_act"], after
    later = dt.datetime.fromisoformat(after["deadline"].replace("Z", "+00:00"))
    assert deadline < later <= dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=30)


async def test_a_match_without_a_clock_has_no_deadline(client) -> None:
    from tests.api.conftest import seated_match

    match_id, players = await seated_match(client, "belote", {"deals": 1})
    view = (await client.get(f"/v1/matches/{match_id}", headers=players["N"].headers)).json()
    assert view["to_act"] and view["clock"] is None and view["deadline"] is None
