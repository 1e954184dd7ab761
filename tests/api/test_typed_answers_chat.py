"""The chat and moderation routes answer what the served OpenAPI document says: every body of
the chat history (a seat's, a spectator's, an admin's), a message sent (and sent again),
reports about a message or a player, the admins' queue (open, closed with a resolution,
sealed from an admin who plays in the match, with erased players' null names), a dismissal
and every sanction, taken for real, is valid by its route's response schema, and so is
every example the document gives for them."""

from __future__ import annotations

import uuid

import pytest

from infra.projections import ProjectionRunner
from infra.projections.reports import ChatReports
from infra.store import PostgresEventStore
from tests.api.typed_answers import check, check_examples, served
from tests.api.conftest import register

pytestmark = [pytest.mark.db, pytest.mark.redis]
CHAT = "/v1/matches/{match_id}/chat"
ADMIN_CHAT = "/v1/admin/matches/{match_id}/chat"
QUEUE = "/v1/admin/reports"
PLAYER = "/v1/admin/players/{player_id}"
ROUTES = [("get", CHAT, 200), ("post", CHAT, 201), ("get", ADMIN_CHAT, 200), ("post", "/v1/reports", 201),
          ("get", QUEUE, 200), ("post", "/v1/admin/reports/{report_id}/dismiss", 200),
          ("get", PLAYER + "/sanctions", 200),
          *[("post", f"{PLAYER}/{action}", 200) for action in ("mute", "unmute", "ban", "unban")]]


@pytest.fixture(scope="module")
async def doc(client):
    return await served(client)


async def caught_up(pool) -> None:
    """The reports queue's read model, caught up by hand (no projector runs here)."""
    store, reports = PostgresEventStore(pool), ChatReports()
    runner = ProjectionRunner(store)
    await runner.ensure(reports)
    await store.settle()
    await runner.catch_up(reports)


async def admin(client, pool, name: str):
    player = await register(client, name)
    await pool.execute("UPDATE players SET role = 'admin' WHERE player_id = $1", player.player_id)
    return player


async def table(client, host, seats: dict[str, str]) -> str:
    made = await client.post("/v1/matches", headers=host.headers,
                             json={"game": "belote", "options": {"deals": 1}, "seats": seats})
    assert made.status_code == 201, made.text
    return made.json()["match_id"]


async def test_the_documents_examples_are_valid_by_their_schemas(doc) -> None:
    assert check_examples(doc, ROUTES) >= len(ROUTES)


