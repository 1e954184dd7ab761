"""The cluster test's clients (tests/e2e/test_cluster.py): players on the proxy, streams that
follow a seat and resume with `after=` when their replica goes away, and a table's player
that picks a legal action and retries it, same command id, until it is answered."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from dataclasses import dataclass, field

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from domain.playout import concrete

SEATS = ("N", "E", "S", "W")
RETRIED = {502, 503, 504}


async def register(http: httpx.AsyncClient, name: str) -> dict:
    answer = await http.post("/v1/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    return answer.json()


@dataclass
class Follower:
    """A seat's stream through the proxy (WebSocket or SSE): every version it was sent, in
    order, the replicas it was served by, and how long each resumption took."""

    base: str
    match_id: str
    token: str
    transport: str = "ws"
    versions: list[int] = field(default_factory=list)      # the events' versions, as received
    snapshot: int | None = None                             # the first snapshot's version
    upstreams: list[str] = field(default_factory=list)
    resumed: list[float] = field(default_factory=list)      # seconds from a lost stream to the next one
    arrivals: list[float] = field(default_factory=list)     # when each event came (monotonic)
    finished: bool = False

    @property
    def last(self) -> int:
        return self.versions[-1] if self.versions else (self.snapshot or 0)

    def _note(self, message: dict) -> None:
        if message["type"] == "snapshot":
            if self.snapshot is None:
                self.snapshot = message["version"]
        elif message["type"] == "event":
            self.versions.append(message["version"])
            self.arrivals.append(time.monotonic())
            if (message["event"] or {}).get("type") == "match_finished":
                self.finished = True

    async def run(self, connected: asyncio.Event | None = None) -> None:
        lost: float | None = None
        for _ in range(50):
            after = "" if self.snapshot is None else f"?after={self.last}"
            try:
                if self.transport == "ws":
                    await self._ws(after, connected, lost)
                else:
                    await self._sse(after, connected, lost)
            except (OSError, WebSocketException, httpx.HTTPError):
                pass
            if self.finished:
                return
            lost = time.monotonic()
            await asyncio.sleep(0.05)
        raise AssertionError(f"{self.match_id}: the stream never finished")

    def _opened(self, upstream: str, connected: asyncio.Event | None, lost: float | None) -> None:
        self.upstreams.append(upstream)
        if lost is not None:
            self.resumed.append(time.monotonic() - lost)
        if connected is not None:
            connected.set()

    async def _ws(self, after: str, connected: asyncio.Event | None, lost: float | None) -> None:
        url = self.base.replace("http://", "ws://") + f"/v1/matches/{self.match_id}/ws{after}"
        async with connect(url, additional_headers={"Authorization": f"Bearer {self.token}"},
                           open_timeout=5, max_queue=None) as ws:
            self._opened(ws.response.headers.get("X-Upstream", "?"), connected, lost)
            async for raw in ws:
                self._note(json.loads(raw))

    async def _sse(self, after: str, connected: asyncio.Event | None, lost: float | None) -> None:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
        async with httpx.AsyncClient(base_url=self.base, timeout=httpx.Timeout(5, read=30)) as http:
            async with http.stream("GET", f"/v1/matches/{self.match_id}/stream{after}", headers=headers) as answer:
                assert answer.status_code == 200, await answer.aread()
                self._opened(answer.headers.get("X-Upstream", "?"), connected, lost)
                async for line in answer.aiter_lines():
                    if line.startswith("data: "):
                        self._note(json.loads(line[6:]))


@dataclass
class Tally:
    accepted: dict[str, str] = field(default_factory=dict)   # command id -> match id, answered 200
    statuses: dict[int, int] = field(default_factory=dict)
    upstreams: dict[str, set[str]] = field(default_factory=dict)  # match -> replicas its actions went through
    retries: int = 0
    times: list[float] = field(default_factory=list)          # when each accepted answer came (monotonic)
    latencies: list[float] = field(default_factory=list)      # seconds from request to answer, retries included
    loads: list[float] = field(default_factory=list)


async def post(http: httpx.AsyncClient, path: str, body: dict, token: str, tally: Tally | None = None
               ) -> httpx.Response:
    """POST `body` until answered: a replica killed with the request in flight makes the proxy
    answer 502, and the same body (the same command id) is sent again."""
    for _ in range(40):
        with contextlib.suppress(httpx.TransportError):
            answer = await http.post(path, json=body, headers={"Authorization": f"Bearer {token}"})
            if answer.status_code not in RETRIED:
                return answer
        if tally is not None:
            tally.retries += 1
        await asyncio.sleep(0.1)
    raise AssertionError(f"POST {path} was never answered")


async def act(http: httpx.AsyncClient, svc, match_id: str, tokens: dict[str, str], rng: random.Random,
              tally: Tally, seats: frozenset[str] | None = None) -> bool:
    """One legal action of a seat in `seats` (default: any) whose turn it is, retried with
    the same command id until answered; False when the match is over or none of `seats`
    is to act."""
    began = time.monotonic()
    state = await svc.load(match_id)
    tally.loads.append(time.monotonic() - began)
    if state.status != "playing":
        return False
    game = state.game
    choices = [(s, a) for s in game.status(state.game_state).to_act if seats is None or s.value in seats
               for a in game.legal_actions(state.game_state, s)]
    if not choices:
        return False
    seat, action = rng.choice(choices)
    command_id = str(uuid.uuid4())
    body = {"command_id": command_id, "expected_version": state.version, **concrete(action, rng)}
    began = time.monotonic()
    answer = await post(http, f"/v1/matches/{match_id}/actions", body, tokens[seat.value], tally)
    tally.latencies.append(time.monotonic() - began)
    tally.statuses[answer.status_code] = tally.statuses.get(answer.status_code, 0) + 1
    if answer.status_code == 200:
        tally.accepted[command_id] = match_id
        tally.times.append(time.monotonic())
        tally.upstreams.setdefault(match_id, set()).add(answer.headers.get("X-Upstream", "?"))
    return True


async def new_match(http: httpx.AsyncClient, players: list[dict], bots: int = 0, deals: int = 1) -> str:
    """A belote match: N for players[0], then the next players or `bots` basic bots, started."""
    seats = {"N": "me", **{s: ("bot:basic" if i >= 3 - bots else "open") for i, s in enumerate(SEATS[1:])}}
    answer = await post(http, "/v1/matches", {"game": "belote", "options": {"deals": deals}, "seats": seats,
                                              "command_id": str(uuid.uuid4())}, players[0]["token"])
    assert answer.status_code == 201, answer.text
    match_id = answer.json()["match_id"]
    for seat, player in zip(SEATS[1:4 - bots], players[1:]):
        joined = await post(http, f"/v1/matches/{match_id}/seats/{seat}", {"command_id": str(uuid.uuid4())},
                            player["token"])
        assert joined.status_code == 200, joined.text
    return match_id


async def finish(followers: list[Follower], tasks: list[asyncio.Task], seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await asyncio.gather(*tasks)
    for task in tasks:
        task.cancel()
    unfinished = [f.match_id for f in followers if not f.finished]
    assert not unfinished, f"streams that never saw match_finished: {unfinished}"


def check_sequence(follower: Follower, final: int) -> None:
    """Every version after the snapshot exactly once, in order, up to the store's last."""
    assert follower.snapshot is not None
    assert follower.versions == list(range(follower.snapshot + 1, final + 1)), (
        follower.match_id, follower.snapshot, follower.versions[:5], final)
