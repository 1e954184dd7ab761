"""A rematch lets its seats give entropy before its first deal: it waits, full and open, after
its tip is published, until every player seat has given entropy (asking for the rematch with
it, or through the entropy route); the first deal then carries every player's. A seated
player may start it without waiting."""

from __future__ import annotations

import pytest

from tests.api.conftest import finish, seated_match, view

pytestmark = [pytest.mark.db, pytest.mark.redis]


async def first_deal_entropy(client, match_id: str, players: dict) -> dict:
    await finish(client, match_id, players, seed=9)
    record = (await client.get(f"/v1/matches/{match_id}/record", headers=players["N"].headers)).json()
    return record["deals"][0]["fair"]["entropy"]


async def test_a_rematch_waits_for_every_players_entropy(client) -> None:
    match_id, players = await seated_match(client, "cinch", {"deals": 1})
    await finish(client, match_id, players)
    made = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["N"].headers,
                             json={"entropy": "north, after the tip"})
    assert made.status_code == 201, made.text
    again, tip = made.json()["match_id"], made.json()["commitment"]
    assert made.json()["status"] == "open" and len(tip) == 64          # the tip is out, no deal yet
    east = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["E"].headers,
                             json={"entropy": "east, after the tip"})
    assert east.json()["match_id"] == again and east.json()["status"] == "open"
    for seat in "SW":
        put = await client.put(f"/v1/matches/{again}/seats/{seat}/entropy", headers=players[seat].headers,
                               json={"entropy": f"{seat}, after the tip"})
        assert put.status_code == 200 and put.json()["chain"] == 1, put.text
    started = await view(client, again, players["N"])
    assert started["status"] == "playing" and started["commitment"] == tip
    assert await first_deal_entropy(client, again, players) == {
        "N": "north, after the tip", "E": "east, after the tip", "S": "S, after the tip", "W": "W, after the tip"}


async def test_a_seated_player_may_start_a_waiting_rematch(client) -> None:
    match_id, players = await seated_match(client, "cinch", {"deals": 1})
    await finish(client, match_id, players)
    made = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["S"].headers,
                             json={"entropy": "south"})
    again = made.json()["match_id"]
    assert made.json()["status"] == "open"
    start = await client.post(f"/v1/matches/{again}/start", headers=players["S"].headers)
    assert start.status_code in (200, 201), start.text
    assert (await view(client, again, players["S"]))["status"] == "playing"
    assert await first_deal_entropy(client, again, players) == {"S": "south"}

