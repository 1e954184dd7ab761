"""The review of a deal in the browser: after a deal against bots, the table links to its
review; the review shows each seat's accuracy, the four hands as played with each card's
cost — the same figures the API serves — and the contract table, in the player's language.

The server runs its reviewing worker beside the bots' (`web_system`, as `make run` does),
so the review the page shows is the one the workers computed after the deal.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from test_web_phone import DESKTOP, axe_check, context_page, sign_in, snap
from web_support import browser, finished_deal, fresh_artifacts, web_pool, web_svc  # noqa: F401

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture(scope="module")
def shots():
    return fresh_artifacts("web-review")


async def analysis(base: str, token: str, match_id: str) -> dict:
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30) as http:
        for _ in range(240):
            body = (await http.get(f"/v1/matches/{match_id}/deals/0/analysis")).json()
            if body["status"] != "pending":
                return body
            await asyncio.sleep(0.5)
    raise AssertionError("the deal was never reviewed")


async def test_a_finished_deal_links_to_its_review_in_french(web_system, web_svc, browser, shots) -> None:
    errors: list[str] = []
    page = await context_page(browser, errors, "fr-FR", DESKTOP)
    session = await sign_in(page, web_system.base, "Margaux")
    match_id = await finished_deal(web_system.base, web_svc, session)
    served = await analysis(web_system.base, session["token"], match_id)
    assert served["status"] == "ready", served
    cards = served["review"]["cards"]

    await page.goto(f"{web_system.base}/#/match/{match_id}")
    await page.click("#scores a.review-link")
    await page.wait_for_url(f"**/#/replay/{match_id}/0")
    await page.wait_for_selector("#replay-review table.review-accuracy")
    assert "Analyse de la donne" in await page.inner_text("#replay-review h2")
    assert await page.locator("#replay-review table.review-accuracy tbody tr").count() == len(served["review"]["accuracy"])
    shown = await page.eval_on_selector_all(
        "#replay-review .review-hand li", "els => els.map(e => [e.closest('.review-hand').dataset.seat, "
        "e.querySelector('[data-card]').dataset.card, Number(e.dataset.cost)])")
    assert sorted(shown) == sorted([c["seat"], c["card"], c["cost"]] for c in cards)
    if any(c["cost"] > 0 for c in cards):
        assert "face à la vraie donne" in await page.inner_text("#replay-review")
    await page.click("#replay-next")                       # the first trick's cards are marked in the hands
    await page.wait_for_selector("#replay-review li.now")
    assert await page.locator("#replay-review li.now").count() == 4
    assert await page.locator("#replay-review table.review-contracts tbody tr").count() == \
        len(served["review"]["contract_table"])
    await snap(page, shots, "review-fr")
    await axe_check(page, "review")
    assert not errors, json.dumps(errors)
