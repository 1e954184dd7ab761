"""The web client's "Hint" button in a real browser (headless Chromium, Playwright).

A guest plays a three-deal Belote match against three `bot:basic` bots (a real worker plays
them): three deals, so that a deal all four pass twice (thrown in, as the rules say) leaves
her decisions enough to ask all her hints. At her turns the Hint button is offered; clicking it shows the expert's suggestion
and its reason in words — exactly what the hint stream recorded for her seat — and marks
the suggested card or button, which she then clicks. The counts shown are every seat's;
a spectator gets no button and no hint's words. Off her turn there is no button.

A guest whose browser speaks Russian reads the hint's reason in Russian, drawn from its
stable `code` and `params` (the suit, the trumps counted in Russian's plural, the honours),
not the server's English `words`.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from test_web_phone import sign_in
from web_support import browser, guest_against_bots, new_page, shot, still_cards, web_pool, web_svc  # noqa: F401

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

HINTS = 3
LOCALES = Path(__file__).resolve().parents[2] / "services" / "web" / "locales"


async def test_the_hint_button_shows_the_expert_s_choice_and_why(web_system, web_svc, browser):
    errors: list[str] = []
    page = await new_page(browser, errors)
    match_id = await guest_against_bots(page, web_system.base, "Hilda", 3)

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


def russian_plural(n: int) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    return "few" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "many"


def in_russian(reason: dict) -> str:
    """The reason as the Russian catalog words it, from its code and params alone."""
    ru = json.loads((LOCALES / "ru.json").read_text(encoding="utf-8"))
    p = reason["params"]
    count = p.get("trumps", p.get("aces"))
    words = ru["hint_reason"].get(reason["code"]) or ru["hint_reason"][f"{reason['code']}_{russian_plural(count)}"]
    honours = [ru["hint_honour"][n.lower().replace(" ", "_")] for n in p.get("honours", [])]
    fill = {"trumps": str(p.get("trumps", "")), "aces": str(p.get("aces", "")), "level": str(p.get("level", "")),
            "suit": ru["suit_name"].get(p.get("suit"), ru["term"]["no_trump"] if p.get("suit") == "NT" else ""),
            "honours": ru["hint_honour"]["with"].replace("{{list}}", ", ".join(honours[:-1]) + " и " + honours[-1]
                                                         if len(honours) > 1 else "".join(honours)) if honours else ""}
    for name, value in fill.items():
        words = words.replace("{{%s}}" % name, value)
    assert "{{" not in words and "needs" not in p, (words, p)       # Belote: no trick count is added
    return words


async def test_the_hint_s_reason_is_read_in_the_player_s_language(web_system, web_svc, browser):
    errors: list[str] = []
    context = await still_cards(await browser.new_context(locale="ru-RU", viewport={"width": 390, "height": 844}, is_mobile=True))
    page = await context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.set_default_timeout(30_000)
    await sign_in(page, web_system.base, "Вера")
    await page.select_option("#create-game", "belote")
    await page.select_option("#create-variant", "classic")
    await page.fill("#create-deals", "1")
    await page.click("#create-go")
    await page.wait_for_url("**/#/match/*")
    match_id = page.url.rsplit("/match/", 1)[1]
    await page.wait_for_selector("body[data-seat=S][data-my-turn=true]", timeout=30_000)
    await page.click("#hint-box:not([hidden]) #hint:not([disabled])")
    await page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
    recorded = [msgspec.json.decode(e.data) for e in await web_svc.store.read_stream(f"hints-{match_id}")][-1]["reason"]
    text = await page.inner_text("#hint-text")
    assert await page.get_attribute("#hint-text", "data-code") == recorded["code"]
    assert text.endswith(in_russian(recorded)), (text, recorded)
    assert recorded["words"] not in text
    await shot(page, "31-hint-ru")
    # the params the deal did not give: a suit, trumps counted, honours listed; a Five Hundred
    # trick count; and a code this client does not know, which falls back to the server's words
    said = await page.evaluate("""() => import('/web/matches/hints.js').then((m) => [
      m.reasonText({code: 'take_trumps', words: 'x', params: {suit: 'H', trumps: 3, honours: ['jack', 'nine']}}),
      m.reasonText({code: 'win_trick', words: 'x', params: {needs: 'contract_needs', tricks_needed: 5}}),
      m.reasonText({code: 'bid_points', words: 'x', params: {level: 3, suit: 'S', trumps: 1}}),
      m.reasonText({code: 'some_new_code', words: 'In English.', params: {}})])""")
    assert said == ["Берите: черви — у вас 3 козыря, в том числе валет и девятка.",
                    "Эта карта берёт взятку. Контракту нужно ещё 5 взяток.",
                    "Заявляйте 3: ваша лучшая масть — пики (1 карта).", "In English."], said
    await context.close()
    assert not errors, errors
