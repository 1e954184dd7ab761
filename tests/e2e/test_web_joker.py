"""Leading the Joker in no trumps from the web client (headless Chromium, Playwright).

A guest sits S at a one-deal Five Hundred table of basic bots, its deal from a record (dealer
E, so S speaks first) giving S the Joker and the three top cards of three suits. He bids ten
no trumps, takes the kitty, discards three cards by picking them, and leads the Joker: the
page offers one button per suit he may name (B.5.4). While he decides, the page draws the same
view again (he asks a hint: the view is read again, its version unchanged); the suit buttons
stay, the same elements. He names hearts; the Joker is played with hearts named.
"""

from __future__ import annotations

import httpx
import pytest
from test_web_games import arranged_deck, click_action, create_with_record
from test_web_phone import DESKTOP, context_page, sign_in
from web_support import browser, web_pool, web_svc  # noqa: F401

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

HAND = ["JK", "AS", "KS", "QS", "AH", "KH", "QH", "AD", "KD", "QD"]
TEN_NO_TRUMPS = {"action": "bid", "tricks": 10, "suit": "NT"}
MY_TURN = "document.body.dataset.myTurn === 'true'"


async def test_a_joker_lead_names_a_suit_and_the_offer_outlasts_a_redraw(web_system, browser):
    errors: list[str] = []
    page = await context_page(browser, errors, "en-GB", DESKTOP)
    me = await sign_in(page, web_system.base, "Jo")
    deck = arranged_deck("five_hundred", {"deals": 1}, "E", {"S": HAND}, seed=5)
    match_id = await create_with_record(page, web_system.base, "five_hundred", {"deals": 1},
                                        [{"dealer": "E", "deck": deck}])

    await page.wait_for_function(MY_TURN, timeout=30_000)             # S speaks first
    await click_action(page, TEN_NO_TRUMPS)

    await page.wait_for_function(f"{MY_TURN} && document.body.dataset.picking === '3'", timeout=30_000)
    choice = await page.locator("#table .card.legal").evaluate_all("els => els.map(e => e.dataset.card)")
    for code in [c for c in choice if c not in HAND][:3]:               # shed three of the kitty's
        await page.click(f"#table .card.legal[data-card='{code}']")
    await page.click("#pick-confirm")

    await page.wait_for_function(f"{MY_TURN} && document.body.dataset.picking === ''", timeout=30_000)
    version = await page.get_attribute("body", "data-version")
    await page.click("#table .card.legal[data-card='JK']")
    forms = page.locator("#actions button.action-play")
    await forms.first.wait_for()
    named = await forms.evaluate_all("els => els.map(e => JSON.parse(e.dataset.action))")
    assert sorted(f["suit"] for f in named) == ["C", "D", "H", "S"] and {f["card"] for f in named} == {"JK"}, named
    assert await page.get_attribute("body", "data-version") == version       # nothing is sent before a suit is named
    await page.evaluate("window.firstForm = document.querySelector('#actions button.action-play')")

    await page.click("#hint")                                                # the same view, drawn again
    await page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
    assert await page.get_attribute("body", "data-version") == version
    assert await page.evaluate("document.querySelector('#actions button.action-play') === window.firstForm")
    assert await forms.count() == 4

    await page.click("#actions button.action-play[data-action*='\"suit\":\"H\"']")
    await page.wait_for_function(f"document.body.dataset.version !== '{version}'", timeout=30_000)
    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {me['token']}"}) as http:
        events = (await http.get(f"/v1/matches/{match_id}/events", params={"after": version})).json()["events"]
    led = [e["event"] for e in events if (e["event"] or {}).get("type") == "card_played"]
    assert led and led[0] == {"type": "card_played", "seat": "S", "card": "JK", "suit": "H"}, led
    assert await forms.count() == 0                                          # the offer went with its turn
    assert not errors, errors
