"""Free texts that must say something (a name, a report's or an admin's reason, a chat line):
the document's pattern and the server agree on what is blank, character by character.

JSON Schema's regular expressions are ECMAScript's, whose `\\s` is not Python's; a pattern
written with `\\s` let a generated client send a reason of U+001E that the schema allows and the
server refused. The patterns now name the blank characters, so both engines read them alike."""

from __future__ import annotations

import json
import re
import sys
import uuid

import asyncpg
import msgspec

from services.http.schemas import BLANK, SAYS_SOMETHING
from tests.api.conftest import Player, register
import pytest

pytestmark = [pytest.mark.db, pytest.mark.redis]

ENGINE_DEPENDENT = re.compile(r"(?<!\\)(?:\\\\)*\\[sSwWdDbB]")   # classes ECMAScript and Python read apart
TRICKY = ["\x1e", "\x85", "\u2028", "\u3000", "\ufeff", "\u200b", "a"]


def patterns(node: object) -> set[str]:
    if isinstance(node, dict):
        return {v for k, v in node.items() if k == "pattern" and isinstance(v, str)} | {
            p for k, v in node.items() if k != "pattern" for p in patterns(v)}
    if isinstance(node, list):
        return {p for v in node for p in patterns(v)}
    return set()


def test_blank_is_exactly_what_strip_takes_away() -> None:
    blank = {chr(c) for c in range(sys.maxunicode + 1) if re.fullmatch(f"[{BLANK}]", chr(c))}
    assert blank == {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()}
    assert all((re.search(SAYS_SOMETHING, c) is None) == (c.strip() == "") for c in TRICKY)


async def test_no_pattern_of_the_document_depends_on_the_regex_engine(client) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    found = patterns(document)
    assert any(BLANK in p for p in found), "the not-blank patterns are in the document"
    assert not [p for p in found if ENGINE_DEPENDENT.search(p)]


async def test_a_blank_text_is_refused_by_schema_and_server_alike(client, migrated_database_url: str) -> None:
    document = json.dumps((await client.get("/schema/openapi.json")).json())
    assert json.dumps(SAYS_SOMETHING)[1:-1] in document
    reporter, reported = await register(client), await register(client)
    admin = await register(client, "text admin")
    conn = await asyncpg.connect(migrated_database_url)
    try:
        await conn.execute("UPDATE players SET role = 'admin' WHERE player_id = $1", admin.player_id)
    finally:
        await conn.close()
    for c in TRICKY:
        blank = c.isspace()
        name = await client.post("/v1/players", json={"name": c})
        report = await client.post("/v1/reports", headers=reporter.headers,
                                   json={"player_id": reported.player_id, "reason": c + c})
        void = await client.post(f"/v1/admin/matches/{uuid.uuid4()}/void", headers=admin.headers,
                                 json={"reason": c})
        if blank:
            for answer, field in ((name, "$.name"), (report, "$.reason"), (void, "$.reason")):
                assert answer.status_code == 400, (repr(c), answer.text)
                assert answer.json()["code"] == "invalid_field" and answer.json()["details"]["field"] == field
        else:
            assert (report.status_code, void.status_code) == (201, 404), (repr(c), report.text, void.text)
            shows = c not in "\ufeff\u200b"            # a name of a zero-width character alone shows nothing
            assert (name.status_code, name.json().get("code")) == ((201, None) if shows else (400, "text_invisible"))


HIDDEN = {
    "text_bidi_control": ["Ada\u202enimda", "\u202aAda", "Ada\u202c", "\u202dx", "x\u2066y\u2069", "\u2067a",
                          "\u2068a", "a\u200e", "a\u200f", "\u061cأحمد"],
    "text_invisible": ["\u200b", "\u200c\u200d", "\u2060", "\ufeff\u200b", "\u0301\u0308", "\u20dd",
                       "\u3164", "\u2800", " \u200b "],
}
SHOWN = ["Zoë", "Łukasz Żółć", "Éloïse", "Дмитрий", "Ada 👩\u200d💻", "👨\u200d👩\u200d👧", "e\u0301", "ok\u200b"]


async def _chat(client, match_id: str, who, text: str):
    return await client.post(f"/v1/matches/{match_id}/chat", headers=who.headers,
                             json={"command_id": str(uuid.uuid4()), "text": text})


async def test_names_and_chat_refuse_bidi_controls_and_texts_that_show_nothing(client, migrated_database_url) -> None:
    """One rule for every text others read (domain/text.py): a player's, a tournament's and a
    team's name and a chat line refuse a bidi control anywhere, and a text of only zero-width,
    format or combining characters, with 400 and the rule's code naming the field."""
    seat, organiser = await register(client), await register(client, "text organiser")
    conn = await asyncpg.connect(migrated_database_url)
    try:
        await conn.execute("UPDATE players SET role = 'organiser' WHERE player_id = $1", organiser.player_id)
    finally:
        await conn.close()
    created = await client.post("/v1/matches", headers=seat.headers, json={
        "game": "belote", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
    match_id = created.json()["match_id"]
    tournament = {"game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 1}}
    tid = (await client.post("/v1/tournaments", headers=organiser.headers,
                             json={**tournament, "name": "Vendredi"})).json()["tournament_id"]
    for code, texts in HIDDEN.items():
        for text in texts:
            answers = {
                "player": await client.post("/v1/players", json={"name": text}),
                "tournament": await client.post("/v1/tournaments", headers=organiser.headers,
                                                json={**tournament, "name": text}),
                "team": await client.post(f"/v1/tournaments/{tid}/entries", headers=organiser.headers,
                                          json={"players": ["bot:random", "bot:random"], "name": text}),
                "chat": await _chat(client, match_id, seat, text),
            }
            for what, answer in answers.items():
                assert answer.status_code == 400, (what, repr(text), answer.status_code, answer.text)
                body = answer.json()
                assert (body["code"], body["details"]["field"]) == (code, "$.text" if what == "chat" else "$.name"), (
                    what, repr(text), body)
                assert body["message"]


async def test_every_script_and_emoji_still_make_names_and_chat(client) -> None:
    for text in SHOWN:
        name = await client.post("/v1/players", json={"name": text})
        seat = msgspec.convert(name.json(), Player)    # a table of his own each time: the chat's rate limit
        created = await client.post("/v1/matches", headers=seat.headers, json={
            "game": "belote", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
        said = await _chat(client, created.json()["match_id"], seat, text)
        assert (name.status_code, said.status_code) == (201, 201), (repr(text), name.text, said.text)


def test_an_admin_made_by_the_cli_follows_the_same_name_rule(capsys) -> None:
    from services.cli import main as atout

    for texts in HIDDEN.values():
        for text in texts[:3]:
            assert atout(["admin", "create", text, "--database-url", "postgresql://nowhere.invalid/none"]) == 2
            assert "text_" in capsys.readouterr().err
