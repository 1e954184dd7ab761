"""Every route, for a sealed round, as everyone who plays in it and as outsiders: no route
shows a hidden card, nor anything derived from a table the reader may not watch.

A real `atout serve` (rate limit off), real Postgres and Redis. A rated tournament of four
tables plays the same two boards: table 4 (four people) has finished both, table 3 has finished
board 1, table 1 is in the middle of board 1, table 2 has just been dealt it. Beside it, a
private table of four other people has finished. The readers are a plain player at table 1,
the organiser and an admin seated at table 1, the player of table 2 (an entrant of another
table, who follows the players of tables 1 and 4), the player of table 3 (whose table finished
board 1 while the round is open), a spectator (a player with no part in either) and a stranger
to the private table.

The walk is generic, so a new route cannot forget the check: it takes every operation of the
served OpenAPI document and every WebSocket route of the app's route table, fills path
parameters with the tournament's, the tables' and the deals' ids, tries each query parameter's
values (enums, deals, seats), and reads each answer (a live stream for a moment). A 2xx body
fails the test when it shows, for its reader:

- a card in another seat's hand at the reader's own table that his seat has not been shown
  (for the readers whose table is in its first deal);
- a deck — a list of more than a hand's cards — of any table (every table is a sealed board
  until the round closes);
- a board's seed (they are revealed when the round closes);
- what a table the reader may not watch derives: an object about it (its `match_id`) with a
  score, a winner, a match version, a rating, or a time other than its status changes';
- stats, ratings or a leaderboard place of a player whose only finished match is table 4
  (round open) or the private table.

A dispute filed on the finished table and one filed by the seated admin's partner on his own
table name a card the seated admin may not see, and a rail message naming one is reported, so
the admins' queues are walked with something to hide. The read models the routes read are
caught up before the walk (no projector runs beside this server).

Write operations are sent an empty body (which the contract refuses) except the two that act
on the caller himself: `DELETE /v1/players/me/token` (revokes the walker's token) and
`POST …/rematch` (deals a new deck, whose cards are no board's). The tables must not move
during the walk.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar.routes import WebSocketRoute
from websockets.asyncio.client import connect as ws_connect

from domain import match as rules
from domain.cards import Seat
from domain.playout import concrete
from domain import ratings as rating_rules
from infra.projections import MatchSummaries, ProjectionRunner
from infra.projections.disputes import DisputesQueue
from infra.projections.ratings import Ratings
from infra.projections.reports import ChatReports
from infra.projections.social import SocialTies
from infra.settings import Settings
from infra.store import PostgresEventStore, create_pool, migrate
from infra.store.connection import connect
from infra.vault import Vault
from services.http.app import create_app
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from tests.contract.match_support import play_out

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
CARD = re.compile(r"^(10|[2-9TJQKA])[SHDC]$")
HAND_MAX = 8                                   # a belote hand; a longer list of cards is a deck
LISTEN = 1.0                                   # seconds a live stream is read
SKIPPED = {("delete", "/v1/players/me/token"), ("post", "/v1/matches/{match_id}/rematch")}
BODY = {"name": "Walk", "game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 2}, "rated": True}
DERIVED = ("score", "winner", "rating", "mu", "old_rating", "new_rating")
STANDING = ("rating", "games", "wins", "matches")   # a player's standing in a pool
STATUS_EVENTS = {"match_created", "match_started", "match_finished", "match_reopened", "match_abandoned",
                 "match_suspended", "match_resumed", "match_voided"}   # what a table's listed time may follow


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
async def pool(database_url: str):
    conn = await connect(database_url)
    await migrate(conn)
    await conn.close()
    pool = await create_pool(database_url, max_size=4)
    yield pool
    await pool.close()


@pytest.fixture(scope="module")
def server(pool, database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory) -> str:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env.update(ATOUT_PORT=str(port), ATOUT_DATABASE_URL=database_url, ATOUT_REDIS_URL=redis_url,
               ATOUT_REDIS_PREFIX=redis_prefix, ATOUT_LOG_LEVEL="warning", ATOUT_RATE_LIMIT_REQUESTS="0")
    log = tmp_path_factory.mktemp("walk") / "server.log"
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


# --- the round ---------------------------------------------------------------------------------

async def player(http: httpx.AsyncClient, pool, role: str = "player") -> dict[str, Any]:
    answer = (await http.post("/v1/players", json={"name": f"walk {role}"})).json()
    if role != "player":
        await pool.execute("UPDATE players SET role = $2 WHERE player_id = $1", answer["player_id"], role)
    return {"id": answer["player_id"], "token": answer["token"],
            "headers": {"Authorization": f"Bearer {answer['token']}"}}


async def act_until(svc: MatchService, match_id: str, rng: random.Random, done) -> rules.MatchState:
    for _ in range(2000):
        state = await svc.load(match_id)
        if done(state) or state.status != "playing":
            return state
        choices = [(s, a) for s in Seat for a in msgspec.to_builtins(rules.view(state, s).table)["legal"]]
        seat, action = rng.choice(choices)
        await svc.act(match_id, {"seat": seat.value, **concrete(action, rng)},
                      player_id=state.seats[seat.value].player_id, expected_version=state.version,
                      command_id=uuid.uuid4())
    raise AssertionError("the table never got there")


def cards_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*map(cards_in, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(cards_in, value)) if value else set()
    return set()


def decks_in(value: Any) -> list[list[str]]:
    """Every list holding more cards than a hand can."""
    found = []
    if isinstance(value, list):
        if sum(1 for v in value if isinstance(v, str) and CARD.match(v)) > HAND_MAX:
            found.append(value)
        for v in value:
            found += decks_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            found += decks_in(v)
    return found


class Round:
    """The tournament, its tables' ids, and what each reader may not see."""

    def __init__(self) -> None:
        self.tid = ""
        self.tables: list[str] = []
        self.readers: dict[str, dict[str, Any]] = {}
        self.seeds: list[str] = []
        self.versions: dict[str, int] = {}
        self.private = ""                                  # the finished private table
        self.unseen: list[str] = []                        # players whose only finished match is sealed
        self.moments: dict[str, set[str]] = {}             # each table's status-change times (ISO)


