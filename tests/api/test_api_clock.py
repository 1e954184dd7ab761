"""Turn clocks through the API: `clock` at creation, validated with its field path, and the
view's `clock` and the seat in turn's `deadline`, computed from the store (the commit of the
match's last event plus the phase's budget), so a view read right after a move has them
before any read model has caught up."""

from __future__ import annotations

import datetime as dt
import uuid

from infra.store import PostgresEventStore, create_pool
from services.matches.clocks import Clocks
from tests.api.conftest import register
import pytest

pytestmark = [pytest.mark.db, pytest.mark.redis]


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


async def test_a_rated_match_always_has_a_clock_within_its_bounds(client, database_url) -> None:
    """No clock asked: the rated default; one out of 5..300 s: 400 `bad_clock` naming the
    field; a casual match keeps any clock; a rated rematch gets its match's clock."""
    from tests.api.conftest import finish

    players = {seat: await register(client) for seat in "NESW"}
    seats = {"N": "me", "E": "open", "S": "open", "W": "open"}

    async def create(**body):
        return await client.post("/v1/matches", headers=players["N"].headers,
                                 json={"game": "cinch", "options": {"deals": 1}, "seats": seats, **body})

    for clock, field in (({"play": 301}, "$.clock.play"), ({"bid": 2, "play": 20}, "$.clock.bid")):
        refused = await create(rated=True, clock=clock)
        assert refused.status_code == 400, refused.text
        assert refused.json()["code"] == "bad_clock"
        assert refused.json()["details"] == {"field": field, "min": 5.0, "max": 300.0}
    assert (await create(clock={"play": 3600})).status_code == 201
    bounded = await create(rated=True, clock={"bid": 300, "play": 5})
    assert bounded.status_code == 201, bounded.text

    made = await create(rated=True)
    assert made.status_code == 201, made.text
    match_id = made.json()["match_id"]
    for seat in "ESW":
        taken = await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=players[seat].headers, json={})
        assert taken.status_code == 200, taken.text
    view = (await client.get(f"/v1/matches/{match_id}", headers=players["N"].headers)).json()
    assert view["clock"] == {"bid": 60.0, "play": 30.0} and view["deadline"] is not None
    await finish(client, match_id, players)
    again = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["N"].headers)
    assert again.status_code in (200, 201), again.text
    pool = await create_pool(database_url, max_size=1)
    try:
        clock = await Clocks(PostgresEventStore(pool)).of(again.json()["match_id"])
    finally:
        await pool.close()
    assert clock == {"bid": 60.0, "play": 30.0}
