"""Ranked play over HTTP: `rated` at creation (and its 400 where a match does not qualify), no
hint in a rated match, the leaderboard, a player's ratings and stats."""

from __future__ import annotations

import msgspec
import pytest
from openskill.models import PlackettLuce

from infra.projections import ProjectionRunner
from infra.projections.ratings import Ratings
from infra.store import PostgresEventStore
from tests.api.conftest import finish, register

pytestmark = [pytest.mark.db, pytest.mark.redis]
DECK_52 = [r + s for s in "SHDC" for r in "23456789TJQKA"]


async def create(client, player, seats, **body):
    return await client.post("/v1/matches", headers=player.headers,
                             json={"game": "cinch", "options": {"deals": 1}, "seats": seats, **body})


async def test_creation_refuses_rated_where_the_match_does_not_qualify(client) -> None:
    me = await register(client)
    bot = await create(client, me, {"N": "me", "E": "bot:basic", "S": "open", "W": "open"}, rated=True)
    assert bot.status_code == 400, bot.text
    assert bot.json()["code"] == "not_rateable"
    assert bot.json()["details"] == {"field": "$.rated", "reason": "bot_seat", "seats": ["E"]}
    record = await create(client, me, {"N": "me", "E": "open", "S": "open", "W": "open"}, rated=True,
                          record={"game": "cinch", "deals": [{"dealer": "N", "deck": DECK_52}]})
    assert record.status_code == 400, record.text
    assert record.json()["code"] == "not_rateable" and record.json()["details"]["reason"] == "record"
    casual = await create(client, me, {"N": "me", "E": "bot:basic", "S": "open", "W": "open"})
    assert casual.status_code == 201, casual.text
    bad = await create(client, me, {"N": "me", "E": "open", "S": "open", "W": "open"}, rated="yes")
    assert bad.status_code == 400


async def test_a_rated_match_refuses_hints_and_rates_all_four(client, pool) -> None:
    players = {seat: await register(client, f"ranked-{seat}") for seat in "NESW"}
    made = await create(client, players["N"], {"N": "me", "E": "open", "S": "open", "W": "open"}, rated=True,
                        options={"deals": 1})
    assert made.status_code == 201, made.text
    match_id = made.json()["match_id"]
    for seat in "ESW":
        assert (await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=players[seat].headers,
                                  json={})).status_code == 200
    refused = await client.get(f"/v1/matches/{match_id}/hint", headers=players["N"].headers)
    assert refused.status_code == 422 and refused.json()["code"] == "hints_off_rated", refused.text
    await finish(client, match_id, players)
    store = PostgresEventStore(pool)
    runner = ProjectionRunner(store)
    projection = Ratings()
    await runner.ensure(projection)
    await store.settle()
    await runner.catch_up(projection)

    mine = await client.get(f"/v1/players/{players['N'].player_id}/ratings", headers=players["N"].headers)
    assert mine.status_code == 200, mine.text
    [pool_entry] = mine.json()["pools"]
    assert pool_entry["pool"] == "cinch_partnership" and pool_entry["games"] == 1 and pool_entry["provisional"]
    assert [h["match_id"] for h in pool_entry["history"]] == [match_id]
    model = PlackettLuce()
    [finished] = [e for e in await store.read_stream(f"match-{match_id}") if e.type == "match_finished"]
    won = msgspec.json.decode(finished.data)["winner"] == "NS"
    [[n, _], [e, _]] = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]],
                                  ranks=[1, 2] if won else [2, 1])
    assert (pool_entry["mu"], pool_entry["sigma"]) == (n.mu, n.sigma)

    board = await client.get("/v1/leaderboards/cinch_partnership?limit=200", headers=players["N"].headers)
    assert board.status_code == 200, board.text
    ranks = {e["player_id"]: e for e in board.json()["entries"]}
    assert {p.player_id for p in players.values()} <= set(ranks)
    ns, ew = ranks[players["N"].player_id], ranks[players["E"].player_id]
    assert (ns["rank"] < ew["rank"]) == won and ns["name"] == "ranked-N"
    assert [e["rank"] for e in board.json()["entries"]] == list(range(1, len(board.json()["entries"]) + 1))

    stats = await client.get(f"/v1/players/{players['E'].player_id}/stats", headers=players["N"].headers)
    assert stats.status_code == 200, stats.text
    [entry] = stats.json()["pools"]
    assert (entry["matches"], entry["rated"], entry["wins"], entry["deals"]) == (1, 1, 0 if won else 1, 1)

    # Erasure keeps the ratings under the player's id, without a name.
    erased = players["E"].player_id
    assert (await client.delete(f"/v1/players/{erased}", headers=players["E"].headers)).status_code == 204
    after = await client.get("/v1/leaderboards/cinch_partnership?limit=200", headers=players["N"].headers)
    [kept] = [e for e in after.json()["entries"] if e["player_id"] == erased]
    assert kept["name"] is None and (kept["mu"], kept["games"]) == (ew["mu"], 1)
    theirs = await client.get(f"/v1/players/{erased}/ratings", headers=players["N"].headers)
    assert theirs.status_code == 200 and theirs.json()["name"] is None and theirs.json()["pools"][0]["games"] == 1


async def test_unknown_pool_and_player_are_404(client) -> None:
    me = await register(client)
    unknown = await client.get("/v1/leaderboards/chess", headers=me.headers)
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_pool"
    nobody = await client.get("/v1/players/nobody-at-all/ratings", headers=me.headers)
    assert nobody.status_code == 404 and nobody.json()["code"] == "unknown_player"
    nobody = await client.get("/v1/players/nobody-at-all/stats", headers=me.headers)
    assert nobody.status_code == 404 and nobody.json()["code"] == "unknown_player"
