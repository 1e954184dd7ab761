"""No input gives a 5xx: hostile bodies, ids, versions and media types against a real `atout
serve`, every route of the OpenAPI document walked (so a new route is covered the day it is
added), and the live WebSockets' first frame; and with the database down, every route that
needs it answers 503 `not_ready`.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
import pytest
import websockets
from litestar.testing import AsyncTestClient
from system_support import running_system

from infra.settings import Settings
from services.http.app import create_app
from services.http.bodies import MAX_DEPTH
from infra.ratelimit import RateLimit

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

DEEP_ARRAY = "[" * 10_000 + "]" * 10_000
DEEP_OBJECT = '{"a":' * 10_000 + "1" + "}" * 10_000
INT64_PLUS_ONE = str(2**63)
NUL_BODIES = ('{"name": "a\\u0000b"}', '{"a\\u0000": 1, "name": "x"}', '{"x": ["ok", {"y": "\\u0000"}]}')
METHODS = ("get", "post", "put", "delete", "patch")
# Routes that answer without the database: the probes, the metrics, the document itself.
NO_DATABASE = {"/healthz", "/readyz", "/metrics", "/v1/records/key"}  # the record key is the process's own


@pytest.fixture(scope="module")
def system(migrated_database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory):
    with running_system(tmp_path_factory.mktemp("no5xx"), migrated_database_url, redis_url, f"{redis_prefix}n5",
                        ATOUT_RATE_LIMIT_REQUESTS="0") as running:
        yield running


@pytest.fixture(scope="module")
def admin(system) -> dict[str, str]:
    return {"Authorization": f"Bearer {system.admin_token('no5xx-admin')}"}


@pytest.fixture(scope="module")
def document(system) -> dict[str, Any]:
    return httpx.get(f"{system.base}/schema/openapi.json", timeout=10).json()


@pytest.fixture(scope="module")
def match_id(system, admin) -> str:
    """A playing match (the admin and three bots), so reads reach the store."""
    created = httpx.post(f"{system.base}/v1/matches", headers=admin, timeout=10,
                         json={"game": "belote", "options": {"deals": 1},
                               "seats": {"N": "me", "E": "bot:basic", "S": "bot:basic", "W": "bot:basic"}})
    assert created.status_code == 201, created.text
    return created.json()["match_id"]


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, ops in document["paths"].items() for method, op in ops.items()
            if method in METHODS]


def fill(path: str, value: str = "") -> str:
    """The path with each `{param}` replaced (a fresh UUID by default, `deal` by 0)."""
    import re

    return re.sub(r"\{([^}]+)\}", lambda m: "0" if m[1] == "deal" else (value or str(uuid.uuid4())), path)


def example_body(op: dict[str, Any]) -> Any:
    """The first example of an operation's JSON body (every operation has one)."""
    examples = op["requestBody"]["content"]["application/json"]["schema"].get("examples") or [{}]
    return examples[0]


def test_deep_json_is_a_400_on_every_body_route(system, admin, document) -> None:
    bodies = [(m, p) for m, p, op in operations(document) if "requestBody" in op]
    assert len(bodies) >= 8, bodies
    for method, path in bodies:
        for body in (DEEP_ARRAY, DEEP_OBJECT):
            answer = httpx.request(method, system.base + fill(path), content=body, timeout=30,
                                   headers={**admin, "Content-Type": "application/json"})
            assert answer.status_code == 400, (method, path, answer.status_code, answer.text[:300])
            assert answer.json()["code"] == "too_deep" and answer.json()["details"]["max_depth"] == MAX_DEPTH


def test_a_nul_in_any_body_string_is_a_400_on_every_body_route(system, admin, document) -> None:
    """Postgres stores no U+0000 in text: such a body is refused before anything is written."""
    for method, path, op in operations(document):
        if "requestBody" not in op:
            continue
        for body in NUL_BODIES:
            answer = httpx.request(method, system.base + fill(path), content=body, timeout=30,
                                   headers={**admin, "Content-Type": "application/json"})
            assert answer.status_code == 400, (method, path, body, answer.status_code, answer.text[:300])
            assert answer.json()["code"] == "nul_character"


