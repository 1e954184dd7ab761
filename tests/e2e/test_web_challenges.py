"""A partnership challenged from the web client (headless Chromium, Playwright).

A host at a desktop in French makes a private table from the lobby with the east-west side
open (his partner a bot). The table's invitation panel offers to challenge a partnership while
a side has both its seats free: a player id that names nobody is refused in his words, then
two players are challenged to that side. One reads it in his invitations on a phone in
Polish (from whom, with which partner, at which seat) and accepts, and the panel stops offering the challenge (no side is free); the other accepts
through the API, and the match starts with the pair at E and W. axe-core finds no serious or
critical violation on the panel and the invitation received.

Screenshots: test-artifacts/web-challenges/.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest
from test_web_phone import DESKTOP, PHONE, axe_check, context_page, sign_in, snap
from web_support import browser, fresh_artifacts, web_pool, web_svc  # noqa: F401

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]



@pytest.fixture(scope="module")
def shots():
    return fresh_artifacts("web-challenges")


async def test_a_host_challenges_a_partnership_and_both_sit_down(web_system, web_svc, browser, shots):
    errors: list[str] = []
    host = await context_page(browser, errors, "fr-FR", DESKTOP)
    await sign_in(host, web_system.base, "Hôte")
    await host.select_option("#create-game", "belote")
    await host.fill("#create-deals", "1")
    for seat in ("E", "W"):
        await host.select_option(f"select[data-seat={seat}]", "open")
    await host.check("#create-private")
    await host.click("#create-go")
    await host.wait_for_url("**/#/match/*")
    match_id = host.url.rsplit("/match/", 1)[1]
    await host.wait_for_selector("#invite-panel:not([hidden]) #pair-form:not([hidden])")
    assert await host.inner_text("#pair-form legend") == "Défier une équipe"

    guest_errors: list[str] = []
    guest = await context_page(browser, guest_errors, "pl-PL", PHONE)
    janek = await sign_in(guest, web_system.base, "Janek")
    async with httpx.AsyncClient(base_url=web_system.base) as http:
        zosia = (await http.post("/v1/players", json={"name": "Zosia"})).json()

    # a player id that names nobody: refused, in the host's words, and nothing sent
    await host.fill("#pair-first", janek["player_id"])
    await host.fill("#pair-second", "nobody-at-all")
    await host.click("#pair-go")
    await host.wait_for_selector("#message[data-kind=error]:has-text('unknown_player')")
    refused = [e for e in errors if "404" in e]        # the response, and the browser's console saying so
    assert errors == refused and len(refused) == 2 and any(e.startswith("404 POST") and "/challenges" in e
                                                           for e in refused), errors
    errors.clear()

    await host.fill("#pair-second", zosia["player_id"])
    await host.click("#pair-go")
    await host.wait_for_selector("#message[data-kind=info]:has-text('Janek et Zosia sont défiés')")
    await axe_check(host, "the invitation panel")
    await snap(host, shots, "01-pair-challenged")

    await guest.evaluate("location.hash = '#/invitations'")
    accept = "#screen-invitations:not([hidden]) #invitations-received li[data-status=pending] button.accept"
    await guest.wait_for_selector(accept)
    said = await guest.inner_text("#invitations-received li[data-status=pending]")
    assert "Hôte wyzywa cię: Belot, w parze z graczem Zosia, twoje miejsce: Wschód" in said, said
    await axe_check(guest, "a challenge received")
    await snap(guest, shots, "02-challenge-received")
    await guest.click(accept)
    await guest.wait_for_url(f"**/#/match/{match_id}")
    await guest.wait_for_selector("body[data-seat=E]")
    await host.wait_for_selector("#invite-panel:not([hidden]) #pair-form", state="hidden")   # no side is free now

    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {zosia['token']}"}) as http:
        for _ in range(75):            # the invitations' read model follows within moments
            received = (await http.get("/v1/invitations", params={"role": "received", "status": "pending"})).json()
            pending = [i for i in received if i["match_id"] == match_id]
            if pending:
                break
            await asyncio.sleep(0.2)
        assert len(pending) == 1 and pending[0]["kind"] == "challenge", received
        answered = await http.post(f"/v1/invitations/{pending[0]['invitation_id']}/accept", json={})
        assert answered.status_code == 200, answered.text
    await host.wait_for_selector("body[data-status=playing]")
    state = await web_svc.load(match_id)
    assert (state.seats["E"].player_id, state.seats["W"].player_id) == (janek["player_id"], zosia["player_id"])
    assert not errors and not guest_errors, errors + guest_errors
