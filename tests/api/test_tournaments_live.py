"""The live tournament stream against a real server process (`atout serve`), real Postgres and
Redis: a player on NDJSON, the organiser on SSE and an outsider on a WebSocket follow a
tournament from its start to its close. Every stream is gap-free; a player sees results only
when their round closes (a redacted `result_recorded` before), the organiser at once; a
stream resumed with `after=` gives back exactly what was missed. Also: an outsider's live
WebSocket on a tournament table whose round is open is refused (`board_sealed`, 4403).
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from infra.store import PostgresEventStore
from infra.vault import Vault
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from tests.api.test_live_streams import pool, server  # noqa: F401  (fixtures: a real server process)
from tests.contract.match_support import play_out

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


async def player(http: httpx.AsyncClient, pool, role: str = "player") -> tuple[str, dict[str, str]]:
    answer = (await http.post("/v1/players", json={"name": f"live {role}"})).json()
    if role != "player":
        await pool.execute("UPDATE players SET role = $2 WHERE player_id = $1", answer["player_id"], role)
    return answer["player_id"], {"Authorization": f"Bearer {answer['token']}"}


async def follow_http(base: str, tid: str, headers: dict[str, str], sse: bool, after: int | None = None
                      ) -> list[dict[str, Any]]:
    """Every message of one HTTP stream, until the server ends it."""
    out: list[dict[str, Any]] = []
    accept = "text/event-stream" if sse else "application/x-ndjson"
    query = "" if after is None else f"?after={after}"
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        async with http.stream("GET", f"/v1/tournaments/{tid}/live{query}", headers={**headers, "Accept": accept}) as r:
            assert r.status_code == 200 and r.headers["content-type"].startswith(accept)
            async for line in r.aiter_lines():
                if sse and line.startswith("data: "):
                    out.append(json.loads(line[6:]))
                elif not sse and line.strip():
                    out.append(json.loads(line))
    return out


async def follow_ws(base: str, path: str, token: str) -> tuple[list[dict[str, Any]], int | None]:
    """A WebSocket that authenticates by its first message; (messages, close code)."""
    out = []
    async with ws_connect(base.replace("http", "ws", 1) + path) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        try:
            async for text in ws:
                out.append(json.loads(text))
        except ConnectionClosed:
            pass
        return out, ws.close_code


def gap_free(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    assert messages[0]["type"] == "snapshot"
    events = messages[1:]
    assert [m["version"] for m in events] == list(range(messages[0]["version"] + 1,
                                                        messages[0]["version"] + 1 + len(events)))
    return events


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [m["event"] for m in events if m["event"] and m["event"]["type"] == kind]


async def test_a_tournament_followed_live_from_start_to_close(server, pool) -> None:
    store = PostgresEventStore(pool)
    svc = TournamentService(store, MatchService(store, Vault(pool)))
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        _, owner = await player(http, pool, "organiser")
        alice, alice_h = await player(http, pool)
        _, outsider = await player(http, pool)
        outsider_token = outsider["Authorization"].split()[1]
        body = {"name": "Live cup", "game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 1},
                "no_show_grace": 0}
        tid = (await http.post("/v1/tournaments", json=body, headers=owner)).json()["tournament_id"]
        assert (await http.get("/v1/tournaments/nope/live", headers=alice_h)).status_code == 404
        mine = (await http.post(f"/v1/tournaments/{tid}/entries", json={"players": [alice]},
                                headers=alice_h)).json()["entry_id"]
        bots = [(await http.post(f"/v1/tournaments/{tid}/entries", json={"players": ["bot:random", "bot:random"]},
                                 headers=owner)).json()["entry_id"] for _ in range(3)]
        pairing = {"round": 1, "tables": [[mine, bots[0]], [bots[1], bots[2]]]}
        assert (await http.post(f"/v1/tournaments/{tid}/pairings", json=pairing, headers=owner)).status_code == 200

        streams = [asyncio.create_task(follow_http(server, tid, alice_h, sse=False)),
                   asyncio.create_task(follow_http(server, tid, owner, sse=True)),
                   asyncio.create_task(follow_ws(server, f"/v1/tournaments/{tid}/ws", outsider_token))]
        await asyncio.sleep(1.0)                                   # every stream has its snapshot
        started = await http.post(f"/v1/tournaments/{tid}/start", headers=owner)
        assert started.status_code == 200, started.text
        alices_table, bots_table = (t["match_id"] for t in started.json()["rounds"][0]["tables"])

        # Item 1 on a real socket: the outsider may not watch a table of an open round live.
        sealed, code = await follow_ws(server, f"/v1/matches/{bots_table}/ws?after=0", outsider_token)
        assert sealed == [{"type": "error", "version": 0, "code": "board_sealed", "message": sealed[0]["message"],
                           "details": {"match_id": bots_table}}] and code == 4403

        await play_out(svc.matches, bots_table, random.Random(1))
        await svc.advance(tid)
        await asyncio.sleep(1.5)                                   # a poll or so: the streams see the result
        await play_out(svc.matches, alices_table, random.Random(2))
        assert (await svc.advance(tid)).status == "closed"
        alice_msgs, owner_msgs, (outsider_msgs, ws_code) = await asyncio.wait_for(asyncio.gather(*streams), 30)

    assert ws_code == 1000
    for messages in (alice_msgs, owner_msgs, outsider_msgs):
        assert messages[0]["view"]["tournament_id"] == tid and messages[0]["view"]["status"] == "registering"
        events = gap_free(messages)
        assert of(events, "round_paired")[0]["tables"][0]["home"] == mine
        assert len(of(events, "table_opened")) == 2
        closed = of(events, "round_closed")[0]
        assert len(closed["results"]) == 2 and len(closed["standings"]) == 4
        assert of(events, "tournament_closed")[0]["standings"] == closed["standings"]
    # Players: results only at the round's close; the organiser: as they happen.
    for messages in (alice_msgs, outsider_msgs):
        hidden = of(gap_free(messages), "result_recorded")
        assert len(hidden) == 2 and all(r["hidden"] and "score" not in r for r in hidden)
    shown = of(gap_free(owner_msgs), "result_recorded")
    assert len(shown) == 2 and all("score" in r for r in shown)
    assert [m["version"] for m in alice_msgs[1:]] == [m["version"] for m in owner_msgs[1:]]

    # Resumed after the first result: exactly the events missed, as they were sent live.
    first_result = next(m["version"] for m in alice_msgs[1:] if m["event"]["type"] == "result_recorded")
    resumed = await follow_http(server, tid, alice_h, sse=False, after=first_result)
    assert resumed[0]["type"] == "snapshot" and resumed[0]["view"]["status"] == "closed"
    assert resumed[1:] == [m for m in alice_msgs[1:] if m["version"] > first_result]
