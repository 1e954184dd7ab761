"""Documents a generator can trust: clients generated from what a real `atout serve` serves.

- `openapi-python-client` (PyPI) generates a Python client from `/schema/openapi.json` without
  omitting any response, and that client alone plays a whole match: four players register,
  one creates, three sit down, every seat acts until the match is over.
- `openapi-typescript` (npm) turns the same document into TypeScript types, and a small
  program written against them passes `tsc --noEmit --strict` (and a wrong body fails it).
- `/schema/asyncapi.json` validates with the AsyncAPI parser (`@asyncapi/parser`, npm).

The npm tools are pinned and installed under `.ci/node/` (by `.ci/run`, or here on first use);
on a machine without node and npm these tests skip, saying so.
"""

from __future__ import annotations

import importlib
import json
import random
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.playout import concrete
from tests.e2e.system_support import serving

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / ".ci" / "node"
NODE_PACKAGES = ("@asyncapi/parser@3.6.6", "openapi-typescript@7.13.0", "typescript@5.9.3")


def install_node_tools() -> Path:
    """The pinned npm tools under .ci/node (installed once; `.ci/run` does it up front)."""
    bin_dir = NODE_DIR / "node_modules" / ".bin"
    if all((bin_dir / tool).exists() for tool in ("tsc", "openapi-typescript")) and \
            (NODE_DIR / "node_modules" / "@asyncapi" / "parser").is_dir():
        return NODE_DIR
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the TypeScript and AsyncAPI checks need them")
    NODE_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npm", "install", "--prefix", str(NODE_DIR), "--no-audit", "--no-fund", "--loglevel=error",
                    *NODE_PACKAGES], check=True, timeout=600, capture_output=True)
    return NODE_DIR


@pytest.fixture(scope="module")
def node_tools() -> Path:
    return install_node_tools()


@pytest.fixture(scope="module")
def server(tmp_path_factory, migrated_database_url: str, redis_url: str, redis_prefix: str):
    with serving(tmp_path_factory.mktemp("clients"), migrated_database_url, redis_url, f"{redis_prefix}:clients",
                 ATOUT_RATE_LIMIT_REQUESTS="0") as base:
        yield base


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

PARSE = """
const { Parser } = require('@asyncapi/parser');
const fs = require('fs');
(async () => {
  const { document, diagnostics } = await new Parser().parse(fs.readFileSync(process.argv[2], 'utf8'));
  const out = diagnostics.map(d => ({ severity: d.severity, code: d.code, message: d.message, path: d.path }));
  console.log(JSON.stringify({ parsed: document !== undefined, diagnostics: out,
                               channels: document ? document.channels().all().map(c => c.address()) : [] }));
})();
"""


def test_the_asyncapi_document_validates(node_tools: Path, documents: dict[str, Path], tmp_path: Path) -> None:
    script = tmp_path / "parse.js"
    script.write_text(PARSE)
    done = subprocess.run(["node", str(script), str(documents["asyncapi"])], capture_output=True, text=True,
                          timeout=120, cwd=node_tools, env={"NODE_PATH": str(node_tools / "node_modules"),
                                                            "PATH": "/usr/bin:/bin:/usr/local/bin"})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    errors = [d for d in report["diagnostics"] if d["severity"] == 0]
    assert report["parsed"] and not errors, errors
    assert {"/v1/matches/{match_id}/ws", "/v1/matches/{match_id}/stream", "/v1/tournaments/{tournament_id}/ws",
            "/v1/tournaments/{tournament_id}/live", "/v1/stream/me", "/v1/stream/me/ws"} <= set(report["channels"])


# --- TypeScript -----------------------------------------------------------------------------------

PROGRAM = """
import type { paths, components } from "./api";

type CreateMatch = paths["/v1/matches"]["post"]["requestBody"]["content"]["application/json"];
type Registered = paths["/v1/players"]["post"]["responses"]["201"]["content"]["application/json"];
type ErrorBody = components["schemas"]["ErrorOut"];

const create: CreateMatch = { game: "belote", options: { deals: 1 }, seats: { N: "me", E: "open", S: "open", W: "open" } };
const refusal: ErrorBody = { code: "stale_version", message: "the match moved on", details: { current_version: 9 } };
function token(answer: Registered): string { return answer.token; }

// @ts-expect-error: a game is a string, not a number; were the types `any`, this line would fail tsc
const wrong: CreateMatch = { game: 1, seats: {} };

export { create, refusal, token, wrong };
"""


