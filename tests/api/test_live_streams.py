"""Live streams end to end: a real server process, the publisher projection, real Postgres
and Redis. Four seats each on a WebSocket (plus spectators on WS, SSE and NDJSON) follow
whole matches of every game; every message is checked against the store (exactly the
redacted events, gap-free, no duplicates) and for cards a seat must not see; a seat that
disconnects mid-deal and resumes with `after=` misses nothing and gets nothing twice.

Players register, create, sit and act over HTTP against `atout serve` (a subprocess); the
test reads the truth (and picks random legal moves) from the same database through its
own `MatchService`, and runs the publisher projection as the projector would.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from domain import match as rules
from domain.cards import Seat
from domain.playout import concrete
from infra.projections import ProjectionRunner, WakeListener
from infra.projections.publisher import Publisher, event_message
from infra.store import PostgresEventStore, create_pool, migrate
from infra.store.connection import connect
from infra.vault import Vault
from services.matches.service import MatchService

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
GAMES = [("belote", {"deals": 1}), ("belote", {"variant": "coinche", "deals": 1}), ("cinch", {"deals": 1}),
         ("five_hundred", {"deals": 1})]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
async def pool(database_url: str):
    conn = await connect(database_url)
    await migrate(conn)
    await conn.close()
    pool = await create_pool(database_url, max_size=6)
    yield pool
    await pool.close()


@pytest.fixture(scope="module")
def server(pool, database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory) -> str:
    """`atout serve` on a free port, pointed at this session's database and Redis prefix."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env.update(ATOUT_PORT=str(port), ATOUT_DATABASE_URL=database_url, ATOUT_REDIS_URL=redis_url,
               ATOUT_REDIS_PREFIX=redis_prefix, ATOUT_LOG_LEVEL="warning", ATOUT_REGISTRATIONS_PER_HOUR="0")
    log = tmp_path_factory.mktemp("live") / "server.log"
    proc = subprocess.Popen([sys.executable, "-m", "services.cli", "serve"], env=env, cwd=ROOT,
                            stdout=open(log, "wb"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
async def publisher(pool, redis_url: str, redis_prefix: str):
    """The publisher projection, tailing the log as the projector does (batch by batch,
    woken by the API's after-commit message); safe beside another runner of it."""
    runner = ProjectionRunner(PostgresEventStore(pool), batch_size=500)
    projection = Publisher(redis_url=redis_url, prefix=redis_prefix)
    await runner.ensure(projection)
    wake = WakeListener(redis_url, redis_prefix)
    stop = asyncio.Event()

    async def run() -> None:
        while not stop.is_set():
            await runner.catch_up(projection)
            await wake.wait(0.05)

    task = asyncio.create_task(run())
    yield projection
    stop.set()
    await asyncio.wait_for(task, 10)
    await wake.close()
    await projection.close()


@pytest.fixture(scope="module")
async def svc(pool, publisher):
    """The game service on the same database, for reading the truth (and choosing moves)."""
    return MatchService(PostgresEventStore(pool), Vault(pool))


@pytest.fixture
async def http(server):
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        yield client


class Table:
    """Four registered players (and a watcher) and their tokens."""

    def __init__(self, http: httpx.AsyncClient, tokens: dict[str, str], ids: dict[str, str]) -> None:
        self.http, self.tokens, self.ids = http, tokens, ids

    @classmethod
    async def register(cls, http: httpx.AsyncClient) -> "Table":
        tokens, ids = {}, {}
        for who in ["N", "E", "S", "W", "watcher"]:
            response = await http.post("/v1/players", json={"name": f"live {who}"})
            assert response.status_code == 201, response.text
            tokens[who], ids[who] = response.json()["token"], response.json()["player_id"]
        return cls(http, tokens, ids)

    def auth(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[who]}"}

    async def create(self, game: str, options: dict) -> str:
        response = await self.http.post("/v1/matches", headers=self.auth("N"), json={
            "game": game, "options": options, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
        assert response.status_code == 201, response.text
        return response.json()["match_id"]

    async def sit(self, match_id: str, seats: str = "ESW") -> None:
        """Take the seats; the last one taken starts the match."""
        for seat in seats:
            response = await self.http.post(f"/v1/matches/{match_id}/seats/{seat}", headers=self.auth(seat), json={})
            assert response.status_code == 200, response.text

    async def step(self, svc: MatchService, match_id: str, rng: random.Random) -> bool:
        """One random legal action over HTTP, by a seat that may act; False once it is over."""
        state = await svc.load(match_id)
        if state.status != "playing":
            return False
        choices = [(seat, a) for seat in Seat for a in msgspec.to_builtins(rules.view(state, seat).table)["legal"]]
        seat, action = rng.choice(choices)
        body = {"command_id": str(uuid.uuid4()), "expected_version": state.version, **concrete(action, rng)}
        response = await self.http.post(f"/v1/matches/{match_id}/actions", headers=self.auth(seat.value), json=body)
        assert response.status_code == 200, response.text
        return True


class Listener:
    """Collects one stream's messages (decoded) until it closes."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.close_code: int | None = None
        self.first = asyncio.Event()
        self.task: asyncio.Task | None = None

    def got(self, raw: str | bytes) -> None:
        self.messages.append(json.loads(raw))
        self.first.set()

    @property
    def events(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "event"]


def ws_url(base: str, match_id: str, after: int | None = None) -> str:
    return base.replace("http", "ws", 1) + f"/v1/matches/{match_id}/ws" + (f"?after={after}" if after is not None else "")


async def listen_ws(base: str, match_id: str, token: str, after: int | None = None, *, header: bool = True,
                    stop_after: int | None = None) -> Listener:
    """A WebSocket client (auth by header, or by a first message), reading until the close."""
    listener = Listener()

    async def run() -> None:
        headers = {"Authorization": f"Bearer {token}"} if header else {}
        # No read-side queue limit: a client leaving mid-burst would otherwise stop reading at
        # `max_queue` unread messages, and so never read the server's answer to its close.
        async with ws_connect(ws_url(base, match_id, after), additional_headers=headers, max_queue=None) as ws:
            if not header:
                await ws.send(json.dumps({"type": "auth", "token": token}))
            try:
                async for raw in ws:
                    listener.got(raw)
                    if stop_after is not None and len(listener.events) >= stop_after:
                        return  # a client going away mid-deal
            except ConnectionClosed:
                pass
            listener.close_code = ws.close_code

    listener.task = asyncio.create_task(run())
    await asyncio.wait_for(listener.first.wait(), 10)
    return listener


async def listen_http(base: str, match_id: str, token: str, accept: str) -> Listener:
    listener = Listener()

    async def run() -> None:
        headers = {"Authorization": f"Bearer {token}", "Accept": accept}
        async with httpx.AsyncClient(timeout=30) as http:
            async with http.stream("GET", f"{base}/v1/matches/{match_id}/stream", headers=headers) as response:
                assert response.status_code == 200, await response.aread()
                assert response.headers["content-type"].startswith(accept)
                async for line in response.aiter_lines():
                    if accept == "text/event-stream" and line.startswith("data: "):
                        listener.got(line[6:])
                    elif accept != "text/event-stream" and line.strip():
                        listener.got(line)

    listener.task = asyncio.create_task(run())
    await asyncio.wait_for(listener.first.wait(), 10)
    return listener


def card_strings(value: Any, deck: set[str]) -> set[str]:
    if isinstance(value, str):
        return {value} & deck
    if isinstance(value, dict):
        return set().union(*(card_strings(v, deck) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(card_strings(v, deck) for v in value)) if value else set()
    return set()


async def truth(svc: MatchService, match_id: str) -> tuple[list[rules.MatchState], list[tuple[int, Any]]]:
    """Every state (index = version) and every event of the match, from the store."""
    events = [(v, e) for v, e, _ in await svc.events(match_id)]
    states = [rules.initial()]
    for _, event in events:
        states.append(rules.evolve(states[-1], event))
    return states, events


def expected_events(states, events, seat: Seat | None, after: int) -> list[dict[str, Any]]:
    return [json.loads(event_message(v, rules.redact(states[v - 1], e, seat))) for v, e in events if v > after]


def public_cards(states, events, deck: set[str]) -> list[set[str]]:
    """Per version, every card the table has shown to everyone so far: in the spectator's
    view or in an event as a spectator gets it (a turn-up, combinations shown at trick 2)."""
    public = [card_strings(msgspec.to_builtins(rules.view(states[0], None)), deck)]
    for v, event in events:
        shown = card_strings(msgspec.to_builtins(rules.redact(states[v - 1], event, None)), deck)
        public.append(public[-1] | shown | card_strings(msgspec.to_builtins(rules.view(states[v], None)), deck))
    return public


def check_no_leak(listener: Listener, states, public: list[set[str]], seat: Seat | None, deck: set[str]) -> None:
    """No message to `seat` names a card another seat holds at that version, unless the
    table has shown it to everyone."""
    for message in listener.messages:
        state = states[message["version"]]
        hidden = set()
        for other in Seat:
            if other != seat:
                hidden |= set(msgspec.to_builtins(rules.view(state, other).table).get("hand") or ())
        leaked = card_strings(message, deck) & (hidden - public[message["version"]])
        assert not leaked, f"{seat or 'spectator'} saw {sorted(leaked)} at version {message['version']}: {message}"


@pytest.mark.parametrize("game,options", GAMES, ids=[f"{g}-{o.get('variant', '')}" for g, o in GAMES])
async def test_whole_match_every_seat_on_a_websocket(server, http, svc, game, options) -> None:
    table = await Table.register(http)
    match_id = await table.create(game, options)
    await table.sit(match_id, "ES")
    seats = {seat: await listen_ws(server, match_id, table.tokens[seat.value]) for seat in (Seat.N, Seat.E, Seat.S)}
    others = [await listen_ws(server, match_id, table.tokens["watcher"]),
              await listen_http(server, match_id, table.tokens["watcher"], "text/event-stream"),
              await listen_http(server, match_id, table.tokens["S"], "application/x-ndjson")]
    await table.sit(match_id, "W")  # the last seat starts the match
    # West joins once seated (a stream follows the seat held when it opens), from version 3
    # on, authenticating by its first message rather than a header.
    seats[Seat.W] = await listen_ws(server, match_id, table.tokens["W"], after=3, header=False)
    rng = random.Random(f"{game}{options}")
    while await table.step(svc, match_id, rng):
        pass
    listeners = [*seats.values(), *others]
    await asyncio.wait_for(asyncio.gather(*(listener.task for listener in listeners)), 30)

    states, events = await truth(svc, match_id)
    deck = {str(card) for card in states[-1].game.deck}
    public = public_cards(states, events, deck)
    audiences = [*seats.items(), (None, others[0]), (None, others[1]), (Seat.S, others[2])]
    for seat, listener in audiences:
        first = listener.messages[0]
        assert first["type"] == "snapshot" and first["view"]["seat"] == (seat.value if seat else None)
        assert first["view"]["version"] == first["version"] >= 3  # created, two seats taken
        assert listener.events == expected_events(states, events, seat, 3)
        assert listener.events[-1]["event"]["type"] == "match_finished"
        check_no_leak(listener, states, public, seat, deck)
    for listener in seats.values():
        assert listener.close_code == 1000  # the server ends the stream after match_finished
    # hidden events keep their version with a null event, for every audience
    dealt = [v for v, e in events if isinstance(e, rules.DealDealt)]
    for _, listener in audiences:
        assert all(m["event"] is None for m in listener.events if m["version"] in dealt)


async def test_resume_mid_deal_misses_nothing_and_repeats_nothing(server, http, svc) -> None:
    table = await Table.register(http)
    match_id = await table.create("belote", {"deals": 1})
    await table.sit(match_id)
    rng = random.Random(5)
    for _ in range(3):
        await table.step(svc, match_id, rng)
    east = table.tokens["E"]
    first = await listen_ws(server, match_id, east, stop_after=6)
    await asyncio.wait_for(first.first.wait(), 10)  # its snapshot before the moves it is to see live
    for _ in range(10):  # some live, then the client goes away, more while it is gone
        await table.step(svc, match_id, rng)
    await asyncio.wait_for(first.task, 10)
    for _ in range(5):
        await table.step(svc, match_id, rng)
    last = first.messages[-1]["version"]
    second = await listen_ws(server, match_id, east, after=last)
    third = await listen_http(server, match_id, east, "application/x-ndjson")  # a fresh stream alongside
    while await table.step(svc, match_id, rng):
        pass
    await asyncio.wait_for(asyncio.gather(second.task, third.task), 30)

    states, events = await truth(svc, match_id)
    start = first.messages[0]["version"]
    versions = [m["version"] for m in first.events + second.events]
    assert versions == list(range(start + 1, len(events) + 1))
    assert first.events + second.events == expected_events(states, events, Seat.E, start)
    assert second.messages[0]["type"] == "snapshot" and second.messages[0]["version"] > last
    assert third.events == expected_events(states, events, Seat.E, third.messages[0]["version"])


async def test_sse_resumes_from_last_event_id(server, http, svc) -> None:
    table = await Table.register(http)
    match_id = await table.create("cinch", {"deals": 1})
    await table.sit(match_id)
    rng = random.Random(9)
    for _ in range(4):
        await table.step(svc, match_id, rng)
    headers = {**table.auth("N"), "Accept": "text/event-stream", "Last-Event-ID": "2"}
    got = []
    async with http.stream("GET", f"/v1/matches/{match_id}/stream", headers=headers) as response:
        async for line in response.aiter_lines():
            if line.startswith("id: "):
                got.append(int(line[4:]))
            if len(got) >= 3:
                break
    version = (await svc.load(match_id)).version
    assert got == [version, 3, 4]  # the snapshot's id is its version, then the events after 2


async def test_refusals(server, http, svc) -> None:
    table = await Table.register(http)
    match_id = await table.create("belote", {"deals": 1})
    response = await http.get(f"/v1/matches/{match_id}/stream")
    assert response.status_code == 401 and response.json()["code"]
    response = await http.get(f"/v1/matches/{match_id}/stream", headers={"Authorization": "Bearer nope"})
    assert response.status_code == 401
    response = await http.get(f"/v1/matches/{uuid.uuid4()}/stream", headers=table.auth("watcher"))
    assert response.status_code == 404 and response.json()["code"] == "unknown_match"
    async with ws_connect(ws_url(server, match_id)) as ws:
        await ws.send(json.dumps({"type": "auth", "token": "nope"}))
        refused = json.loads(await ws.recv())
        assert refused["code"] == "unauthorized" and refused["type"] == "error" and refused["version"] == 0
        with pytest.raises(ConnectionClosed):
            await ws.recv()
        assert ws.close_code == 4401
    async with ws_connect(ws_url(server, str(uuid.uuid4())), additional_headers=table.auth("watcher")) as ws:
        assert json.loads(await ws.recv())["code"] == "unknown_match"
        with pytest.raises(ConnectionClosed):
            await ws.recv()
        assert ws.close_code == 4404


async def _refused(url: str, headers: dict[str, str] | None = None) -> tuple[dict[str, Any], int | None]:
    """The one message a refused WebSocket handshake says, and its close code."""
    async with ws_connect(url, additional_headers=headers) as ws:
        if headers is None:
            await ws.send(json.dumps({"type": "auth", "token": "nope"}))
        said = json.loads(await asyncio.wait_for(ws.recv(), 10))
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 10)
        return said, ws.close_code


async def test_the_match_chat_and_account_websockets_refuse_alike(server, http) -> None:
    """Each live WebSocket says why in one error message (type, version 0, code, message,
    details) and closes with the code docs/live.md gives it."""
    table = await Table.register(http)
    match_id = await table.create("belote", {"deals": 1})
    ws = server.replace("http", "ws", 1)
    unknown = str(uuid.uuid4())
    cases = [
        (f"{ws}/v1/matches/{match_id}/ws", None, "unauthorized", 4401),
        (f"{ws}/v1/matches/{match_id}/chat/ws", None, "unauthorized", 4401),
        (f"{ws}/v1/stream/me/ws", None, "unauthorized", 4401),
        (f"{ws}/v1/matches/{match_id}/ws?after=x", table.auth("N"), "invalid_field", 4400),
        (f"{ws}/v1/matches/{match_id}/chat/ws?after=-1", table.auth("N"), "invalid_field", 4400),
        (f"{ws}/v1/stream/me/ws?after=x", table.auth("N"), "invalid_field", 4400),
        (f"{ws}/v1/matches/{unknown}/ws", table.auth("watcher"), "unknown_match", 4404),
        (f"{ws}/v1/matches/{unknown}/chat/ws", table.auth("watcher"), "unknown_match", 4404),
        (f"{ws}/v1/stream/me/ws?after=1000", table.auth("watcher"), "resync", 4008),   # past anything kept
    ]
    for url, headers, code, close in cases:
        said, closed = await _refused(url, headers)
        assert (said["type"], said["version"], said["code"], closed) == ("error", 0, code, close), (url, said, closed)
        assert said["message"] and isinstance(said["details"], dict), said
    said, _ = await _refused(f"{ws}/v1/stream/me/ws?after=1000", table.auth("watcher"))
    assert said["details"] == {"reason": "expired", "after": 1000}
    said, _ = await _refused(f"{ws}/v1/matches/{unknown}/chat/ws", table.auth("watcher"))
    assert said["details"] == {"match_id": unknown}


async def test_a_seat_connecting_and_going_away_is_recorded_outside_the_match_stream(server, http, svc) -> None:
    from infra.presence import SEAT_CONNECTED, SEAT_DISCONNECTED, away

    table = await Table.register(http)
    match_id = await table.create("cinch", {"deals": 1})
    await table.sit(match_id)
    version = (await svc.load(match_id)).version
    listener = await listen_ws(server, match_id, table.tokens["E"], stop_after=0)   # opens, then goes away
    await asyncio.wait_for(listener.task, 10)
    deadline = time.monotonic() + 10
    while "E" not in await away(svc.store, match_id):
        assert time.monotonic() < deadline, "the disconnect was never recorded"
        await asyncio.sleep(0.05)
    recorded = await svc.store.read_stream(f"presence-{match_id}", 0)
    assert [(r.type, json.loads(r.data)["seat"]) for r in recorded] == [(SEAT_CONNECTED, "E"), (SEAT_DISCONNECTED, "E")]
    assert (await svc.load(match_id)).version == version       # the match's version never moves for it


async def test_after_is_one_rule_on_every_route_and_socket(server, http) -> None:
    """`after` is plain decimal digits up to 2**53 everywhere: HTTP refuses `1e1`, `1.0` and
    a number past Python's int-string limit with 400 `invalid_field` naming it, as the sockets
    refuse them (that error, then 4400) instead of failing with 4500."""
    table = await Table.register(http)
    match_id = await table.create("belote", {"deals": 1})
    huge = "9" * 5000
    bad = ["1e1", "1.0", "+1", " 1", "-1", "", "01", "\u0663", huge, str(2**53 + 1)]
    routes = [f"/v1/matches/{match_id}/events", f"/v1/matches/{match_id}/stream",
              f"/v1/matches/{match_id}/chat/stream", "/v1/stream/me"]
    for route in routes:
        for after in bad:
            response = await http.get(route, params={"after": after}, headers=table.auth("N"))
            assert response.status_code == 400, (route, after[:10], response.status_code, response.text[:200])
            body = response.json()
            assert body["code"] == "invalid_field" and body["details"]["field"] == "after", body
    ok = await http.get(f"/v1/matches/{match_id}/events", params={"after": "7"}, headers=table.auth("N"))
    assert ok.status_code == 200, ok.text
    response = await http.get(f"/v1/matches/{match_id}/stream", headers={
        **table.auth("N"), "Accept": "text/event-stream", "Last-Event-ID": huge})
    assert response.status_code == 400 and response.json()["details"]["field"] == "Last-Event-ID", response.text[:200]
    ws = server.replace("http", "ws", 1)
    for path in (f"/v1/matches/{match_id}/ws", f"/v1/matches/{match_id}/chat/ws", "/v1/stream/me/ws"):
        for after in ("1e3", "1.0", huge):
            said, closed = await _refused(f"{ws}{path}?after={after}", table.auth("N"))
            assert (said["code"], said["details"]["field"], closed) == ("invalid_field", "after", 4400), (path, said)
