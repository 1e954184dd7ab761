"""Identity, roles, erasure, rate limits, the OpenAPI document and the metrics."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import time

import pytest
from litestar.testing import AsyncTestClient

from services.http.app import create_app
from infra.ratelimit import RateLimit
from services.cli import main as atout
from tests.api.conftest import Player, act, register, seated_match, view

pytestmark = [pytest.mark.db, pytest.mark.redis]


async def admin_via_cli(database_url: str) -> Player:
    """`atout admin create NAME --json`, as an operator runs it."""
    out = io.StringIO()

    def run() -> int:
        with contextlib.redirect_stdout(out):
            return atout(["admin", "create", "root", "--database-url", database_url, "--json"])

    assert await asyncio.to_thread(run) == 0
    created = json.loads(out.getvalue())
    return Player(player_id=created["player_id"], token=created["token"])


async def test_register_me_revoke(client) -> None:
    player = await register(client, "Ada")
    assert player.token.startswith("atk_") and len(player.token) > 40
    me = await client.get("/v1/players/me", headers=player.headers)
    assert me.json() == {"player_id": player.player_id, "name": "Ada", "role": "player", "locale": None}
    assert (await client.get("/v1/players/me")).json()["code"] == "unauthorized"
    assert (await client.delete("/v1/players/me/token", headers=player.headers)).status_code == 204
    revoked = await client.get("/v1/players/me", headers=player.headers)
    assert (revoked.status_code, revoked.json()["code"]) == (401, "invalid_token")
    bad = await client.post("/v1/players", json={"name": ""})
    assert (bad.status_code, bad.json()["details"]["field"]) == (400, "$.name")
    typed = await client.post("/v1/players", json={"name": 7})
    assert (typed.status_code, typed.json()["code"], typed.json()["details"]["field"]) == (400, "invalid_field",
                                                                                          "$.name")


async def test_a_player_keeps_the_language_he_chose(client) -> None:
    player, other = await register(client, "Zofia"), await register(client, "Ivan")
    for locale in ("pl", "pl", "ru", None, "fr"):       # the same again answers the same
        kept = await client.patch("/v1/players/me", json={"locale": locale}, headers=player.headers)
        assert (kept.status_code, kept.json()["locale"]) == (200, locale)
        assert (await client.get("/v1/players/me", headers=player.headers)).json()["locale"] == locale
    for bad in ({"locale": "de"}, {"locale": "FR"}, {"locale": 3}, {}, {"locale": "fr", "name": "x"}):
        refused = await client.patch("/v1/players/me", json=bad, headers=player.headers)
        assert (refused.status_code, refused.json()["code"]) == (400, "invalid_field"), (bad, refused.text)
    assert (await client.get("/v1/players/me", headers=player.headers)).json()["locale"] == "fr"
    assert (await client.get("/v1/players/me", headers=other.headers)).json()["locale"] is None
    public = (await client.get(f"/v1/players/{player.player_id}", headers=other.headers)).json()
    assert "locale" not in public                        # a preference, not a public datum
    assert (await client.patch("/v1/players/me", json={"locale": "fr"})).status_code == 401


async def test_roles_admin_cli_and_erasure(client, database_url: str) -> None:
    admin = await admin_via_cli(database_url)
    assert (await client.get("/v1/players/me", headers=admin.headers)).json()["role"] == "admin"
    player, other = await register(client, "Grace"), await register(client, "Linus")

    refused = await client.put(f"/v1/players/{other.player_id}/role", json={"role": "admin"}, headers=player.headers)
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    granted = await client.put(f"/v1/players/{player.player_id}/role", json={"role": "organiser"},
                               headers=admin.headers)
    assert granted.status_code == 200 and granted.json()["role"] == "organiser"
    bad_role = await client.put(f"/v1/players/{player.player_id}/role", json={"role": "king"}, headers=admin.headers)
    assert (bad_role.status_code, bad_role.json()["details"]["field"]) == (400, "$.role")
    missing = await client.put("/v1/players/nobody/role", json={"role": "player"}, headers=admin.headers)
    assert (missing.status_code, missing.json()["code"]) == (404, "unknown_player")

    # Erasure: an organiser may not erase someone else; an admin may. The name goes, the
    # tokens stop working, the id remains (events still name it).
    assert (await client.delete(f"/v1/players/{other.player_id}", headers=player.headers)).status_code == 403
    assert (await client.delete(f"/v1/players/{other.player_id}", headers=admin.headers)).status_code == 204
    profile = await client.get(f"/v1/players/{other.player_id}", headers=admin.headers)
    assert profile.json()["name"] is None
    assert (await client.get("/v1/players/me", headers=other.headers)).status_code == 401


async def test_an_organiser_finds_players_by_their_exact_name(client, database_url: str) -> None:
    admin = await admin_via_cli(database_url)
    name = f"Zoé {time.time_ns()}"                          # the database outlives this test
    twins = [await register(client, name), await register(client, name)]
    other = await register(client, f"{name}!")
    organiser = await register(client, "Org")
    await client.put(f"/v1/players/{organiser.player_id}/role", json={"role": "organiser"}, headers=admin.headers)
    found = await client.get("/v1/players", params={"name": f"  {name} "}, headers=organiser.headers)
    assert found.status_code == 200
    assert found.json() == [{"player_id": p.player_id, "name": name, "role": "player"}
                            for p in sorted(twins, key=lambda p: p.player_id)]      # exact, never partial
    by_id = await client.get("/v1/players", params={"name": other.player_id}, headers=organiser.headers)
    assert [p["name"] for p in by_id.json()] == [f"{name}!"]
    assert (await client.get("/v1/players", params={"name": "nobody at all"}, headers=admin.headers)).json() == []
    refused = await client.get("/v1/players", params={"name": name}, headers=other.headers)
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")      # players do not look people up
    for bad in ({}, {"name": ""}, {"name": "x" * 65}):
        answer = await client.get("/v1/players", params=bad, headers=organiser.headers)
        assert (answer.status_code, answer.json()["code"]) == (400, "invalid_field"), (bad, answer.text)
    assert (await client.delete(f"/v1/players/{twins[0].player_id}", headers=admin.headers)).status_code == 204
    left = await client.get("/v1/players", params={"name": twins[0].player_id}, headers=organiser.headers)
    assert left.json() == []                                                        # an erased person is not found
    assert [p["player_id"] for p in (await client.get("/v1/players", params={"name": name},
                                                      headers=organiser.headers)).json()] == [twins[1].player_id]


async def test_rate_limit_answers_429_with_retry_after(api_settings, redis_client) -> None:
    app = create_app(api_settings, rate_limit=RateLimit(requests=3, window=30))
    async with AsyncTestClient(app=app) as limited:
        player = await register(limited)
        answers = [await limited.get("/v1/players/me", headers=player.headers) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]  # per token (registration: per address)
    last = answers[-1]
    assert last.status_code == 429 and last.json()["code"] == "rate_limited"
    assert 1 <= int(last.headers["retry-after"]) <= 30
    # The window's counters expire on their own: none is left without a time to live.
    # Other apps of the session count in windows of their own: this one's keys end in its window's number.
    keys = [k async for k in redis_client.scan_iter(match=f"{api_settings.redis_prefix}:ratelimit:*")]
    assert all(ttl > 0 for ttl in [await redis_client.ttl(k) for k in keys])
    windows = {str(int(time.time() // 30) - n) for n in (0, 1)}
    ttls = [await redis_client.ttl(k) for k in keys if (k.decode() if isinstance(k, bytes) else k).rsplit(":", 1)[1] in windows]
    assert ttls and all(0 < ttl <= 31 for ttl in ttls), ttls


async def test_openapi_has_every_route_with_examples(client) -> None:
    response = await client.get("/schema/openapi.json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    expected = {"/v1/players", "/v1/players/me", "/v1/players/me/token", "/v1/matches", "/v1/matches/mine",
                "/v1/matches/{match_id}", "/v1/matches/{match_id}/seats/{seat}", "/v1/matches/{match_id}/actions",
                "/v1/matches/{match_id}/events", "/v1/matches/{match_id}/record", "/v1/records/play",
                "/v1/matches/{match_id}/start", "/v1/matches/{match_id}/rematch", "/metrics"}
    assert expected <= set(paths)
    assert {"/v1/tournaments", "/v1/tournaments/{tournament_id}/live", "/v1/matches/{match_id}/stream"} <= set(paths)
    # Every operation of the document, not only those listed: a new route must come with examples.
    missing = [f"{method.upper()} {path}" for path, operations in paths.items()
               for method, operation in operations.items()
               if method in ("get", "post", "put", "delete", "patch") and '"examples"' not in json.dumps(operation)]
    assert not missing, f"operations without an example: {missing}"
    action = paths["/v1/matches/{match_id}/actions"]["post"]
    assert {"400", "401", "404", "409", "422", "429"} <= set(action["responses"])


async def test_metrics_count_actions_by_type_and_outcome(client) -> None:
    match_id, players = await seated_match(client, "belote", {"deals": 1})
    seat = (await view(client, match_id, players["N"]))["to_act"][0]
    mine = await view(client, match_id, players[seat])
    assert (await act(client, match_id, players[seat], mine["version"], action="pass")).status_code == 200
    assert (await act(client, match_id, players[seat], mine["version"], action="pass")).status_code == 409
    text = (await client.get("/metrics")).text
    assert 'atout_actions_total{action="pass",outcome="accepted"}' in text
    assert 'atout_actions_total{action="pass",outcome="stale_version"}' in text
    assert "atout_action_seconds_bucket" in text
    for name in ("atout_open_sockets", "atout_fanout_drops_total", "atout_projection_lag_events"):
        assert name in text


async def test_action_logs_are_json_lines_with_the_command_id(client) -> None:
    import logging

    from services.http.logs import JsonFormatter

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("atout.actions")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        match_id, players = await seated_match(client, "five_hundred", {"deals": 1})
        seat = (await view(client, match_id, players["N"]))["to_act"][0]
        mine = await view(client, match_id, players[seat])
        command_id = "2b1c1f0e-0000-4000-8000-000000000001"
        assert (await act(client, match_id, players[seat], mine["version"], command_id, action="pass")).is_success
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    line = next(entry for entry in lines if entry.get("correlation_id") == command_id)
    assert line["message"] == "action" and line["outcome"] == "accepted" and line["match_id"] == match_id
    assert line["level"] == "info" and line["action"] == "pass" and isinstance(line["ms"], float)


async def test_the_embedded_default_runs_the_projector_beside_the_api(api_settings) -> None:
    """`atout serve` on the embedded default: one process, the read models kept up to date."""
    app = create_app(api_settings, projector=True, rate_limit=RateLimit(requests=0))
    async with AsyncTestClient(app=app) as embedded:
        player = await register(embedded)
        created = await embedded.post("/v1/matches", headers=player.headers,
                                      json={"game": "belote", "seats": {"N": "me", "E": "open", "S": "open",
                                                                        "W": "open"}})
        match_id = created.json()["match_id"]
        for _ in range(150):
            mine = (await embedded.get("/v1/matches/mine", headers=player.headers)).json()
            if mine:
                break
            await asyncio.sleep(0.1)
    assert [m["match_id"] for m in mine] == [match_id]