async def sealed_round(server: str, pool) -> Round:
    store = PostgresEventStore(pool)
    svc = TournamentService(store, MatchService(store, Vault(pool)))
    out = Round()
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        owner, admin = await player(http, pool, "organiser"), await player(http, pool, "admin")
        alice, bob, carol = await player(http, pool), await player(http, pool), await player(http, pool)
        tid = (await http.post("/v1/tournaments", json=BODY, headers=owner["headers"])).json()["tournament_id"]

        async def entry(players: list[str], by: dict[str, Any]) -> str:
            answer = await http.post(f"/v1/tournaments/{tid}/entries", json={"players": players},
                                     headers=by["headers"])
            assert answer.status_code == 201, answer.text
            return answer.json()["entry_id"]

        dave, erin, frank, gina = [await player(http, pool) for _ in range(4)]
        entries = [await entry([owner["id"], alice["id"]], owner), await entry([admin["id"]], admin),
                   await entry([bob["id"]], bob), await entry(["bot:random", "bot:random"], owner),
                   await entry([carol["id"]], carol), await entry(["bot:random", "bot:random"], owner),
                   await entry([dave["id"], erin["id"]], dave), await entry([frank["id"], gina["id"]], frank)]
        pairing = {"round": 1, "tables": [entries[i:i + 2] for i in range(0, 8, 2)]}
        paired = await http.post(f"/v1/tournaments/{tid}/pairings", json=pairing, headers=owner["headers"])
        assert paired.status_code == 200, paired.text
        started = (await http.post(f"/v1/tournaments/{tid}/start", headers=owner["headers"])).json()
        out.tid, out.tables = tid, [t["match_id"] for t in started["rounds"][0]["tables"]]
        first, second, third, fourth = out.tables

        assert (await svc.matches.load(fourth)).rated           # four people: a rated table
        await play_out(svc.matches, fourth, random.Random(11))
        await act_until(svc.matches, third, random.Random(12), lambda s: s.deal_index >= 1)
        await act_until(svc.matches, first, random.Random(13),
                        lambda s: sum(1 for a in s.actions if a.get("action") == "play") >= 6)
        await svc.advance(tid)
        state = await svc.load(tid)
        assert not state.current.closed
        out.seeds = list((await svc._seeds(state, state.current)).values())

        for name, who, table in (("seated player", alice, first), ("seated organiser", owner, first),
                                 ("seated admin", admin, first), ("entrant of another table", bob, second),
                                 ("seated after board 1", carol, third)):
            match = await svc.matches.load(table)
            seat = next(s for s, h in match.seats.items() if h is not None and h.player_id == who["id"])
            hidden: set[str] = set()
            if match.deal_index == 0:                  # his first deal: every other hand is hidden
                for other in Seat:
                    if other.value != seat:
                        hidden |= set(msgspec.to_builtins(rules.view(match, other).table).get("hand") or ())
                shown = (await http.get(f"/v1/matches/{table}", headers=who["headers"])).json()
                events = (await http.get(f"/v1/matches/{table}/events?after=0", headers=who["headers"])).json()
                hidden -= cards_in(shown) | cards_in(events)
                assert hidden, name
            out.readers[name] = {**who, "hidden": hidden, "unwatchable": set(out.tables) - {table}}
        # A dispute on the finished table naming a card the seated admin may not see, and the
        # read models caught up (no projector runs beside this server).
        referee = await player(http, pool, "admin")
        card = sorted(out.readers["seated admin"]["hidden"])[0]
        filed = await http.post(f"/v1/matches/{fourth}/disputes", headers=referee["headers"],
                                json={"deal": 0, "reason": "a revoke", "position": {"trick": 0, "card": card}})
        assert filed.status_code == 201, filed.text
        # The seated admin's partner files on their own table, naming another card hidden from
        # him; the referee (watching) writes a third on the rail, and another admin reports it.
        # Hers: the cards of her hand she has not shown (a declared combination shows some).
        hidden = sorted(out.readers["seated admin"]["hidden"] - out.readers["seated player"]["hidden"])
        partner = await http.post(f"/v1/matches/{first}/disputes", headers=alice["headers"],
                                  json={"deal": 0, "reason": "a revoke", "position": {"trick": 0, "card": hidden[0]}})
        assert partner.status_code == 201, partner.text
        rail = await http.post(f"/v1/matches/{first}/chat", headers=referee["headers"],
                               json={"text": next(c for c in sorted(out.readers["seated admin"]["hidden"])
                                                  if c not in {card, hidden[0]}),
                                     "command_id": str(uuid.uuid4())})
        assert rail.status_code == 201, rail.text
        reporter = await player(http, pool, "admin")
        reported = await http.post("/v1/reports", headers=reporter["headers"],
                                   json={"match_id": first, "message_id": rail.json()["message"]["message_id"],
                                         "reason": "names a hand"})
        assert reported.status_code == 201, reported.text
        # Table 2's player follows players of table 1 (playing) and table 4 (over, round open).
        for followed in (alice, dave):
            tie = await http.post("/v1/players/me/following", headers=bob["headers"], json={"player_id": followed["id"]})
            assert tie.status_code == 200, tie.text
        # A private table of four other people, over.
        strangers = [await player(http, pool) for _ in range(4)]
        made = await svc.matches.create_match("belote", {"deals": 1}, {"N": "me", "E": "open", "S": "open", "W": "open"},
                                              player_id=strangers[0]["id"], private=True)
        out.private = made.match_id
        for seat, who in zip("ESW", strangers[1:]):
            await svc.matches.take_seat(out.private, Seat(seat), player_id=who["id"], command_id=uuid.uuid4())
        if (await svc.matches.load(out.private)).status == "open":
            await svc.matches.start(out.private, command_id=uuid.uuid4())
        assert (await play_out(svc.matches, out.private, random.Random(14))).status == "finished"
        out.unseen = [who["id"] for who in (dave, erin, frank, gina, *strangers)]
        for name in ("spectator", "stranger to a private table"):
            out.readers[name] = {**await player(http, pool), "hidden": set(),
                                 "unwatchable": {*out.tables, out.private}}
        runner = ProjectionRunner(store)
        await store.settle()
        for projection in (DisputesQueue(), MatchSummaries(), Ratings(), SocialTies(), ChatReports()):
            await runner.ensure(projection)
            await runner.catch_up(projection)
        assert await pool.fetchval("SELECT count(*) FROM rating_matches WHERE match_id = $1", fourth) == 1
        out.versions = {m: (await svc.matches.load(m)).version for m in out.tables}
        for m in out.tables:
            out.moments[m] = {r.recorded_at.isoformat() for r in await store.read_stream(f"match-{m}")
                              if r.type in STATUS_EVENTS}
    return out


