"""Documents a generator can trust: clients generated from what a real `atout serve` serves.

- `openapi-python-client` (PyPI) generates a Python client from `/schema/openapi.json` without
  omitting any response; a program written against it (tests/e2e/clients/play.py) passes
  `mypy --strict` and plays one whole deal of each game, every action made from the view's
  typed legal actions, and what the match's stream carries is what the AsyncAPI document says.
- `openapi-typescript` (npm) turns the same document into TypeScript types; a program written
  with `openapi-fetch` against them (tests/e2e/clients/play.ts) passes `tsc --strict` (and a
  wrong body fails it), then plays one whole deal of each game under node.
- A route whose body is optional is called without one, by both clients.
- `/schema/asyncapi.json` validates with the AsyncAPI parser (`@asyncapi/parser`, npm).
- From the two documents alone, a client follows its account stream while it plays a rated
  match (every message valid by the AsyncAPI document's schemas of `accountStream`: turns,
  start, end, its rating changed) and lists tournaments by status and its own, page by page
  through the `Link` header, with the generated client.

Each client is generated once for the module (tests/e2e/clients/tools.py has the pinned tools).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import asyncpg
import httpx
import pytest

from domain.playout import concrete
from tests.e2e.clients import tools
from tests.e2e.system_support import serving

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"belote", "cinch", "five_hundred"}


@pytest.fixture(scope="module")
def node_tools() -> Path:
    return tools.install_node_tools()


@pytest.fixture(scope="module")
def server(tmp_path_factory, migrated_database_url: str, redis_url: str, redis_prefix: str):
    with serving(tmp_path_factory.mktemp("clients"), migrated_database_url, redis_url, f"{redis_prefix}:clients",
                 projector=True, ATOUT_RATE_LIMIT_REQUESTS="0") as base:
        asyncio.run(caught_up(migrated_database_url, ("account_events", "ratings", "tournament_standings")))
        yield base


async def caught_up(url: str, names: tuple[str, ...], timeout: float = 240.0) -> None:
    """Wait until the server's projector has read the log as it is now: the session's database
    holds what every earlier test wrote, which a projector starting here reads first."""
    conn = await asyncpg.connect(url)
    try:
        head = await conn.fetchrow("SELECT tx_id::text::bigint AS tx, position FROM events "
                                   "ORDER BY tx_id DESC, position DESC LIMIT 1")
        deadline = time.monotonic() + timeout
        while head is not None:
            rows = await conn.fetch("SELECT tx_id::text::bigint AS tx, position FROM projection_checkpoints "
                                    "WHERE name = ANY($1::text[])", list(names))
            if len(rows) == len(names) and all((r["tx"], r["position"]) >= (head["tx"], head["position"])
                                               for r in rows):
                return
            assert time.monotonic() < deadline, "the server's projector did not catch up"
            await asyncio.sleep(0.2)
    finally:
        await conn.close()


@pytest.fixture(scope="module")
def documents(server: str, tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("documents")
    out = {}
    for name in ("openapi", "asyncapi"):
        answer = httpx.get(f"{server}/schema/{name}.json", timeout=30)
        assert answer.status_code == 200 and "json" in answer.headers["content-type"]
        out[name] = folder / f"{name}.json"
        out[name].write_text(answer.text)
    return out


# --- AsyncAPI -------------------------------------------------------------------------------------

def test_the_asyncapi_document_validates(node_tools: Path, documents: dict[str, Path]) -> None:
    done = subprocess.run(["node", str(tools.HERE / "parse_asyncapi.js"), str(documents["asyncapi"])],
                          capture_output=True, text=True, timeout=120, cwd=node_tools,
                          env={"NODE_PATH": str(node_tools / "node_modules"), "PATH": "/usr/bin:/bin:/usr/local/bin"})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    errors = [d for d in report["diagnostics"] if d["severity"] == 0]
    assert report["parsed"] and not errors, errors
    assert {"/v1/matches/{match_id}/ws", "/v1/matches/{match_id}/stream", "/v1/tournaments/{tournament_id}/ws",
            "/v1/tournaments/{tournament_id}/live", "/v1/stream/me", "/v1/stream/me/ws"} <= set(report["channels"])


# --- TypeScript -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def typescript(node_tools: Path, documents: dict[str, Path], mypy: Any, tmp_path_factory) -> Path:
    """The types, both programs type-checked by `tsc --strict` and compiled (once), while mypy
    checks the Python program."""
    folder = tools.typescript_types(node_tools, documents["openapi"], tmp_path_factory.mktemp("typescript"))
    for program in ("typed.ts", "play.ts"):
        shutil.copy(tools.HERE / program, folder / program)
    compiled = tools.tsc_strict(node_tools, folder, "typed.ts", "play.ts")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return folder


def test_typescript_types_from_the_openapi_document_compile(typescript: Path) -> None:
    assert (typescript / "out" / "typed.js").exists() and (typescript / "out" / "play.js").exists()


def test_a_typescript_program_plays_a_deal_of_each_game(typescript: Path, server: str) -> None:
    played = tools.run(["node", str(typescript / "out" / "play.js"), server], cwd=typescript)
    assert set(played) == GAMES and all(p["status"] == "finished" and p["actions"] > 20 for p in played.values()), \
        played


# --- Python ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def python_client(documents: dict[str, Path], tmp_path_factory) -> Any:
    folder = tools.python_client(documents["openapi"], tmp_path_factory.mktemp("python-client"))
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("atout_client")
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == "atout_client" or m.startswith("atout_client.")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def mypy(python_client: Any, tmp_path_factory) -> Any:
    """`mypy --strict` of the Python program, started (the test waits for it)."""
    client = Path(python_client.__file__).parents[1]
    checking = tools.mypy_strict(tools.HERE / "play.py", client, tmp_path_factory.mktemp("mypy"))
    yield checking
    if checking.poll() is None:
        checking.kill()
        checking.wait(10)


def test_a_typed_python_program_plays_a_deal_of_each_game(python_client: Any, mypy: Any, server: str) -> None:
    output, _ = mypy.communicate(timeout=300)
    assert mypy.returncode == 0, output
    client = Path(python_client.__file__).parents[1]
    played = tools.run([sys.executable, str(tools.HERE / "play.py"), server], cwd=client,
                       env={**os.environ, "PYTHONPATH": str(client)})
    assert set(played) == GAMES and all(p["status"] == "finished" and p["actions"] > 20 for p in played.values()), \
        played

    # What the stream of each match carries is what the AsyncAPI document declares: every
    # message decodes, strictly, as one of its channel's messages.
    import msgspec

    from services.http import asyncapi

    declared = msgspec.json.Decoder(asyncapi.Snapshot | asyncapi.Event | asyncapi.Error)
    for game in played.values():
        with httpx.stream("GET", f"{server}/v1/matches/{game['match_id']}/stream?after=0", timeout=30,
                          headers={"Authorization": f"Bearer {game['token']}", "Accept": "application/x-ndjson"}) \
                as answer:
            lines = [line for line in answer.iter_lines() if line.strip()]
        messages = [declared.decode(line) for line in lines]
        assert isinstance(messages[0], asyncapi.Snapshot), messages[0]
        assert all(isinstance(m, asyncapi.Event) for m in messages[1:])
        assert [m.version for m in messages[1:]] == list(range(1, messages[0].version + 1))
        assert messages[-1].event is not None and messages[-1].event["type"] == "match_finished"


def _call(module: str, **kwargs: Any) -> Any:
    """One generated operation, by its module: the parsed body of a 2xx answer."""
    operation = importlib.import_module(f"atout_client.api.{module}")
    answer = operation.sync_detailed(**kwargs)
    assert 200 <= answer.status_code < 300, (module, answer.status_code, answer.content)
    return answer.parsed


def _body(parsed: Any) -> dict[str, Any]:
    return parsed.to_dict() if hasattr(parsed, "to_dict") else parsed


IDS: dict[str, str] = {}     # token -> player id, of the players registered here


def _register(server: str, names: str) -> dict[str, Any]:
    models = importlib.import_module("atout_client.models")
    client_module = importlib.import_module("atout_client")
    anonymous = client_module.Client(base_url=server)
    players = {}
    for seat in names:
        registered = _call("players.v1_players_register", client=anonymous,
                           body=models.Register(name=f"generated {seat}"))
        players[seat] = client_module.AuthenticatedClient(base_url=server, token=registered.token)
        IDS[registered.token] = registered.player_id
    return players


def _play(players: dict[str, Any], **create: Any) -> str:
    """Create a cinch match as N, seat the three others (no body: it is optional), and act
    until it is over, each action as a body the server reads (its generated command model
    from the legal action as a dict): the match id."""
    models = importlib.import_module("atout_client.models")
    created = _body(_call("matches.v1_matches_create_match", client=players["N"],
                          body=models.CreateMatch.from_dict({"game": "cinch", "options": {"deals": 1},
                                                             "seats": {"N": "me", "E": "open", "S": "open",
                                                                       "W": "open"}, **create})))
    match_id = created["match_id"]
    for seat in "ESW":
        _call("matches.v1_matches_match_id_seats_take_seat", match_id=match_id, seat=seat, client=players[seat])
    rng, acted = random.Random(7), 0
    for _ in range(1000):
        table = _body(_call("matches.v1_matches_match_id_get_match", match_id=match_id,
                            client=players["N"]))
        if table["status"] == "finished":
            break
        seat = rng.choice(table["to_act"])
        mine = _body(_call("matches.v1_matches_match_id_get_match", match_id=match_id,
                           client=players[seat]))
        action = {k: v for k, v in concrete(rng.choice(mine["table"]["legal"]), rng).items() if k != "seat"}
        model = getattr(models, f"Cinch{action['action'].capitalize()}Command")
        _call("play.v1_matches_match_id_actions_act", match_id=match_id, client=players[seat],
              body=model.from_dict({"command_id": str(uuid.uuid4()), "expected_version": mine["version"], **action}))
        acted += 1
    assert table["status"] == "finished" and acted > 20, (table["status"], acted)
    return match_id


# --- the account stream and the tournament lists, from the two documents alone -----------------

class AccountFollower(threading.Thread):
    """`GET /v1/stream/me` as SSE, read as the AsyncAPI document's `accountStream` says, until
    `done(messages)` holds or the stream has been quiet for `quiet` seconds."""

    def __init__(self, server: str, token: str, done: Any, quiet: float = 30.0) -> None:
        super().__init__(daemon=True)
        self.server, self.token, self.done, self.quiet = server, token, done, quiet
        self.messages: list[dict[str, Any]] = []
        self.opened = threading.Event()

    def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
        timeout = httpx.Timeout(10.0, read=self.quiet)
        with httpx.stream("GET", f"{self.server}/v1/stream/me", headers=headers, timeout=timeout) as answer:
            assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/event-stream")
            try:
                for line in answer.iter_lines():
                    if line.startswith("data: "):
                        self.messages.append(json.loads(line[6:]))
                        self.opened.set()
                        if self.done(self.messages):
                            return
            except httpx.ReadTimeout:
                return

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m["event"] for m in self.messages if m["type"] == "event" and m["event"]["type"] == kind]


def _declared(document: dict[str, Any], channel: str) -> Any:
    """A validator of one message of `channel`, from the served AsyncAPI document alone: the
    payload schemas of the messages its channel declares, with the document's components."""
    import jsonschema_rs

    messages = document["channels"][channel]["messages"].values()
    payloads = [document["components"]["messages"][m["$ref"].rsplit("/", 1)[-1]]["payload"] for m in messages]
    return jsonschema_rs.validator_for({"oneOf": payloads, "components": document["components"]})