def test_a_tournament_cannot_be_made_that_breaks_later(system, admin) -> None:
    """A schedule nobody can read is refused at creation (the standings projection parses it),
    and a round robin of boards started without entries is the rules' 422, not a 500 (its
    chain length came out negative)."""
    base = {"name": "t", "game": "belote", "format": "round_robin", "options": {"deals": 2}}
    answer = httpx.post(f"{system.base}/v1/tournaments", json={**base, "schedule": "\u00ac"}, headers=admin,
                        timeout=10)
    assert answer.status_code == 400 and answer.json()["details"]["field"] == "$.schedule", answer.text
    created = httpx.post(f"{system.base}/v1/tournaments", json=base, headers=admin, timeout=10)
    assert created.status_code == 201, created.text
    tid = created.json()["tournament_id"]
    started = httpx.post(f"{system.base}/v1/tournaments/{tid}/start", headers=admin, timeout=10)
    assert started.status_code == 422 and started.json()["code"] == "too_few_entries", started.text


def test_a_name_with_a_control_character_anywhere_is_refused(system) -> None:
    """As the schema's pattern says: stripping the name's ends does not make a vertical tab fine."""
    for name in ("\u000b\u009c", "Ada\u0007", " \t"):
        answer = httpx.post(f"{system.base}/v1/players", json={"name": name}, timeout=10)
        assert answer.status_code == 400 and answer.json()["details"]["field"] == "$.name", (name, answer.text)


def test_the_depth_limit_is_exact(system) -> None:
    """MAX_DEPTH levels are JSON like any other (here, the wrong type); one more is too deep."""
    def register(depth: int) -> httpx.Response:
        name = "[" * (depth - 1) + "]" * (depth - 1)
        return httpx.post(f"{system.base}/v1/players", content='{"name": %s}' % name,
                          headers={"Content-Type": "application/json"}, timeout=10)

    assert register(MAX_DEPTH).json()["code"] == "invalid_field"
    assert register(MAX_DEPTH + 1).json()["code"] == "too_deep"


def test_versions_beyond_int64_and_below_zero_are_a_400_everywhere(system, admin, match_id) -> None:
    for path in (f"/v1/matches/{match_id}/events", f"/v1/matches/{match_id}/stream"):
        for after in (INT64_PLUS_ONE, "99999999999999999999999", "-1", "-5"):
            answer = httpx.get(f"{system.base}{path}", params={"after": after}, headers=admin, timeout=10)
            assert answer.status_code == 400, (path, after, answer.text)
            assert answer.json()["details"]["field"] == "after"


def test_a_query_parameter_given_twice_is_a_400_on_every_route(system, admin, document) -> None:
    """The document has no array in a query: `?after=1&after=7` is refused, never read as 7."""
    checked = 0
    for method, path, op in operations(document):
        for param in (p for p in op.get("parameters", []) if p.get("in") == "query"):
            name = param["name"]
            answer = httpx.request(method, f"{system.base}{fill(path)}?{name}=1&{name}=2", headers=admin,
                                   timeout=10, json=example_body(op) if "requestBody" in op else None)
            assert answer.status_code == 400, (method, path, name, answer.status_code, answer.text[:300])
            assert answer.json()["code"] == "invalid_field", answer.text
            assert answer.json()["details"] == {"field": name, "source": "query"}, answer.text
            checked += 1
    assert checked >= 20
    once = httpx.get(f"{system.base}/v1/matches?limit=1&status=playing", headers=admin, timeout=10)
    assert once.status_code == 200, once.text


def test_a_nul_byte_or_a_huge_id_in_a_path_is_a_400_on_every_route(system, admin, document) -> None:
    checked = 0
    for method, path, _ in operations(document):
        if "{" not in path:
            continue
        for bad in ("a%00b", "x" * 5000, "%C3%A9t%C3%A9", "a%25b"):
            answer = httpx.request(method, system.base + fill(path, bad), headers=admin, timeout=10)
            assert answer.status_code == 400, (method, path, bad[:10], answer.status_code, answer.text[:300])
            assert answer.json()["details"]["source"] == "path"
            checked += 1
    assert checked >= 60