def test_typescript_types_from_the_openapi_document_compile(node_tools: Path, documents: dict[str, Path],
                                                             tmp_path: Path) -> None:
    bin_dir = node_tools / "node_modules" / ".bin"
    # Free-form objects (a view, a game's options beyond its own) are open in the document, as
    # JSON Schema's `{"type": "object"}` is, and a field with a default may be left out of a
    # request: the two flags make openapi-typescript read them so (docs/api.md).
    generated = subprocess.run([str(bin_dir / "openapi-typescript"), str(documents["openapi"]), "-o",
                                str(tmp_path / "api.d.ts"), "--empty-objects-unknown", "--default-non-nullable", "false"],
                               capture_output=True, text=True, timeout=120)
    assert generated.returncode == 0, generated.stderr
    (tmp_path / "program.ts").write_text(PROGRAM)
    compiled = subprocess.run([str(bin_dir / "tsc"), "--noEmit", "--strict", "--skipLibCheck", "--target", "es2020",
                               "--moduleResolution", "node", str(tmp_path / "program.ts")],
                              capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


# --- Python ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def python_client(documents: dict[str, Path], tmp_path_factory) -> Any:
    folder = tmp_path_factory.mktemp("python-client")
    generator = Path(sys.executable).parent / "openapi-python-client"
    done = subprocess.run([str(generator), "generate", "--path", str(documents["openapi"]), "--meta", "none",
                           "--output-path", str(folder / "atout_client")], capture_output=True, text=True,
                          timeout=300, cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    # Everything is usable but the live streams' bodies (a stream of messages: NDJSON, which
    # this generator does not read; the AsyncAPI document is their contract).
    lines = (done.stdout + done.stderr).splitlines()
    omitted = [line for line in lines if "will be omitted" in line and "application/x-ndjson" not in line]
    streams = [line for line in lines if line.startswith("WARNING parsing")]
    assert not omitted, "the generator could not use parts of the document:\n" + "\n".join(lines)
    assert all(line.endswith(("/stream within live.", "/stream/me within live.", "/live within tournaments."))
               for line in streams), streams
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("atout_client")
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == "atout_client" or m.startswith("atout_client.")]:
            del sys.modules[name]


def _call(package: Any, module: str, **kwargs: Any) -> Any:
    """One generated operation, by its module: the parsed body of a 2xx answer."""
    operation = importlib.import_module(f"atout_client.api.{module}")
    answer = operation.sync_detailed(**kwargs)
    assert 200 <= answer.status_code < 300, (module, answer.status_code, answer.content)
    return answer.parsed


def _body(parsed: Any) -> dict[str, Any]:
    return parsed.to_dict() if hasattr(parsed, "to_dict") else parsed


def test_the_generated_python_client_plays_a_whole_match(python_client: Any, server: str) -> None:
    models = importlib.import_module("atout_client.models")
    client_module = importlib.import_module("atout_client")
    anonymous = client_module.Client(base_url=server)
    players = {}
    for seat in "NESW":
        registered = _call(python_client, "players.v1_players_register", client=anonymous,
                           body=models.Register.from_dict({"name": f"generated {seat}"}))
        players[seat] = client_module.AuthenticatedClient(base_url=server, token=registered.token)
    created = _body(_call(python_client, "matches.v1_matches_create_match", client=players["N"],
                          body=models.CreateMatch.from_dict({"game": "cinch", "options": {"deals": 1},
                                                             "seats": {"N": "me", "E": "open", "S": "open",
                                                                       "W": "open"}})))
    match_id = created["match_id"]
    for seat in "ESW":
        _call(python_client, "matches.v1_matches_match_id_seats_take_seat", match_id=match_id, seat=seat,
              client=players[seat], body=models.TakeSeat.from_dict({}))
    rng, acted = random.Random(7), 0
    action_model = next(getattr(models, name) for name in dir(models)
                        if name.lower().endswith("actionsactaction") or name == "ActIn")
    for _ in range(1000):
        table = _body(_call(python_client, "matches.v1_matches_match_id_get_match", match_id=match_id,
                            client=players["N"]))
        if table["status"] == "finished":
            break
        seat = rng.choice(table["to_act"])
        mine = _body(_call(python_client, "matches.v1_matches_match_id_get_match", match_id=match_id,
                           client=players[seat]))
        action = {k: v for k, v in concrete(rng.choice(mine["table"]["legal"]), rng).items() if k != "seat"}
        _call(python_client, "play.v1_matches_match_id_actions_act", match_id=match_id, client=players[seat],
              body=action_model.from_dict({"command_id": str(uuid.uuid4()), "expected_version": mine["version"],
                                           **action}))
        acted += 1
    assert table["status"] == "finished" and acted > 20, (table["status"], acted)

    # What the stream of that match carries is what the AsyncAPI document declares: every
    # message decodes, strictly, as one of its channel's messages.
    import msgspec

    from services.api import asyncapi

    declared = msgspec.json.Decoder(asyncapi.Snapshot | asyncapi.Event | asyncapi.Error)
    token = players["N"].token
    with httpx.stream("GET", f"{server}/v1/matches/{match_id}/stream?after=0", timeout=30,
                      headers={"Authorization": f"Bearer {token}", "Accept": "application/x-ndjson"}) as answer:
        lines = [line for line in answer.iter_lines() if line.strip()]
    messages = [declared.decode(line) for line in lines]
    assert isinstance(messages[0], asyncapi.Snapshot) and all(isinstance(m, asyncapi.Event) for m in messages[1:])
    assert [m.version for m in messages[1:]] == list(range(1, messages[0].version + 1))
    assert messages[-1].event is not None and messages[-1].event["type"] == "match_finished"