def _organiser(server: str, migrated_database_url: str, redis_url: str) -> Any:
    """The operator's first admin (`atout admin create`), who may organise tournaments."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env.update(ATOUT_DATABASE_URL=migrated_database_url, ATOUT_REDIS_URL=redis_url, ATOUT_LOG_LEVEL="warning")
    out = subprocess.run([sys.executable, "-m", "services.cli", "admin", "create", "generated organiser", "--json"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True)
    token = json.loads(out.stdout.strip().splitlines()[-1])["token"]
    return importlib.import_module("atout_client").AuthenticatedClient(base_url=server, token=token)


def _pages(module: str, until: Any = None, **kwargs: Any) -> list[list[dict[str, Any]]]:
    """The pages of a list operation, following each answer's `Link: <…>; rel="next"`, to
    the last one (or until `until(pages)` holds)."""
    operation = importlib.import_module(f"atout_client.api.{module}")
    pages, cursor = [], None
    for _ in range(100):
        answer = operation.sync_detailed(**kwargs, **({"cursor": cursor} if cursor else {}))
        assert answer.status_code == 200, answer.content
        pages.append([_body(row) for row in answer.parsed])
        link = answer.headers.get("link")
        if not link or (until is not None and until(pages)):
            return pages
        assert link.endswith('>; rel="next"'), link
        cursor = parse_qs(urlsplit(link[1:link.index(">")]).query)["cursor"][0]
    raise AssertionError("more than 100 pages")


def test_the_generated_client_follows_the_account_stream_and_lists_tournaments(
        python_client: Any, server: str, documents: dict[str, Path], migrated_database_url: str,
        redis_url: str) -> None:
    asyncapi_document = json.loads(documents["asyncapi"].read_text())
    assert {"/v1/stream/me", "/v1/stream/me/ws"} <= {c["address"] for c in asyncapi_document["channels"].values()}
    account = _declared(asyncapi_document, "accountStream")
    models = importlib.import_module("atout_client.models")
    players = _register(server, "NESW")
    ids = {seat: IDS[client.token] for seat, client in players.items()}

    def rated_and_over(messages: list[dict[str, Any]]) -> bool:
        kinds = [m["event"]["type"] for m in messages if m["type"] == "event"]
        return "rating_changed" in kinds and "match_finished" in kinds

    follower = AccountFollower(server, players["N"].token, rated_and_over)
    follower.start()
    assert follower.opened.wait(15), "no snapshot"
    match_id = _play(players, rated=True)
    follower.join(40)
    assert not account.is_valid({"type": "event", "version": 1, "event": {"type": "no_such_notice", "at": "…"}})
    assert not account.is_valid({"type": "event", "version": 1, "event": {"type": "your_turn", "at": "…"}})
    for message in follower.messages:            # each one valid by the AsyncAPI document
        errors = [e.message for e in account.iter_errors(message)]
        assert not errors, (message, errors)
    assert follower.messages[0]["type"] == "snapshot"
    assert [m["version"] for m in follower.messages] == list(range(len(follower.messages)))
    assert [e["match_id"] for e in follower.of("match_started")] == [match_id]
    assert follower.of("your_turn") and all(e["seat"] == "N" for e in follower.of("your_turn"))
    [finished] = follower.of("match_finished")
    assert finished["status"] == "finished"
    [changed] = follower.of("rating_changed")
    assert (changed["pool"], changed["match_id"], changed["old_rating"], changed["games"]) == \
        ("cinch_partnership", match_id, 0.0, 1)
    deadline = time.monotonic() + 20
    while True:          # the ratings read model has a checkpoint of its own: it may lag the notice
        mine = _body(_call("ratings.v1_players_player_id_ratings_player_ratings", player_id=ids["N"],
                           client=players["N"]))
        if mine["pools"] or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    [pool] = [p for p in mine["pools"] if p["pool"] == "cinch_partnership"]
    assert pool["rating"] == changed["new_rating"] and pool["provisional"] == changed["provisional"]

    # Tournaments: three made by an organiser, one with an entry of N and S.
    organiser = _organiser(server, migrated_database_url, redis_url)
    made = [_body(_call("tournaments.v1_tournaments_create", client=organiser, body=models.CreateIn.from_dict(
        {"name": f"generated cup {i}", "game": "belote", "format": "swiss", "rounds": 1,
         "options": {"deals": 1}})))["tournament_id"] for i in range(3)]
    _call("tournaments.v1_tournaments_tournament_id_entries_register_entry", tournament_id=made[1],
          client=players["N"], body=models.EntryIn.from_dict({"players": [ids["N"], ids["S"]]}))
    status = models.V1TournamentsListTournamentsStatusType1

    def found(pages: list[list[dict[str, Any]]]) -> bool:      # newest first: the first pages
        return set(made) <= {t["tournament_id"] for page in pages for t in page}

    deadline = time.monotonic() + 20
    while True:                                  # the lists are a read model: the projector follows
        pages = _pages("tournaments.v1_tournaments_list_tournaments", found, client=players["E"],
                       status=status("registering"), limit=2)
        listed = [t["tournament_id"] for page in pages for t in page]
        if found(pages) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert found(pages) and len(listed) == len(set(listed)), listed
    assert all(len(page) <= 2 for page in pages) and len(pages) >= 2
    assert [listed.index(t) for t in reversed(made)] == sorted(listed.index(t) for t in made)   # newest first
    assert all(t["status"] == "registering" for page in pages for t in page)
    deadline = time.monotonic() + 20
    while True:                                  # the entry, after the three, may be read a moment later
        mine_pages = _pages("tournaments.v1_tournaments_mine_my_tournaments", client=players["S"])
        if any(t["entries"] for page in mine_pages for t in page) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    [[theirs]] = mine_pages
    assert theirs["tournament_id"] == made[1] and theirs["entries"] == 1
    running = _pages("tournaments.v1_tournaments_list_tournaments", client=players["E"], status=status("running"))
    assert not set(made) & {t["tournament_id"] for page in running for t in page}
