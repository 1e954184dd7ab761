"""The match routes' answers are what the served document says they are.

Four players play a match of each game (and Coinche's own auction, Cinch without partners)
over HTTP; every view each seat and a spectator receive at every step, the creation, the
lobby and the lists, entropy, a hint and the record at the end are validated against the
schema the served OpenAPI document gives for that route and status (`jsonschema_rs`), and
every example the document shows for these routes validates too. The typed schemas are
documentation of plain answers: this is what keeps them true to the wire."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.playout import concrete
from infra.projections import Lobby, MatchSummaries

from tests.api.conftest import act, register, seated_match, view
from tests.api.test_listing import caught_up
from tests.api.typed_answers import Contract, check_examples, served
from tests.typed_contract import untyped_bodies

pytestmark = [pytest.mark.db, pytest.mark.redis]

GAMES = [("belote", {"deals": 1}), ("belote", {"variant": "coinche", "deals": 1}),
         ("belote", {"variant": "sans_atout", "deals": 1}), ("cinch", {"deals": 1}),
         ("cinch", {"mode": "individual", "deals": 1}), ("five_hundred", {"deals": 1, "misere": True})]
ROUTES = {("get", "/v1/matches/{match_id}", "200"), ("post", "/v1/matches", "201"), ("get", "/v1/matches", "200"),
          ("get", "/v1/matches/mine", "200"), ("put", "/v1/matches/{match_id}/seats/{seat}/entropy", "200"),
          ("get", "/v1/matches/{match_id}/hint", "200"), ("get", "/v1/matches/{match_id}/record", "200"),
          ("post", "/v1/matches/{match_id}/rematch", "201"), ("get", "/v1/matches/{match_id}/events", "200"),
          ("post", "/v1/matches/{match_id}/actions", "200"), ("post", "/v1/matches/{match_id}/seats/{seat}", "200"),
          ("post", "/v1/matches/{match_id}/start", "200"), ("delete", "/v1/matches/{match_id}/seats/{seat}", "200"),
          ("post", "/v1/records/play", "200")}


@pytest.fixture(scope="module")
async def document(client) -> Contract:
    return await served(client)


def check(document: Contract, method: str, path: str, status: str, body: Any) -> None:
    assert document.errors(method, path, status, body) == [], (method, path)


def test_the_match_routes_answer_typed_bodies(document) -> None:
    untyped = {k: v for k, v in untyped_bodies(document.document).items()
               if tuple(k.lower().split(" ")[:2]) + (k.split(" ")[2],) in ROUTES}
    assert untyped == {}


def test_every_example_of_these_routes_validates(document) -> None:
    assert check_examples(document, [(method, path, int(status)) for method, path, status in sorted(ROUTES)]) \
        >= len(ROUTES)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[f"{g}-{o.get('variant') or o.get('mode') or ''}"
                                                          for g, o in GAMES])
async def test_every_view_of_a_whole_match_validates(client, document, pool, game, options) -> None:
    rng = random.Random(7)
    lobby = await client.get("/v1/matches", headers=(await register(client)).headers)
    check(document, "get", "/v1/matches", "200", lobby.json())
    match_id, players = await seated_match(client, game, options)
    watcher = await register(client)
    entropy = await client.put(f"/v1/matches/{match_id}/seats/N/entropy", headers=players["N"].headers,
                               json={"entropy": "fresh words"})
    if entropy.status_code == 200:
        check(document, "put", "/v1/matches/{match_id}/seats/{seat}/entropy", "200", entropy.json())
    hinted = False
    for _ in range(600):
        table = await view(client, match_id, players["N"])
        check(document, "get", "/v1/matches/{match_id}", "200", table)
        check(document, "get", "/v1/matches/{match_id}", "200", await view(client, match_id, watcher))
        if table["status"] != "playing":
            break
        seat = rng.choice(table["to_act"])
        mine = await view(client, match_id, players[seat])
        check(document, "get", "/v1/matches/{match_id}", "200", mine)
        if not hinted:
            hint = await client.get(f"/v1/matches/{match_id}/hint", headers=players[seat].headers)
            assert hint.status_code == 200, hint.text
            check(document, "get", "/v1/matches/{match_id}/hint", "200", hint.json())
            hinted = True
        action = {k: v for k, v in concrete(rng.choice(mine["table"]["legal"]), rng).items() if k != "seat"}
        response = await act(client, match_id, players[seat], mine["version"], **action)
        assert response.status_code == 200, response.text
        check(document, "post", "/v1/matches/{match_id}/actions", "200", response.json())
    assert table["status"] == "finished"
    for holder in (*players.values(), watcher):
        events = await client.get(f"/v1/matches/{match_id}/events", headers=holder.headers)
        assert len(events.json()["events"]) > 10
        check(document, "get", "/v1/matches/{match_id}/events", "200", events.json())
    await caught_up(pool, Lobby(), MatchSummaries())
    record = await client.get(f"/v1/matches/{match_id}/record", headers=players["E"].headers)
    check(document, "get", "/v1/matches/{match_id}/record", "200", record.json())
    for legal in ("true", "false"):
        played = await client.post(f"/v1/records/play?legal={legal}", headers=watcher.headers, json=record.json())
        assert played.status_code == 200 and played.json()["signature"] == "valid", played.text
        check(document, "post", "/v1/records/play", "200", played.json())
    half = {**record.json(), "deals": [{**deal, "actions": deal["actions"][:5]} for deal in record.json()["deals"]]}
    played = await client.post("/v1/records/play?legal=true", headers=watcher.headers, json=half)
    assert played.status_code == 200 and played.json()["legal"], played.text
    check(document, "post", "/v1/records/play", "200", played.json())
    wrong = {**record.json(), "deals": [{**deal, "actions": deal["actions"][1:]} for deal in record.json()["deals"]]}
    as_json = {**watcher.headers, "Content-Type": "application/json"}
    for body in (wrong, "{not json"):
        refused = await (client.post("/v1/records/play", headers=watcher.headers, json=body) if body is wrong else
                         client.post("/v1/records/play", headers=as_json, content=body))
        assert refused.status_code == 422 and refused.json()["ok"] is False, refused.text
        check(document, "post", "/v1/records/play", "422", refused.json())
    for status in ("finished", None):
        listed = await client.get("/v1/matches/mine" + (f"?status={status}" if status else ""),
                                  headers=players["S"].headers)
        assert any(row["match_id"] == match_id for row in listed.json())
        check(document, "get", "/v1/matches/mine", "200", listed.json())
    by_status = await client.get("/v1/matches?status=finished&limit=200", headers=players["S"].headers)
    assert by_status.json()
    check(document, "get", "/v1/matches", "200", by_status.json())
    again = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["N"].headers, json={})
    assert again.status_code == 201, again.text
    check(document, "post", "/v1/matches/{match_id}/rematch", "201", again.json())


async def test_a_private_table_and_a_lobby_row_validate(client, document, pool) -> None:
    host = await register(client)
    created = await client.post("/v1/matches", headers=host.headers, json={
        "game": "cinch", "visibility": "private", "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
    assert created.status_code == 201 and "invitation_code" in created.json()
    check(document, "post", "/v1/matches", "201", created.json())
    public = await client.post("/v1/matches", headers=host.headers, json={
        "game": "five_hundred", "seats": {"N": "me", "E": "bot:basic", "S": "open", "W": "open"}})
    check(document, "post", "/v1/matches", "201", public.json())
    guest, match_id = await register(client), public.json()["match_id"]
    seated = await client.post(f"/v1/matches/{match_id}/seats/S", headers=guest.headers, json={})
    assert seated.status_code == 200, seated.text
    check(document, "post", "/v1/matches/{match_id}/seats/{seat}", "200", seated.json())
    left = await client.delete(f"/v1/matches/{match_id}/seats/S", headers=guest.headers)
    assert left.status_code == 200, left.text
    check(document, "delete", "/v1/matches/{match_id}/seats/{seat}", "200", left.json())
    await caught_up(pool, Lobby(), MatchSummaries())
    lobby = await client.get("/v1/matches?game=five_hundred", headers=host.headers)
    assert any(row["match_id"] == public.json()["match_id"] for row in lobby.json())
    check(document, "get", "/v1/matches", "200", lobby.json())
