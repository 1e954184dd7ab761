"""Matches over HTTP: creation and its 400s, seats, auto-start, lobby and my matches (read
models), rematch, imported deals, the record and `POST /v1/records/play`."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from domain.cards import DECK_32
from infra.projections import ProjectionRunner
from infra.store import PostgresEventStore, create_pool
from services.bootstrap import projections
from tests.api.conftest import finish, register, seated_match, view
from tests.eventually import projected

pytestmark = [pytest.mark.db, pytest.mark.redis]
OPEN = {"N": "me", "E": "open", "S": "open", "W": "open"}
READ_MODELS = projections   # what the projector would run beside the app


@pytest.fixture(scope="module")
async def runner(client, database_url: str):
    pool = await create_pool(database_url, max_size=2)
    yield ProjectionRunner(PostgresEventStore(pool))
    await pool.close()


@pytest.mark.parametrize("body,code,field", [
    ({"game": "bridge", "seats": OPEN}, "unknown_game", "$.game"),
    ({"game": "belote", "options": {"rubber": 1}, "seats": OPEN}, "bad_option", "$.options.rubber"),
    ({"game": "belote", "options": {"variant": "rubber"}, "seats": OPEN}, "bad_option", "$.options.variant"),
    ({"game": "cinch", "options": {"target": "many"}, "seats": OPEN}, "bad_option", "$.options.target"),
    ({"game": "belote", "options": [], "seats": OPEN}, "invalid_field", "$.options"),
    ({"game": "belote", "seats": {"N": "me"}}, "bad_seats", "$.seats"),
    ({"game": "belote", "seats": {**OPEN, "E": "dragon"}}, "bad_seats", "$.seats.E"),
    ({"game": "belote", "seats": {**OPEN, "E": "me"}}, "bad_seats", "$.seats"),
    ({"game": "belote", "seats": OPEN, "record": {"deals": [{"dealer": "N", "deck": ["AS"]}]}}, "bad_deck",
     "$.record.deals[0]"),
    ({"game": "belote", "seats": OPEN, "record": {"game": "cinch", "deals": []}}, "invalid_field", "$.record.game"),
    ({"game": 3, "seats": OPEN}, "invalid_field", "$.game"),
    ({"seats": OPEN}, "invalid_field", "$.game"),
])
async def test_bad_creations_are_400_naming_the_field(client, body, code, field) -> None:
    player = await register(client)
    response = await client.post("/v1/matches", json=body, headers=player.headers)
    assert (response.status_code, response.json()["code"]) == (400, code), response.text
    assert response.json()["details"]["field"] == field


async def test_seats_autostart_lobby_and_my_matches(client, runner) -> None:
    north, east = await register(client, "Norah"), await register(client)
    created = await client.post("/v1/matches", json={"game": "five_hundred", "seats": OPEN}, headers=north.headers)
    assert created.status_code == 201 and created.headers["location"].endswith(created.json()["match_id"])
    match_id = created.json()["match_id"]
    assert created.json()["status"] == "open" and created.json()["seat"] == "N"

    async def lobby():
        return (await client.get("/v1/matches", params={"status": "open"}, headers=east.headers)).json()

    async def mine():
        return (await client.get("/v1/matches/mine", headers=north.headers)).json()

    def listed(ms):
        return match_id in [m["match_id"] for m in ms]

    row = next(m for m in await projected(runner, READ_MODELS, lobby, listed) if m["match_id"] == match_id)
    assert row["seats"]["N"] == {"kind": "player", "player_id": north.player_id, "level": None, "name": "Norah"}
    mine_now = await projected(runner, READ_MODELS, mine, lambda ms: ms)
    assert [m["match_id"] for m in mine_now] == [match_id] and mine_now[0]["status"] == "open"
    assert (await client.get("/v1/matches/mine", headers=east.headers)).json() == []
    bad = await client.get("/v1/matches", params={"status": "lost"}, headers=east.headers)
    assert (bad.status_code, bad.json()["details"]["field"]) == (400, "status")

    url = f"/v1/matches/{match_id}/seats"
    assert (await client.post(f"{url}/X", headers=east.headers)).json()["details"]["field"] == "seat"
    taken = await client.post(f"{url}/N", headers=east.headers)
    assert (taken.status_code, taken.json()["code"]) == (422, "seat_taken")
    assert (await client.post(f"{url}/E", headers=east.headers)).status_code == 200
    twice = await client.post(f"{url}/S", headers=east.headers)
    assert (twice.status_code, twice.json()["code"]) == (422, "already_seated")
    left = await client.delete(f"{url}/E", headers=east.headers)
    assert left.status_code == 200 and left.json()["events"][-1]["event"]["type"] == "seat_left"
    not_mine = await client.delete(f"{url}/N", headers=east.headers)
    assert (not_mine.status_code, not_mine.json()["code"]) == (422, "not_your_seat")
    early = await client.post(f"/v1/matches/{match_id}/start", headers=north.headers)
    assert (early.status_code, early.json()["code"]) == (422, "seats_free")

    # The last seat taken starts the match: that answer holds the start and the first deal.
    others = [await register(client) for _ in range(3)]
    for seat, player in zip("ESW", others):
        answer = await client.post(f"{url}/{seat}", json={"entropy": f"{seat}!"}, headers=player.headers)
        assert answer.status_code == 200, answer.text
    types = [e["event"]["type"] for e in answer.json()["events"] if e["event"]]
    assert "match_started" in types
    assert (await view(client, match_id, north))["status"] == "playing"
    again = await client.post(f"/v1/matches/{match_id}/start", headers=north.headers)
    assert (again.status_code, again.json()["code"]) == (422, "match_not_open")
    outsider = await register(client)
    assert (await client.post(f"/v1/matches/{match_id}/start", headers=outsider.headers)).status_code == 403
    assert not listed(await projected(runner, READ_MODELS, lobby, lambda ms: not listed(ms)))

    async def theirs():
        return (await client.get("/v1/matches/mine", headers=others[0].headers)).json()

    seated = await projected(runner, READ_MODELS, theirs, lambda ms: ms and ms[0]["status"] == "playing")
    assert [m["match_id"] for m in seated] == [match_id] and seated[0]["status"] == "playing"
    spectator = await view(client, match_id, outsider)
    assert spectator["seat"] is None and spectator["table"]["legal"] == []


async def test_an_optional_body_is_left_out_or_an_object_never_null(client) -> None:
    """The document says the seat's body is an object the route may go without (what a
    generated client sends, or not): no body, even with a JSON Content-Type, takes the seat,
    as `{}` does; JSON `null` is refused as on every route with a body."""
    north = await register(client)
    created = await client.post("/v1/matches", json={"game": "cinch", "seats": OPEN}, headers=north.headers)
    match_id = created.json()["match_id"]
    for seat, body in (("E", b""), ("S", b"{}")):
        taker = await register(client)
        taken = await client.post(f"/v1/matches/{match_id}/seats/{seat}", content=body,
                                  headers={**taker.headers, "Content-Type": "application/json"})
        assert taken.status_code == 200, (body, taken.text)
    late = await register(client)
    refused = await client.post(f"/v1/matches/{match_id}/seats/W", content=b"null",
                                headers={**late.headers, "Content-Type": "application/json"})
    assert (refused.status_code, refused.json()["code"], refused.json()["details"]) == \
        (400, "invalid_field", {"field": "$", "source": "body"}), refused.text
    assert (await client.post(f"/v1/matches/{match_id}/seats/W", headers=late.headers)).status_code == 200


async def test_a_bot_is_removed_only_by_a_player_of_the_match(client) -> None:
    north, passer_by = await register(client), await register(client)
    created = await client.post("/v1/matches", headers=north.headers,
                                json={"game": "cinch", "seats": {**OPEN, "E": "bot:basic"}})
    url = f"/v1/matches/{created.json()['match_id']}/seats/E"
    refused = await client.delete(url, headers=passer_by.headers)
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    assert (await client.delete(url, headers=north.headers)).status_code == 200


async def test_rematch_keeps_seats_and_is_made_once(client) -> None:
    match_id, players = await seated_match(client, "cinch", {"deals": 1})
    early = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["N"].headers)
    assert (early.status_code, early.json()["code"]) == (422, "match_not_finished")
    await finish(client, match_id, players)
    first = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["N"].headers)
    assert first.status_code == 201, first.text
    second = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["W"].headers)
    assert second.json()["match_id"] == first.json()["match_id"] != match_id
    rematch = second.json()
    # Nobody gave entropy to it yet: it waits, full, for its players' (docs/fair-deal.md).
    assert rematch["seat"] == "W" and rematch["status"] == "open"
    assert {s: h["player_id"] for s, h in rematch["seats"].items()} == {s: p.player_id for s, p in players.items()}
    assert rematch["options"] == {"deals": 1} and rematch["game"] == "cinch"
    outsider = await register(client)
    assert (await client.post(f"/v1/matches/{match_id}/rematch", headers=outsider.headers)).status_code == 403
    missing = await client.post(f"/v1/matches/{uuid.uuid4()}/rematch", headers=outsider.headers)
    assert (missing.status_code, missing.json()["code"]) == (404, "unknown_match")


async def test_imported_deal_record_and_record_play(client) -> None:
    deck = list(reversed(DECK_32))
    north = await register(client)
    created = await client.post("/v1/matches", headers=north.headers, json={
        "game": "belote", "options": {"deals": 1}, "seats": OPEN,
        "record": {"game": "belote", "deals": [{"dealer": "E", "deck": deck, "actions": []}]}})
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    players = {"N": north}
    for seat in "ESW":
        players[seat] = await register(client)
        assert (await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=players[seat].headers)).is_success
    first = await view(client, match_id, north)
    assert first["table"]["dealer"] == "E" and set(first["table"]["hand"]) <= set(deck)
    before = await client.get(f"/v1/matches/{match_id}/record", headers=north.headers)
    assert before.json()["deals"] == []  # nothing is public before the deal is over

    await finish(client, match_id, players, seed=3)
    record = (await client.get(f"/v1/matches/{match_id}/record", headers=north.headers)).json()
    assert record["deals"][0]["deck"] == deck and record["deals"][0]["dealer"] == "E"
    assert "fair" not in record["deals"][0]  # an imported deal has no shuffle to verify

    played = await client.post("/v1/records/play", params={"legal": "true"}, json=record, headers=north.headers)
    assert played.status_code == 200 and played.json()["ok"] is True and played.json()["legal"] == {}
    partial = {**record, "deals": [{**record["deals"][0], "actions": record["deals"][0]["actions"][:2]}]}
    legal = (await client.post("/v1/records/play?legal=true", json=partial, headers=north.headers)).json()
    assert legal["ok"] is True and legal["legal"]
    wrong = {**record, "deals": [{**record["deals"][0], "actions": record["deals"][0]["actions"][1:]}]}
    refused = await client.post("/v1/records/play", json=wrong, headers=north.headers)
    assert refused.status_code == 422
    assert refused.json()["ok"] is False and refused.json()["deal"] == 0 and refused.json()["index"] == 0
    broken = await client.post("/v1/records/play", content=b"{not json", headers={**north.headers,
                                                                                 "content-type": "application/json"})
    assert broken.status_code == 422
    assert {k: broken.json()[k] for k in ("ok", "deal", "index", "code")} == {"ok": False, "deal": None, "index": None,
                                                                               "code": "bad_record"}
    assert (await client.post("/v1/records/play", json=record)).json()["code"] == "unauthorized"
