"""What the chat tests share: a real `atout serve` (tests/api/test_live_streams.py's fixtures),
the chat publisher run as the projector runs it, players, a table, and live chat followers."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from infra.projections import ProjectionRunner, WakeListener
from infra.projections.chat_publisher import ChatPublisher
from infra.projections.reports import ChatReports
from infra.projections.social import SocialTies
from infra.store import PostgresEventStore


@pytest.fixture(scope="module")
async def chat_publisher(pool, redis_url: str, redis_prefix: str):
    """The chat's projections (its publisher, the reports queue) and the block lists it reads,
    tailing the log as the projector does (woken by the API's appends)."""
    runner = ProjectionRunner(PostgresEventStore(pool), batch_size=500)
    projection = ChatPublisher(redis_url=redis_url, prefix=redis_prefix)
    reports, ties = ChatReports(), SocialTies()
    for each in (projection, reports, ties):
        await runner.ensure(each)
    wake = WakeListener(redis_url, redis_prefix)
    stop = asyncio.Event()

    async def run() -> None:
        while not stop.is_set():
            for each in (projection, reports, ties):
                await runner.catch_up(each)
            await wake.wait(0.05)

    task = asyncio.create_task(run())
    yield projection
    stop.set()
    await asyncio.wait_for(task, 10)
    await wake.close()
    await projection.close()


class Who:
    def __init__(self, player_id: str, token: str) -> None:
        self.player_id, self.token = player_id, token

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def player(http: httpx.AsyncClient, name: str, pool=None, role: str = "player") -> Who:
    answer = await http.post("/v1/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    if role != "player":
        await pool.execute("UPDATE players SET role = $2 WHERE player_id = $1", body["player_id"], role)
    return Who(body["player_id"], body["token"])


async def table(http: httpx.AsyncClient, seats: dict[str, Who], start: bool = True) -> str:
    """A belote match N created; E, S, W sit (the last seat taken starts it) when `start`."""
    created = await http.post("/v1/matches", headers=seats["N"].headers, json={
        "game": "belote", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    if start:
        await sit(http, match_id, seats)
    return match_id


async def sit(http: httpx.AsyncClient, match_id: str, seats: dict[str, Who], which: str = "ESW") -> None:
    for seat in which:
        taken = await http.post(f"/v1/matches/{match_id}/seats/{seat}", headers=seats[seat].headers, json={})
        assert taken.status_code == 200, taken.text


async def say(http: httpx.AsyncClient, match_id: str, who: Who, command_id: str | None = None,
              **content: Any) -> httpx.Response:
    return await http.post(f"/v1/matches/{match_id}/chat", headers=who.headers,
                           json={"command_id": command_id or str(uuid.uuid4()), **content})


async def history(http: httpx.AsyncClient, match_id: str, who: Who, **query: Any) -> list[dict[str, Any]]:
    answer = await http.get(f"/v1/matches/{match_id}/chat", headers=who.headers, params=query)
    assert answer.status_code == 200, answer.text
    return answer.json()


class Follower:
    """One live chat stream's messages (decoded), collected in the background."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.close_code: int | None = None

    def got(self, raw: str | bytes) -> None:
        self.messages.append(json.loads(raw))
        self.changed.set()

    @property
    def events(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "event"]

    async def until(self, version: int, timeout: float = 10.0) -> dict[str, Any]:
        """The message of chat version `version`, once it has come."""
        async def wait() -> dict[str, Any]:
            while True:
                found = [m for m in self.events if m["version"] == version]
                if found:
                    return found[0]
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(wait(), timeout)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


async def follow_http(base: str, match_id: str, who: Who, sse: bool = False, after: int | None = None) -> Follower:
    follower = Follower()
    accept = "text/event-stream" if sse else "application/x-ndjson"
    query = "" if after is None else f"?after={after}"

    async def run() -> None:
        async with httpx.AsyncClient(timeout=60) as http:
            async with http.stream("GET", f"{base}/v1/matches/{match_id}/chat/stream{query}",
                                   headers={**who.headers, "Accept": accept}) as response:
                assert response.status_code == 200, await response.aread()
                async for line in response.aiter_lines():
                    if sse and line.startswith("data: "):
                        follower.got(line[6:])
                    elif not sse and line.strip():
                        follower.got(line)

    follower.task = asyncio.create_task(run())
    await _first(follower)
    return follower


async def follow_ws(base: str, match_id: str, who: Who, after: int | None = None) -> Follower:
    follower = Follower()
    query = "" if after is None else f"?after={after}"

    async def run() -> None:
        async with ws_connect(base.replace("http", "ws", 1) + f"/v1/matches/{match_id}/chat/ws{query}") as ws:
            await ws.send(json.dumps({"type": "auth", "token": who.token}))
            try:
                async for raw in ws:
                    follower.got(raw)
            except ConnectionClosed:
                pass
            follower.close_code = ws.close_code

    follower.task = asyncio.create_task(run())
    await _first(follower)
    return follower


async def _first(follower: Follower) -> None:
    async def wait() -> None:
        while not follower.messages:
            if follower.task is not None and follower.task.done():
                follower.task.result()
                raise AssertionError("the stream ended before its snapshot")
            follower.changed.clear()
            await asyncio.wait_for(follower.changed.wait(), 10)

    await asyncio.wait_for(wait(), 10)