# --- the walk ----------------------------------------------------------------------------------

def requests_of(doc: dict[str, Any], rnd: Round) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(method, template, url path, query) for every operation, path parameters filled."""
    out = []
    for template, item in doc["paths"].items():
        for method, op in item.items():
            if method not in ("get", "post", "put", "delete", "patch") or (method, template) in SKIPPED:
                continue
            params = op.get("parameters", [])
            names = re.findall(r"{(\w+)}", template)
            values = [_path_values(name, rnd, method) for name in names]
            queries: list[dict[str, Any]] = [{}]
            for p in params:
                if p.get("in") == "query":
                    queries += [{p["name"]: v} for v in _query_values(p)]
            for filled in itertools.product(*values):
                path = template
                for name, value in zip(names, filled):
                    path = path.replace("{" + name + "}", str(value))
                out += [(method, template, path, q) for q in queries]
    return out


def _path_values(name: str, rnd: Round, method: str = "get") -> list[Any]:
    if name.endswith("match_id"):
        return [*rnd.tables, rnd.private]
    if name == "player_id" and method == "get":          # reads only: a write would erase or unfollow
        return rnd.unseen[:1] + rnd.unseen[-1:]
    if name == "pool":
        return list(rating_rules.POOLS)
    if name == "tournament_id":
        return [rnd.tid]
    if name == "deal":
        return [0, 1]
    if name == "seat":
        return list("NESW")
    return ["unknown"]


def _query_values(param: dict[str, Any]) -> list[Any]:
    schema = param.get("schema", {})
    options = [s for s in schema.get("oneOf", schema.get("anyOf", [schema]))]
    enum = [v for s in options for v in s.get("enum", [])]
    if enum:
        return enum
    if param["name"] == "deal":
        return [0, 1]
    if param["name"] == "seat":
        return list("NESW")
    if param["name"] == "after":
        return [0]
    if any(s.get("type") == "boolean" for s in options):
        return ["true"]
    return []


def messages_of(text: str, content_type: str) -> list[Any]:
    if "json" not in content_type and "event-stream" not in content_type:
        return []                                  # HTML pages, metrics, CSV: no match data
    out = []
    for line in text.splitlines() if ("ndjson" in content_type or "event-stream" in content_type) else [text]:
        line = line[6:] if line.startswith("data: ") else line
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def about_the_round(value: Any, ours: set[str]) -> Any:
    """`value` without the objects about other matches (a list such as the disputes queue
    holds the whole server's; another match's cards are no board of this round)."""
    if isinstance(value, dict):
        if isinstance(value.get("match_id"), str) and value["match_id"] not in ours:
            return None
        return {k: about_the_round(v, ours) for k, v in value.items()}
    if isinstance(value, list):
        return [about_the_round(v, ours) for v in value]
    return value


def leaks(reader: dict[str, Any], rnd: Round, text: str, bodies: list[Any], path: str) -> list[str]:
    found = derived(reader, rnd, bodies)
    if rnd.private in path:                # a casual table, no board: its cards are its own business
        return found
    bodies = about_the_round(bodies, set(rnd.tables))
    seen = cards_in(bodies) & reader["hidden"]
    if seen:
        found.append(f"cards hidden from the seat: {sorted(seen)}")
    if decks_in(bodies):
        found.append(f"a sealed deck: {decks_in(bodies)[0][:6]}…")
    found += [f"a board's seed {seed[:12]}…" for seed in rnd.seeds if seed in text]
    return found


def derived(reader: dict[str, Any], rnd: Round, value: Any) -> list[str]:
    """What a table the reader may not watch derives, wherever it shows: its result, score,
    version, a rating moved by it, a moving time; and the standing of a player whose only
    finished match is such a table."""
    found: list[str] = []
    if isinstance(value, list):
        for v in value:
            found += derived(reader, rnd, v)
    if not isinstance(value, dict):
        return found
    about = value.get("match_id")
    if isinstance(about, str) and about in reader["unwatchable"]:
        shown = [k for k in DERIVED if value.get(k) not in (None, {}, [])]
        if value.get("version") is not None and "seats" in value:            # a match's version
            shown.append("version")
        if "seats" in value:                                                   # a match row's time
            shown += [k for k in ("updated_at", "at") if isinstance(value.get(k), str)
                      and value[k] not in rnd.moments.get(about, {value[k]})]
        if shown:
            found.append(f"a table it may not watch ({about[:8]}…): {shown}")
    if value.get("player_id") in rnd.unseen and (value.get("pools") or any(value.get(k) for k in STANDING)):
        found.append(f"the standing of a player whose only match is sealed or private: {str(value)[:80]}")
    for v in value.values():
        found += derived(reader, rnd, v)
    return found


async def read_http(http: httpx.AsyncClient, method: str, path: str, query: dict[str, Any],
                    headers: dict[str, str]) -> tuple[int, str, str]:
    """Status, content type and body (a live stream: what came within LISTEN seconds)."""
    kwargs: dict[str, Any] = {"params": query, "headers": headers}
    if method != "get" and method != "delete":
        kwargs["json"] = {}
    chunks: list[str] = []
    async with http.stream(method.upper(), path, **kwargs) as answer:
        kind = answer.headers.get("content-type", "")

        async def body() -> None:
            async for chunk in answer.aiter_text():
                chunks.append(chunk)

        try:
            await asyncio.wait_for(body(), LISTEN if "ndjson" in kind or "event-stream" in kind else 30)
        except TimeoutError:
            pass
        return answer.status_code, kind, "".join(chunks)


async def read_ws(base: str, path: str, token: str) -> list[Any]:
    out: list[Any] = []
    async with ws_connect(base.replace("http", "ws", 1) + path) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        try:
            async with asyncio.timeout(LISTEN):
                async for text in ws:
                    out.append(json.loads(text))
        except (TimeoutError, Exception):
            pass
    return out


def ws_routes(api_settings: Settings) -> list[str]:
    """The app's WebSocket routes (the OpenAPI document does not list them)."""
    app = create_app(api_settings)
    return [re.sub(r"{(\w+):\w+}", r"{\1}", r.path) for r in app.routes if isinstance(r, WebSocketRoute)]


