"""The web client's "Hint" button in a real browser (headless Chromium, Playwright).

A guest plays a three-deal Belote match against three `bot:basic` bots (a real worker plays
them): three deals, so that a deal all four pass twice (thrown in, as the rules say) leaves
her decisions enough to ask all her hints. At her turns the Hint button is offered; clicking it shows the expert's suggestion
and its reason in words — exactly what the hint stream recorded for her seat — and marks
the suggested card or button, which she then clicks. The counts shown are every seat's;
a spectator gets no button and no hint's words. Off her turn there is no button.
"""

from __future__ import annotations

import json

import msgspec
import pytest
from web_support import browser, new_page, shot, web_pool, web_svc, web_system  # noqa: F401

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

HINTS = 3


async def test_the_hint_button_shows_the_expert_s_choice_and_why(web_system, web_svc, browser):
    errors: list[str] = []
    page = await new_page(browser, errors)
    await page.goto(f"{web_system.base}/")
    await page.fill("#signin-name", "Hilda")
    await page.click("#signin-go")
    await page.wait_for_selector("#screen-lobby:not([hidden])")
    await page.select_option("#create-game", "belote")
    await page.select_option("#create-variant", "classic")
    await page.fill("#create-deals", "3")
    for seat in "NEW":
        await page.select_option(f"select[data-seat={seat}]", "bot:basic")
    await page.select_option("select[data-seat=S]", "me")
    await page.click("#create-go")
    await page.wait_for_url("**/#/match/*")
    match_id = page.url.rsplit("/match/", 1)[1]
    await page.wait_for_selector("body[data-seat=S]")

    watcher = await new_page(browser, errors)
    await watcher.goto(f"{web_system.base}/#/match/{match_id}")
    await watcher.fill("#signin-name", "Watcher")
    await watcher.click("#signin-go")
    await watcher.wait_for_selector("body[data-seat=spectator]")

    asked, said = 0, []
    while asked < HINTS:
        await page.wait_for_function(
            "document.body.dataset.myTurn === 'true' || document.body.dataset.status === 'finished'", timeout=30_000)
        if await page.get_attribute("body", "data-status") == "finished":
            break
        version = await page.get_attribute("body", "data-version")
        await page.wait_for_selector("#hint-box:not([hidden]) #hint:not([disabled])")
        assert await page.inner_text("#hint") == f"Hint ({10 - asked} left)"
        await page.click("#hint")
        await page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
        asked += 1
        text = await page.inner_text("#hint-text")
        recorded = [msgspec.json.decode(e.data) for e in await web_svc.store.read_stream(f"hints-{match_id}")]
        assert len(recorded) == asked and recorded[-1]["seat"] == "S" and recorded[-1]["version"] == int(version)
        assert recorded[-1]["reason"]["words"] in text, (text, recorded[-1])
        said.append(recorded[-1]["reason"]["words"])
        assert await page.get_attribute("#hint-text", "data-code") == recorded[-1]["reason"]["code"]
        assert await page.is_disabled("#hint")                  # one per decision
        await page.wait_for_selector(f"#hints-used:has-text('S {asked}')")
        if asked == 1:
            await shot(page, "30-hint")
        action = recorded[-1]["action"]
        if action["action"] == "play":
            hinted = page.locator("#table .seat-bottom .card.hinted")
            assert await hinted.get_attribute("data-card") == action["card"]
            await hinted.click()
        else:
            control = page.locator("#actions [data-action].hinted")
            assert json.loads(await control.get_attribute("data-action")) == action
            await control.click()
        await page.wait_for_function(
            f"document.body.dataset.version !== '{version}' || document.body.dataset.status === 'finished'",
            timeout=30_000)
        assert await page.inner_text("#hint-text") == ""         # the table moved on: the hint is gone
    assert asked == HINTS

    # the spectator sees the counts, never a button nor what a hint said
    await watcher.wait_for_selector(f"#hints-used:has-text('S {HINTS}')")
    assert await watcher.locator("#hint-box:not([hidden])").count() == 0
    body = await watcher.content()
    assert not any(words in body for words in said)
    assert not errors, errors