def test_only_json_bodies_are_read(system, admin, document) -> None:
    """`text/plain` (or a form) is a 415 naming the media type; JSON with a charset, or with
    no Content-Type at all, is read as JSON."""
    for method, path, op in operations(document):
        if "requestBody" not in op:
            continue
        for media in ("text/plain", "application/x-www-form-urlencoded", "application/xml"):
            answer = httpx.request(method, system.base + fill(path), content='{"name": "x"}', timeout=10,
                                   headers={**admin, "Content-Type": media})
            assert answer.status_code == 415, (method, path, media, answer.text)
            assert answer.json()["code"] == "unsupported_media_type"
    for media in ("application/json; charset=utf-8", None):
        headers = {"Content-Type": media} if media else {}
        answer = httpx.post(f"{system.base}/v1/players", content='{"name": "plain"}', headers=headers, timeout=10)
        assert answer.status_code == 201, (media, answer.text)


async def _first_answer(url: str, first: str | None, headers: dict[str, str] | None = None) -> tuple[dict, int]:
    async with websockets.connect(url, additional_headers=headers) as ws:
        if first is not None:
            await ws.send(first)
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 10)
        return message, ws.close_code


async def test_live_websockets_refuse_a_deep_first_frame_and_a_bad_after(system, admin, match_id) -> None:
    ws = system.base.replace("http", "ws", 1)
    tournament = f"{ws}/v1/tournaments/{uuid.uuid4()}/ws"
    for url in (f"{ws}/v1/matches/{match_id}/ws", tournament):
        for frame in (DEEP_ARRAY, DEEP_OBJECT):
            message, code = await _first_answer(url, frame)
            assert (message["code"], code) == ("unauthorized", 4401)
    # The one rule for `after`, as on /events: a version from 0 to 2**63-1.
    for url in (f"{ws}/v1/matches/{match_id}/ws", tournament):
        for after in ("-5", INT64_PLUS_ONE, "x"):
            message, code = await _first_answer(f"{url}?after={after}", None, admin)
            assert (message["code"], message["details"]["field"], code) == ("invalid_field", "after", 4400)
        message, code = await _first_answer(f"{url}?after=1&after=2", None, admin)
        assert (message["code"], message["details"]["field"], code) == ("invalid_field", "after", 4400)
    message, code = await _first_answer(f"{ws}/v1/matches/a%00b/ws", None, admin)
    assert (message["details"]["field"], code) == ("match_id", 4400)


async def test_every_route_answers_503_while_the_database_is_down(redis_url: str, redis_prefix: str,
                                                                  tmp_path) -> None:
    """Postgres unreachable (nothing listens on the port): each route that needs it says
    `not_ready` with Retry-After, the probes say what is down, none answers a 500."""
    dead = Settings(database_url="postgresql://postgres@127.0.0.1:9/none", redis_url=redis_url,
                    redis_prefix=f"{redis_prefix}down", data_dir=str(tmp_path))   # its record key goes there
    app = create_app(dead, rate_limit=RateLimit(requests=0))
    async with AsyncTestClient(app=app) as client:
        document = (await client.get("/schema/openapi.json")).json()
        token = {"Authorization": "Bearer atk_not_checked_while_the_database_is_down"}
        seen = 0
        for method, path, op in operations(document):
            body = {"json": example_body(op)} if "requestBody" in op else {}
            answer = await client.request(method.upper(), fill(path), headers=token, **body)
            if path in NO_DATABASE or path.startswith("/schema"):     # the probes, metrics, documents
                assert answer.status_code in (200, 503), (path, answer.text)
                continue
            if path.startswith("/schema"):       # the documents need no database (contract.py's rule)
                assert answer.status_code == 200, (path, answer.text[:300])
                continue
            assert answer.status_code == 503, (method, path, answer.status_code, answer.text[:300])
            assert answer.json()["code"] == "not_ready" and answer.headers["retry-after"] == "1"
            assert "503" in op["responses"], f"{method.upper()} {path} does not document its 503"
            seen += 1
        assert seen >= 30
        register = await client.post("/v1/players", json={"name": "Ada"})
        assert register.status_code == 503 and register.json()["code"] == "not_ready"
