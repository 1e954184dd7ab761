"""The table's moving cards in a real browser (headless Chromium, Playwright).

The other browser tests keep the cards still (web_support `still_cards`). Here a guest
playing Belote against three bots turns the movement on ("slow") in the table's settings: when
a trick is completed its four cards stay on the felt, though the view read after the fourth
card already holds an empty trick, and they are the last trick the view gives; a moment later
they are gone. With "tap to raise, tap again to play" also on, her first tap on a card only
raises it, the second plays it.
"""

from __future__ import annotations

import asyncio

import pytest
from web_support import browser, guest_against_bots, new_page, shot  # noqa: F401

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

HELD = """() => ({ held: document.body.dataset.trickHeld, myTurn: document.body.dataset.myTurn,
  trick: [...document.querySelectorAll('#trick [data-card]')].map(e => e.dataset.card),
  last: ((t) => { const ts = (t && t.tricks) || []; const l = ts[ts.length - 1];
                  return l ? { cards: (l.plays || []).map(p => p[1]), winner: l.winner } : null; })(window.atout.state.view.table) })"""


async def test_a_completed_trick_stays_on_the_felt_then_goes(web_system, browser):
    errors: list[str] = []
    page = await new_page(browser, errors)
    await guest_against_bots(page, web_system.base, "Lou", 2)
    await page.click("#settings-panel summary")
    await page.select_option("#setting-motion", "slow")
    await page.check("#setting-confirm")

    loop = asyncio.get_running_loop()
    deadline = loop.time() + 40
    raised = False
    while True:
        assert loop.time() < deadline, "no trick was ever held on the felt"
        now = await page.evaluate(HELD)
        if now["held"] == "true":
            break
        if now["myTurn"] == "true":
            cards = page.locator("#table .card.legal")
            buttons = page.locator("#actions [data-action]")
            try:
                if await cards.count():
                    code = await cards.first.get_attribute("data-card")
                    await cards.first.click(timeout=2000)
                    if not raised:                      # raised, not played: the view has not moved
                        await page.wait_for_selector(f"#table .card.raised[data-card='{code}']", timeout=2000)
                        assert await page.evaluate("document.body.dataset.myTurn") == "true"
                        raised = True
                    await page.click(f"#table .card.raised[data-card='{code}']", timeout=2000)
                elif await buttons.count():
                    await buttons.first.click(timeout=2000)
            except Exception:  # noqa: BLE001 - redrawn under the click: read the page again
                pass
        await asyncio.sleep(0.05)

    assert raised
    assert len(now["trick"]) == 4, now
    assert sorted(now["trick"]) == sorted(now["last"]["cards"]), now        # the view's own last trick
    await shot(page, "motion-held")
    await page.wait_for_function("document.body.dataset.trickHeld === 'false'", timeout=5000)
    after = await page.evaluate(HELD)
    assert not set(after["trick"]) & set(now["trick"]), after
    assert not errors, errors
