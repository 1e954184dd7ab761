"""The player's browser checks its own seat's entropy in the match record (headless Chromium).

Nothing published binds a seat's entropy before the record, so a record with the seat's words
swapped, every deck recomputed and other actions played verifies everywhere — except at that
seat, which kept its words in the page's storage. The table says which: `#my-entropy` is
`matches` for the real record, `differs` (naming the deal) for the forged one, and `unknown`
in a browser that gave no words for the match.
"""

from __future__ import annotations

import json

import httpx
import pytest
from web_support import browser, guest_against_bots, new_page, shot, web_pool, web_svc  # noqa: F401

from tests.e2e.test_web_fair import _play_to_the_end
from tests.fair_tampering import forge_entropy


@pytest.mark.db
@pytest.mark.redis
@pytest.mark.slow
async def test_the_table_compares_my_seats_entropy_with_the_record(web_system, browser) -> None:  # noqa: F811
    base = web_system.base
    errors: list[str] = []
    page = await new_page(browser, errors)
    match_id = await guest_against_bots(page, base, "Maud", 1)
    await _play_to_the_end(page, 1)

    await page.wait_for_selector("#my-entropy[data-state=matches]:not([hidden])", timeout=30_000)
    assert await page.inner_text("#my-entropy") == "✓ your entropy: 1 deal used the words this browser gave"
    await shot(page, "43-my-entropy-matches")

    session = await page.evaluate("JSON.parse(localStorage.getItem('atout.session'))")
    record = httpx.get(f"{base}/v1/matches/{match_id}/record",
                       headers={"Authorization": f"Bearer {session['token']}"}).raise_for_status().json()
    forged = forge_entropy(record, "S", "words the server chose")

    async def serve_forged(route):
        await route.fulfill(status=200, content_type="application/json", body=json.dumps(forged))

    await page.route(f"**/v1/matches/{match_id}/record", serve_forged)
    await page.reload()
    await page.wait_for_selector("#my-entropy[data-state=differs]", timeout=30_000)
    text = await page.inner_text("#my-entropy")
    assert text.startswith("✗ YOUR ENTROPY WAS REPLACED — deal 1:"), text
    await shot(page, "44-my-entropy-differs")

    await page.evaluate("localStorage.setItem('atout.locale', 'fr')")   # the same verdict, in French
    await page.reload()
    await page.wait_for_selector("#my-entropy[data-state=differs]", timeout=30_000)
    assert (await page.inner_text("#my-entropy")).startswith("✗ VOTRE ENTROPIE A ÉTÉ REMPLACÉE — donne 1")
    await page.unroute(f"**/v1/matches/{match_id}/record")

    await page.evaluate("localStorage.removeItem('atout.entropy')")     # as on another device
    await page.reload()
    await page.wait_for_selector("#my-entropy[data-state=unknown]", timeout=30_000)
    assert "ce navigateur n'en a donné aucune" in await page.inner_text("#my-entropy")
    assert not errors, errors