async def test_chat_reports_queue_and_sanctions(client, pool, doc) -> None:
    seats = {s: await register(client, f"typed chat {s}") for s in "NESW"}
    rail, gone, pest = [await register(client, n) for n in ("typed rail", "typed gone", "typed pest")]
    boss = await admin(client, pool, "typed admin")
    match_id = await table(client, seats["N"], {"N": "me", "E": "open", "S": "open", "W": "open"})

    async def say(who, command_id: str | None = None, **content) -> dict:
        return check(doc, "post", CHAT, await client.post(
            f"/v1/matches/{match_id}/chat", headers=who.headers,
            json={"command_id": command_id or str(uuid.uuid4()), **content}), 201)

    waiting = await say(seats["N"], text="bonjour à tous")          # a seat's free text before the start
    assert waiting["message"]["phase"] == "waiting" and waiting["message"]["seat"] == "N"
    await say(rail, preset="hello")
    for seat in "ESW":
        assert (await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=seats[seat].headers,
                                  json={})).status_code == 200
    table_preset = await say(seats["E"], preset="good_luck")
    command = str(uuid.uuid4())
    railed = await say(rail, command, text="Quelle partie ! Отличная игра")
    assert railed["message"]["channel"] == "spectators" and railed["message"]["seat"] is None
    assert await say(rail, command, text="Quelle partie ! Отличная игра") == railed      # a retry: the same answer
    gone_said = await say(gone, text="bye")

    reported = check(doc, "post", "/v1/reports", await client.post("/v1/reports", headers=gone.headers, json={
        "match_id": match_id, "message_id": railed["message"]["message_id"], "reason": "spoils the game"}), 201)
    assert reported["message"]["text"] == "Quelle partie ! Отличная игра"
    command = str(uuid.uuid4())
    about_e = {"match_id": match_id, "message_id": table_preset["message"]["message_id"], "reason": "taunts",
               "command_id": command}
    first = check(doc, "post", "/v1/reports", await client.post("/v1/reports", headers=seats["N"].headers,
                                                                 json=about_e), 201)
    assert check(doc, "post", "/v1/reports", await client.post("/v1/reports", headers=seats["N"].headers,
                                                                json=about_e), 201) == first
    about_pest = check(doc, "post", "/v1/reports", await client.post("/v1/reports", headers=gone.headers, json={
        "player_id": pest.player_id, "reason": "spams every table"}), 201)
    assert about_pest["message"] is None and about_pest["match_id"] is None
    erased = await client.delete(f"/v1/players/{gone.player_id}", headers=boss.headers)
    assert erased.status_code == 204, erased.text

    # the history: a seat's (not the rail's words during play), a spectator's, paged; an admin's, whole
    for who in (seats["S"], rail):
        rows = check(doc, "get", CHAT, await client.get(f"/v1/matches/{match_id}/chat", headers=who.headers), 200)
        assert [r["name"] for r in rows if r["message_id"] == gone_said["message"]["message_id"]] == (
            [] if who is seats["S"] else [None])
    page = await client.get(f"/v1/matches/{match_id}/chat?limit=2", headers=rail.headers)
    check(doc, "get", CHAT, page, 200)
    after = page.headers["link"].split(">")[0].removeprefix("<")
    check(doc, "get", CHAT, await client.get(after, headers=rail.headers), 200)
    whole = check(doc, "get", ADMIN_CHAT, await client.get(f"/v1/admin/matches/{match_id}/chat",
                                                           headers=boss.headers), 200)
    assert {m["channel"] for m in whole} == {"table", "spectators"} and len(whole) == 5
    check(doc, "get", ADMIN_CHAT, await client.get(f"/v1/admin/matches/{match_id}/chat?limit=1",
                                                   headers=boss.headers), 200)

    # a report about a match the admin plays in: sealed from him
    own = await table(client, boss, {"N": "me", "E": "open", "S": "open", "W": "open"})
    assert (await client.post(f"/v1/matches/{own}/seats/E", headers=pest.headers, json={})).status_code == 200
    said = check(doc, "post", CHAT, await client.post(f"/v1/matches/{own}/chat", headers=pest.headers, json={
        "command_id": str(uuid.uuid4()), "text": "pas terrible"}), 201)
    hidden = check(doc, "post", "/v1/reports", await client.post("/v1/reports", headers=rail.headers, json={
        "match_id": own, "message_id": said["message"]["message_id"], "reason": "rude"}), 201)

    # the admin's work: a dismissal, a mute closing a report, a ban, and their lifting
    dismissed = check(doc, "post", "/v1/admin/reports/{report_id}/dismiss", await client.post(
        f"/v1/admin/reports/{reported['report_id']}/dismiss", headers=boss.headers, json={"reason": "banter"}), 200)
    assert dismissed == {"report_id": reported["report_id"], "status": "dismissed"}
    sanctions = PLAYER + "/sanctions"
    clean = check(doc, "get", sanctions, await client.get(f"/v1/admin/players/{seats['E'].player_id}/sanctions",
                                                          headers=boss.headers), 200)
    assert clean["muted_until"] is None and clean["version"] == 0
    steps = [("mute", {"minutes": 30, "reason": "taunts", "report_id": first["report_id"]}),
             ("unmute", {"reason": "apologised"}), ("ban", {"reason": "taunts again"}), ("unban", {"reason": "appeal"})]
    for action, body in steps:
        now = check(doc, "post", f"{PLAYER}/{action}", await client.post(
            f"/v1/admin/players/{seats['E'].player_id}/{action}", headers=boss.headers, json=body), 200)
        assert (now["muted_until"] is not None) == (action == "mute") and now["banned"] == (action == "ban")
        check(doc, "get", sanctions, await client.get(f"/v1/admin/players/{seats['E'].player_id}/sanctions",
                                                      headers=boss.headers), 200)

    await caught_up(pool)
    shown = {}
    for status in ("open", "closed", "all", "dismissed", "muted", "banned"):
        rows = check(doc, "get", QUEUE, await client.get(f"{QUEUE}?status={status}&limit=200",
                                                         headers=boss.headers), 200)
        shown.update({r["report_id"]: r for r in rows})
    check(doc, "get", QUEUE, await client.get(f"{QUEUE}?limit=1", headers=boss.headers), 200)
    assert shown[reported["report_id"]]["resolution"]["action"] == "dismissed"
    assert shown[reported["report_id"]]["reporter_name"] is None                          # erased
    assert shown[first["report_id"]]["status"] == "muted"
    assert shown[about_pest["report_id"]]["message"] is None
    sealed = shown[hidden["report_id"]]
    assert sealed["sealed"] is True and sealed["message"] is None and sealed["reason"] is None
