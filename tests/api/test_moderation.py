"""Moderation through a real server: a message reported, the admins' queue, a mute refusing
the player's chat with `chat_muted` and its end, a ban refusing his chat, reports and new
tables with `player_banned`, each action in the audit; an erased player's messages lose his
name; the admin reads a match's whole chat, and the replay of a deal shows what was said
during it."""

from __future__ import annotations

import httpx
import pytest

from tests.api.chat_support import (  # noqa: F401
    chat_publisher,
    history,
    player,
    say,
    sit,
    table,
)
from tests.api.test_live_streams import pool, server  # noqa: F401  (fixtures: a real server process)
from tests.eventually import eventually

pytestmark = [pytest.mark.db, pytest.mark.redis]


@pytest.fixture
async def http(server):  # noqa: F811
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        yield client


async def test_report_mute_ban_and_erasure(server, pool, http, chat_publisher) -> None:  # noqa: F811
    seats = {s: await player(http, f"mod {s}") for s in "NESW"}
    rude, admin = await player(http, "rude one"), await player(http, "mod admin", pool, "admin")
    match_id = await table(http, seats, start=False)
    sent = await say(http, match_id, rude, text="vous jouez comme des pieds")
    assert sent.status_code == 201, sent.text
    message_id = sent.json()["message"]["message_id"]

    mine = await http.post("/v1/reports", headers=rude.headers, json={"match_id": match_id, "message_id": message_id,
                                                                       "reason": "me"})
    assert mine.status_code == 422 and mine.json()["code"] == "cannot_report_self"
    missing = await http.post("/v1/reports", headers=seats["N"].headers,
                              json={"match_id": match_id, "message_id": "no-such-message", "reason": "x"})
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_message"
    filed = await http.post("/v1/reports", headers=seats["N"].headers,
                            json={"match_id": match_id, "message_id": message_id, "reason": "insults"})
    assert filed.status_code == 201, filed.text
    report = filed.json()
    assert report["player_id"] == rude.player_id and report["message"]["text"] == "vous jouez comme des pieds"

    refused = await http.get("/v1/admin/reports", headers=seats["N"].headers)
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"

    async def queued(status: str = "open") -> list:
        rows = (await http.get("/v1/admin/reports", headers=admin.headers, params={"status": status})).json()
        return [r for r in rows if r["report_id"] == report["report_id"]]

    row = (await eventually(queued))[0]
    assert row["player_name"] == "rude one" and row["reporter_name"] == "mod N" and row["reason"] == "insults"

    muted = await http.post(f"/v1/admin/players/{rude.player_id}/mute", headers=admin.headers,
                            json={"minutes": 10, "reason": "insults", "report_id": report["report_id"]})
    assert muted.status_code == 200, muted.text
    until = muted.json()["muted_until"]
    assert until and muted.json()["mute_reason"] == "insults"
    silenced = await say(http, match_id, rude, text="encore")
    assert silenced.status_code == 403 and silenced.json()["code"] == "chat_muted"
    assert silenced.json()["details"]["until"] == until
    closed = (await eventually(lambda: queued("closed")))[0]
    assert closed["status"] == "muted" and closed["resolution"]["admin"] == admin.player_id

    lifted = await http.post(f"/v1/admin/players/{rude.player_id}/unmute", headers=admin.headers,
                             json={"reason": "served"})
    assert lifted.status_code == 200 and lifted.json()["muted_until"] is None
    assert (await say(http, match_id, rude, preset="sorry")).status_code == 201

    banned = await http.post(f"/v1/admin/players/{rude.player_id}/ban", headers=admin.headers,
                             json={"reason": "insults again"})
    assert banned.status_code == 200 and banned.json()["banned"] is True
    again = await http.post(f"/v1/admin/players/{rude.player_id}/ban", headers=admin.headers, json={"reason": "x"})
    assert again.status_code == 422 and again.json()["code"] == "already_banned"
    for answer in (await say(http, match_id, rude, preset="hello"),
                   await http.post("/v1/matches", headers=rude.headers, json={
                       "game": "belote", "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}}),
                   await http.post(f"/v1/matches/{match_id}/seats/W", headers=rude.headers, json={}),
                   await http.post("/v1/reports", headers=rude.headers, json={"player_id": seats["N"].player_id,
                                                                              "reason": "revenge"})):
        assert answer.status_code == 403 and answer.json()["code"] == "player_banned", answer.text
        assert answer.json()["details"]["reason"] == "insults again"
    sanctions = await http.get(f"/v1/admin/players/{rude.player_id}/sanctions", headers=admin.headers)
    assert sanctions.json()["banned"] is True and sanctions.json()["ban_reason"] == "insults again"

    audit = (await http.get("/v1/admin/audit", headers=admin.headers, params={"actor": admin.player_id})).json()
    actions = [(e["action"], e["detail"].get("player_id")) for e in audit]
    assert [a for a in actions if a[1] == rude.player_id] == [("mute", rude.player_id), ("unmute", rude.player_id),
                                                              ("ban", rude.player_id)]

    erased = await http.delete(f"/v1/players/{rude.player_id}", headers=admin.headers)
    assert erased.status_code == 204
    said = [m for m in await history(http, match_id, seats["N"]) if m["player_id"] == rude.player_id]
    assert len(said) == 2 and {m["name"] for m in said} == {None}
    assert (await queued("all"))[0]["player_name"] is None
    whole = await http.get(f"/v1/admin/matches/{match_id}/chat", headers=admin.headers)
    assert whole.status_code == 200 and [m["name"] for m in whole.json()] == [None, None]


async def test_the_replay_of_a_deal_shows_its_chat(server, pool, http, chat_publisher) -> None:  # noqa: F811
    seats = {s: await player(http, f"replay {s}") for s in "NESW"}
    rail, admin = await player(http, "replay rail"), await player(http, "replay admin", pool, "admin")
    match_id = await table(http, seats)
    assert (await say(http, match_id, seats["E"], preset="good_luck")).status_code == 201
    assert (await say(http, match_id, rail, text="allez l'équipe")).status_code == 201
    seated = await http.get(f"/v1/admin/matches/{match_id}/chat", headers=seats["N"].headers)
    assert seated.status_code == 403
    replay = await http.get(f"/v1/admin/matches/{match_id}/deals/0/replay", headers=admin.headers)
    assert replay.status_code == 200, replay.text
    chat = replay.json()["chat"]
    assert [(m["channel"], m["preset"], m["text"]) for m in chat] == [("table", "good_luck", None),
                                                                      ("spectators", None, "allez l'équipe")]
    assert chat[0]["name"] == "replay E"
