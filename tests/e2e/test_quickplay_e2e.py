"""Quick play on a real server (`atout serve --projector` and `atout worker --beat`, whose beat
sends the matching tick): eight players follow their account streams and join one queue; two
tables start, and each player's stream tells him his match and seat — the seat his match's
view gives him — before the match's own `match_started`. `GET /v1/quickplay/stats` counts
the eight open streams without naming anyone."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
from system_support import running_system

from services.live.routes.account_messages import DECODER

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture(scope="module")
def system(migrated_database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory):
    with running_system(tmp_path_factory.mktemp("quickplay"), migrated_database_url, redis_url,
                        f"{redis_prefix}qp", ATOUT_QUICKPLAY_TICK="0.5") as running:
        yield running


async def _follow(http: httpx.AsyncClient, token: str, out: list[dict[str, Any]], ready: asyncio.Event) -> None:
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/x-ndjson"}
    async with http.stream("GET", "/v1/stream/me", headers=headers, timeout=None) as answer:
        async for line in answer.aiter_lines():
            if line.strip():
                DECODER.decode(line.encode())           # every message is what the AsyncAPI document says
                out.append(json.loads(line))
                ready.set()


async def test_eight_players_two_tables_each_told_his_seat(system) -> None:
    async with httpx.AsyncClient(base_url=system.base, timeout=30) as http:
        players = []
        for i in range(8):
            made = await http.post("/v1/players", json={"name": f"quick {i}"})
            assert made.status_code == 201, made.text
            players.append(made.json())
        streams: list[list[dict[str, Any]]] = [[] for _ in players]
        readies = [asyncio.Event() for _ in players]
        tasks = [asyncio.create_task(_follow(http, p["token"], streams[i], readies[i])) for i, p in enumerate(players)]
        try:
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 30)   # snapshots in: streams open
            stats = (await http.get("/v1/quickplay/stats", headers=_auth(players[0]))).json()
            assert stats["online"] >= 8 and not any(p["player_id"] in json.dumps(stats) for p in players)
            for player in players:
                joined = await http.post("/v1/quickplay", headers=_auth(player),
                                         json={"game": "belote", "options": {"deals": 2, "variant": "sans_atout"}})
                assert joined.status_code == 201, joined.text
            deadline = time.monotonic() + 60
            while not all(_seated(s) for s in streams):
                assert time.monotonic() < deadline, [len(s) for s in streams]
                await asyncio.sleep(0.2)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        tables: dict[str, dict[str, str]] = {}
        for player, stream in zip(players, streams):
            notice = _seated(stream)
            assert notice is not None
            tables.setdefault(notice["match_id"], {})[notice["seat"]] = player["player_id"]
            kinds = [m["event"]["type"] for m in stream if m["type"] == "event"]
            started = [i for i, m in enumerate(stream) if m["type"] == "event" and m["event"]["type"] == "match_started"]
            told = next(i for i, m in enumerate(stream) if m["type"] == "event"
                        and m["event"]["type"] == "quickplay_seated")
            assert not started or told < started[0], kinds                 # told before the start
        assert len(tables) == 2 and all(sorted(seats) == ["E", "N", "S", "W"] for seats in tables.values())
        for match_id, seats in tables.items():
            view = (await http.get(f"/v1/matches/{match_id}", headers=_auth(players[0]))).json()
            assert {s: h["player_id"] for s, h in view["seats"].items()} == seats
            assert view["status"] == "playing" and not view.get("rated")


def _auth(player: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}


def _seated(stream: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((m["event"] for m in stream if m["type"] == "event" and m["event"]["type"] == "quickplay_seated"),
                None)


