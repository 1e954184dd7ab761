"""The end of a deal on the table in a real browser (headless Chromium, Playwright).

A guest plays the first deal of a two-deal Belote match against three bots by clicking. When
the deal is over the table shows its breakdown and the four hands as played: exactly the
cards of the deal's public record, each under the seat that played it, none of them marked
as a card of the table (`data-card`: the next deal is being dealt). Closing it leaves the
next deal. While it is her turn, and only then, the tab's title says so. Her cards move
("normal") from her last card on (still before, as in every browser test, so that the deal
takes seconds, not a second per trick): the deal's last trick, which the view read next no
longer holds, is held on the felt as the panel opens: the record's last trick.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from web_support import SEATS, browser, guest_against_bots, new_page, shot  # noqa: F401

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

PREFERRED = ("take", "bid", "name", "declare")       # a deal taken rather than thrown in


async def test_the_deal_over_panel_shows_the_record_s_breakdown_and_hands(web_system, browser):
    errors: list[str] = []
    page = await new_page(browser, errors)
    match_id = await guest_against_bots(page, web_system.base, "Dee", 2)
    await page.click("#settings-panel summary")
    moving = False

    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    titles: set[str] = set()
    while not await page.locator("#deal-summary:not([hidden])").count():
        assert loop.time() < deadline, "the deal never ended on the page"
        now = await page.evaluate("({ mine: document.body.dataset.myTurn, title: document.title, "
                                  "version: document.body.dataset.version })")
        titles.add(now["title"] if now["mine"] == "true" else f"not mine: {now['title']}")
        if now["mine"] == "true":
            if not moving and await page.locator("#table .seat-bottom .hand .card").count() == 1:
                await page.select_option("#setting-motion", "normal")      # her last card: the last trick moves
                moving = True
            try:
                cards = page.locator("#table .card.legal")
                if await cards.count():
                    await cards.first.click(timeout=2000)
                else:
                    sent = await page.locator("#actions [data-action]").evaluate_all("els => els.map(e => e.dataset.action)")
                    best = next((a for a in sent if json.loads(a)["action"] in PREFERRED), sent[0] if sent else None)
                    if best:
                        await page.locator(f"#actions [data-action='{best}']").click(timeout=2000)
                # one action per view: the next once the page has read the table again, whose
                # title is read at once (the bots answer within a moment: then it is not her turn)
                after = await (await page.wait_for_function(
                    f"(document.body.dataset.version !== '{now['version']}' || !document.getElementById('deal-summary').hidden)"
                    " && ({ mine: document.body.dataset.myTurn, title: document.title })", timeout=10_000)).json_value()
                titles.add(after["title"] if after["mine"] == "true" else f"not mine: {after['title']}")
            except Exception:  # noqa: BLE001 - redrawn under the click: read the page again
                pass
        await asyncio.sleep(0.05)

    assert moving, "she never held her last card"
    assert titles >= {"● Your turn — Atout", "not mine: Atout"}, titles      # the tab says whose turn it is
    assert all(x.startswith("● ") for x in titles if not x.startswith("not mine")), titles
    felt = await page.evaluate("""() => ({ held: document.body.dataset.trickHeld,
      trick: [...document.querySelectorAll('#trick [data-card]')].map(e => e.dataset.card) })""")
    token = await page.evaluate("JSON.parse(localStorage.getItem('atout.session')).token")
    async with httpx.AsyncClient(base_url=web_system.base, timeout=30) as http:
        record = (await http.get(f"/v1/matches/{match_id}/record", headers={"Authorization": f"Bearer {token}"})).json()
    deal = record["deals"][0]
    played: dict[str, list[str]] = {s: [] for s in SEATS}
    for a in deal["actions"]:
        if a["action"] == "play":
            played[a["seat"]].append(a["card"])
    cards = [a["card"] for a in deal["actions"] if a["action"] == "play"]
    assert felt["held"] == "true" and sorted(felt["trick"]) == sorted(cards[-4:]), felt
    await shot(page, "deal-summary")
    summary = page.locator("#deal-summary")
    assert await summary.locator("[data-card]").count() == 0
    for seat in SEATS:
        shown = await summary.locator(f".deal-hand[data-seat={seat}] [data-played]").evaluate_all(
            "els => els.map(e => e.dataset.played)")
        assert sorted(shown) == sorted(played[seat]), (seat, shown, played[seat])
    assert await summary.locator(".deal-breakdown td").count() == 8     # four rows, two sides
    await page.click("#deal-summary-close")
    await page.wait_for_selector("#deal-summary", state="hidden")
    assert not errors, errors