async def test_no_route_shows_a_sealed_card_to_anyone_playing(server, pool, api_settings) -> None:
    rnd = await sealed_round(server, pool)
    problems: list[str] = []
    walked = {"http": 0, "ws": 0, "2xx": 0}
    limit = asyncio.Semaphore(8)
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        doc = (await http.get("/schema/openapi.json")).json()
        operations = requests_of(doc, rnd)
        templates = {t for _, t, _, _ in operations}
        for expected in ("/v1/admin/matches/{match_id}/deals/{deal}/replay", "/v1/matches/{match_id}/export",
                         "/v1/matches/{match_id}/deals/{deal}/verify", "/v1/matches/{match_id}/events",
                         "/v1/matches/{match_id}/record", "/v1/matches/{match_id}/stream",
                         "/v1/tournaments/{tournament_id}/export", "/v1/tournaments/{tournament_id}/live"):
            assert expected in templates, expected  # the walk sees the routes it is about
        sockets = ws_routes(api_settings)
        assert {"/v1/matches/{match_id}/ws", "/v1/tournaments/{tournament_id}/ws"} <= set(sockets)

        async def one_http(name: str, reader: dict[str, Any], method: str, template: str, path: str,
                           query: dict[str, Any]):
            async with limit:
                status, kind, text = await read_http(http, method, path, query, reader["headers"])
            walked["http"] += 1
            if 200 <= status < 300:
                walked["2xx"] += 1
                for leak in leaks(reader, rnd, text, messages_of(text, kind), path):
                    problems.append(f"{name}: {method.upper()} {template} ({path} {query or ''}) -> {status}: {leak}")

        async def one_ws(name: str, reader: dict[str, Any], template: str):
            names = re.findall(r"{(\w+)}", template)
            for filled in itertools.product(*(_path_values(n, rnd) for n in names)):
                path = template
                for n, value in zip(names, filled):
                    path = path.replace("{" + n + "}", str(value))
                async with limit:
                    messages = await read_ws(server, path + "?after=0", reader["token"])
                walked["ws"] += 1
                for leak in leaks(reader, rnd, json.dumps(messages), messages, path):
                    problems.append(f"{name}: WS {template} ({path}) -> {leak}")

        for name, reader in rnd.readers.items():
            await asyncio.gather(*(one_http(name, reader, m, t, p, q) for m, t, p, q in operations),
                                 *(one_ws(name, reader, t) for t in sockets))

        # Nothing the walk sent moved a table.
        store = PostgresEventStore(pool)
        matches = MatchService(store, Vault(pool))
        assert {m: (await matches.load(m)).version for m in rnd.tables} == rnd.versions

    filled = sum(len(list(itertools.product(*(_path_values(n, rnd) for n in re.findall(r"{(\w+)}", t)))))
                 for t in sockets)
    assert walked["2xx"] > 100 and walked["ws"] == len(rnd.readers) * filled, walked
    assert not problems, "\n".join(sorted(set(problems)))
    print(f"walked: {walked}")

    # Filing a dispute on a table one may not watch tells nothing: not its deal count, not
    # that it exists (it was 201 until the deal was too high, then 422).
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        for name, deal in (("seated admin", 0), ("seated admin", 5), ("seated organiser", 0),
                           ("stranger to a private table", 0)):
            reader = rnd.readers[name]
            for table in sorted(reader["unwatchable"]):
                filed = await http.post(f"/v1/matches/{table}/disputes", headers=reader["headers"],
                                        json={"deal": deal, "reason": "probing", "command_id": str(uuid.uuid4())})
                assert (filed.status_code, filed.json()["code"]) == (404, "unknown_match"), (name, filed.text)
