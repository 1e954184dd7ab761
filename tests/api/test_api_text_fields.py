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

from services.api.schemas import BLANK, SAYS_SOMETHING
from tests.api.conftest import register

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
            assert (name.status_code, report.status_code, void.status_code) == (201, 201, 404), (
                repr(c), name.text, report.text, void.text)
