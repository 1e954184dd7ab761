"""The envelope over HTTP: deals count from 0 in the view, the events, the record, the
verification, the replay and the export (the fair context alone says `deal:d+1`); the
deprecated aliases equal their envelope names; and the `match_summaries` version is the
match's own right after a card is played, not that of its last change of status."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from domain.games import GAMES
from infra.projections import ProjectionRunner
from infra.store import PostgresEventStore, create_pool
from services.bootstrap import projections
from tests.api.conftest import act, finish, register, seated_match, view
from tests.eventually import projected

pytestmark = [pytest.mark.db, pytest.mark.redis]
READ_MODELS = projections   # what the projector would run beside the app


@pytest.fixture(scope="module")
async def runner(client, database_url: str):
    pool = await create_pool(database_url, max_size=2)
    yield ProjectionRunner(PostgresEventStore(pool))
    await pool.close()


@pytest.mark.parametrize("game,options", [("belote", {"variant": "classic", "deals": 2}),
                                          ("cinch", {"deals": 2}), ("five_hundred", {"deals": 2})])
async def test_deals_count_from_zero_on_every_route(client, runner, game, options) -> None:
    match_id, players = await seated_match(client, game, options)
    first = (await view(client, match_id, players["N"]))["table"]
    assert first["deal_index"] == 0 and first["game"] == game
    final = await finish(client, match_id, players, seed=11)
    table = final["table"]
    assert table["deal_index"] == 1 and table["phase"] == "match_over"
    for old, new in GAMES[game].view_aliases.items():
        assert table[old] == table[new], old
    if "deal" in table:
        assert table["deal"] == 2          # the deprecated count of deals started

    events = (await client.get(f"/v1/matches/{match_id}/events", params={"after": 0},
                               headers=players["N"].headers)).json()["events"]
    finished = [e["event"] for e in events if e["event"] and e["event"]["type"] == "deal_finished"]
    assert [e["deal"] for e in finished] == [0, 1]
    assert [e["fair"]["context"] for e in finished] == [f"match:{match_id}:deal:1", f"match:{match_id}:deal:2"]
    scored = [e["event"]["deal"] for e in events if e["event"] and e["event"]["type"] == "deal_scored"]
    assert scored == [0, 1]

    record = (await client.get(f"/v1/matches/{match_id}/record", headers=players["N"].headers)).json()
    assert len(record["deals"]) == 2
    for deal in (0, 1):
        checked = await client.get(f"/v1/matches/{match_id}/deals/{deal}/verify", headers=players["S"].headers)
        assert checked.status_code == 200 and checked.json()["status"] == "verified", checked.text
        one = (await client.get(f"/v1/matches/{match_id}/export", params={"deal": deal},
                                headers=players["S"].headers)).json()
        assert [d["deck"] for d in one["deals"]] == [record["deals"][deal]["deck"]]
    beyond = await client.get(f"/v1/matches/{match_id}/deals/2/verify", headers=players["S"].headers)
    assert 400 <= beyond.status_code < 500

    admin = await register(client)
    await runner.store.pool.execute("UPDATE players SET role = 'admin' WHERE player_id = $1", admin.player_id)
    for deal in (0, 1):
        replay = await client.get(f"/v1/admin/matches/{match_id}/deals/{deal}/replay", headers=admin.headers)
        assert replay.status_code == 200, replay.text
        steps = replay.json()["steps"]   # the first is the match layer's deal_dealt, before the game deals
        assert steps[0]["type"] == "deal_dealt" and {step["view"]["deal_index"] for step in steps[1:]} == {deal}


async def test_my_matches_version_is_the_match_version_after_a_card(client, runner) -> None:
    match_id, players = await seated_match(client, "belote", {"variant": "classic", "deals": 1})
    north = players["N"]
    card = None
    for _ in range(40):                 # through the auction to the first card played
        table = await view(client, match_id, north)
        seat = table["to_act"][0]
        mine = table if seat == "N" else await view(client, match_id, players[seat])
        legal = mine["table"]["legal"]
        action = next((a for a in legal if a["action"] == "play"), None) or next(
            (a for a in legal if a["action"] == "take"), legal[0])
        answer = await act(client, match_id, players[seat], mine["version"], str(uuid.uuid4()), **action)
        assert answer.status_code == 200, answer.text
        if action["action"] == "play":
            card = action["card"]
            break
    assert card is not None
    version = (await view(client, match_id, north))["version"]

    async def listed():
        rows = (await client.get("/v1/matches/mine", headers=north.headers)).json()
        return next((r for r in rows if r["match_id"] == match_id), None)

    row = await projected(runner, READ_MODELS, listed, lambda r: r is not None and r["version"] == version)
    assert row is not None and row["version"] == version and row["status"] == "playing"
    playing = (await client.get("/v1/matches", params={"status": "playing"}, headers=north.headers)).json()
    assert next(r for r in playing if r["match_id"] == match_id)["version"] == version
