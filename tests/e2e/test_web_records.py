"""A match dealt from a match record chosen in the lobby (headless Chromium, Playwright).

A guest whose browser speaks Russian chooses a file that is not a match record (told so in
his words), then a record of one Coinche deal under the official rules: the form says what it
holds and its options fill the form (one match deal a record's deal), and the match he
creates for four bots is that game with those options, its one deal dealt from the record's
deck by the record's dealer. Choosing another game forgets the record. axe-core finds no serious or critical
violation on the form with its record.

Screenshots: test-artifacts/web-records/.
"""

from __future__ import annotations

import json
import random

import httpx
import pytest
from test_web_phone import DESKTOP, axe_check, context_page, sign_in, snap
from web_support import browser, fresh_artifacts  # noqa: F401

from domain.games import load

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]



@pytest.fixture(scope="module")
def shots():
    return fresh_artifacts("web-records")


async def test_a_match_dealt_from_a_record_chosen_in_the_lobby(web_system, browser, shots, tmp_path):
    deck = list(load("belote").deck)
    random.Random(7).shuffle(deck)
    record = {"game": "belote", "options": {"variant": "coinche", "rules": "official", "deals": 8, "target": 2000},
              "deals": [{"dealer": "E", "deck": deck, "actions": []}]}
    good, bad = tmp_path / "coinche.json", tmp_path / "notes.json"
    good.write_text(json.dumps(record))
    bad.write_text(json.dumps({"notes": "not a record"}))

    errors: list[str] = []
    page = await context_page(browser, errors, "ru-RU", DESKTOP)
    me = await sign_in(page, web_system.base, "Саша")
    await page.set_input_files("#create-record", str(bad))
    await page.wait_for_selector("#create-record-said[data-kind=error]:has-text('не запись партии')")

    await page.set_input_files("#create-record", str(good))
    await page.wait_for_selector("#create-record-said:not([data-kind]):has-text('раздач: 1')")
    # its options fill the form, one deal a record's deal
    assert [await page.input_value(c) for c in ("#create-game", "#create-variant", "#create-rules", "#create-deals",
                                                 "#create-target")] == ["belote", "coinche", "official", "1", ""]
    await page.select_option("#create-game", "cinch")          # another game: the record is not for it
    await page.wait_for_function("document.getElementById('create-record-said').textContent === ''")
    assert await page.eval_on_selector("#create-record", "el => el.files.length") == 0
    await page.set_input_files("#create-record", str(good))
    await page.wait_for_selector("#create-record-said:has-text('раздач: 1')")
    for seat in ("N", "E", "S", "W"):
        await page.select_option(f"select[data-seat={seat}]", "bot:random")
    await axe_check(page, "the new-match form with a record")
    await snap(page, shots, "01-record-chosen")
    await page.click("#create-go")
    await page.wait_for_url("**/#/match/*")
    match_id = page.url.rsplit("/match/", 1)[1]
    await page.wait_for_selector("body[data-status=finished]", timeout=60_000)

    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {me['token']}"}) as http:
        played = (await http.get(f"/v1/matches/{match_id}/record")).json()
    assert played["game"] == "belote", played
    assert {k: played["options"][k] for k in ("variant", "rules", "deals")} == {"variant": "coinche", "rules": "official",
                                                                                "deals": 1}, played["options"]
    assert [(d["dealer"], d["deck"]) for d in played["deals"]] == [("E", deck)]
    assert not errors, errors
