"""The web client in a real browser (headless Debian Chromium, driven by Playwright).

A guest signs in, creates a one-deal Belote match against three bots (the bots are played
by a real `atout worker`, as on `make run`) and plays the whole deal by clicking the
highlighted cards and the auction's buttons, following the table over the WebSocket (and
reconnecting by itself after the socket is dropped). A second browser context watches as a
spectator: at every turn, every card code in either page's DOM is checked against the true
hands in the store: no page ever shows a card still hidden in another seat's hand. The
guest then files a dispute. An admin steps through a disputed deal on `/admin`, as the table
and as one seat, and rules on one: each of those tests has a deal of its own
(`web_support.disputed_deal`), so each runs alone. Screenshots of each screen go to `test-artifacts/web/`.
"""

from __future__ import annotations

import time

import httpx
import pytest
from web_support import browser, card_codes, disputed_deal, new_page, shot, truth, web_pool, web_svc  # noqa: F401

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


async def _no_hidden_card(page, svc, match_id: str, seat: str | None, where: str) -> None:
    shown = set(await card_codes(page))     # the DOM first, then the store: hands only shrink in play
    hands, public, _ = await truth(svc, match_id)
    hidden = set().union(*(cards for s, cards in hands.items() if s != seat)) - public
    leaked = shown & hidden
    assert not leaked, f"{where}: the page shows {sorted(leaked)}, still hidden in other hands {hands}"


async def test_a_guest_plays_a_belote_deal_against_bots_and_a_spectator_sees_no_hidden_card(web_system, web_svc,
                                                                                           browser):
    started = time.monotonic()
    base = web_system.base
    errors: list[str] = []
    page = await new_page(browser, errors)
    await page.goto(f"{base}/")
    await page.wait_for_selector("#screen-signin:not([hidden])")
    await shot(page, "01-sign-in")
    await page.fill("#signin-name", "Ada")
    await page.click("#signin-go")
    await page.wait_for_selector("#screen-lobby:not([hidden])")
    session = await page.evaluate("JSON.parse(localStorage.getItem('atout.session'))")
    assert session["token"].startswith("atk_") and session["name"] == "Ada"

    await page.select_option("#create-game", "belote")
    await page.select_option("#create-variant", "classic")
    await page.fill("#create-deals", "1")
    for seat in "NEW":
        await page.select_option(f"select[data-seat={seat}]", "bot:basic")
    await page.select_option("select[data-seat=S]", "me")
    await shot(page, "02-lobby")
    await page.click("#create-go")
    await page.wait_for_url("**/#/match/*")
    match_id = page.url.rsplit("/match/", 1)[1]
    await page.wait_for_selector("body[data-seat=S]")

    watcher_errors: list[str] = []
    watcher = await new_page(browser, watcher_errors)
    await watcher.goto(f"{base}/#/match/{match_id}")
    await watcher.fill("#signin-name", "Watcher")
    await watcher.click("#signin-go")
    await watcher.wait_for_selector("body[data-seat=spectator]")
    assert await watcher.locator("#table .seat-bottom .hand .card.back").count() >= 0

    turns, dropped, shots = 0, False, set()
    while True:
        await page.wait_for_function(
            "document.body.dataset.myTurn === 'true' || document.body.dataset.status === 'finished'", timeout=30_000)
        await _no_hidden_card(watcher, web_svc, match_id, None, "spectator")
        await _no_hidden_card(page, web_svc, match_id, "S", "player")
        if await page.get_attribute("body", "data-status") == "finished":
            break
        version = await page.get_attribute("body", "data-version")
        legal = page.locator("#table .seat-bottom .card.legal")
        if await legal.count():
            if "play" not in shots:
                await shot(page, "04-table-play")
                await shot(watcher, "05-spectator")
                shots.add("play")
            codes = await legal.evaluate_all("els => els.map(e => e.dataset.card)")
            view = await page.evaluate("window.atout.state.view")
            assert set(codes) == {a["card"] for a in view["table"]["legal"] if a["action"] == "play"}
            await legal.first.click()
        else:
            if "auction" not in shots:
                await shot(page, "03-table-auction")
                shots.add("auction")
            buttons = page.locator("#actions button")
            assert await buttons.count(), "my turn, but neither a legal card nor an action to take"
            preferred = page.locator("#actions button.action-take, #actions button.action-name")
            await (preferred.first if await preferred.count() else buttons.first).click()
        turns += 1
        await page.wait_for_function(
            f"document.body.dataset.version !== '{version}' || document.body.dataset.status === 'finished'",
            timeout=30_000)
        if turns == 3 and not dropped:       # the socket drops: the page reconnects by itself with after=
            connects = int(await page.get_attribute("body", "data-connects"))
            await page.evaluate("window.atout.dropSocket()")
            await page.wait_for_function(f"Number(document.body.dataset.connects) > {connects}", timeout=15_000)
            dropped = True

    hands, _, state = await truth(web_svc, match_id)
    assert state.status == "finished", state.status
    assert dropped and turns >= 8, (dropped, turns)  # at least the eight cards of S
    await watcher.wait_for_selector("#status[data-status=finished]")
    await page.wait_for_selector("#status[data-status=finished]")
    await page.wait_for_selector("#conn[data-state=done]")
    await shot(page, "06-match-over")
    await shot(watcher, "07-spectator-match-over")
    score = await page.locator("#scores").inner_text()
    assert "NS" in score and "EW" in score

    # the guest disputes the deal from the page
    await page.fill("#dispute-deal", "1")                  # deals counted from 1, as the score sheet counts them
    await page.fill("#dispute-reason", "W revoked at trick 3, I think")
    await page.click("#dispute-form button")
    await page.wait_for_function("document.getElementById('message').textContent.startsWith('dispute filed')")
    assert not errors and not watcher_errors, errors + watcher_errors

    # "Play again": a new match with the same seat holders, which starts at once (all seated)
    await page.click("#rematch")
    await page.wait_for_function(f"location.hash.startsWith('#/match/') && !location.hash.endsWith('{match_id}')")
    again = page.url.rsplit("/match/", 1)[1]
    await page.wait_for_selector("body[data-seat=S]")
    rematched = await web_svc.load(again)
    assert rematched.seats["S"].player_id == session["player_id"]
    assert [rematched.seats[s].kind for s in "NEW"] == ["bot"] * 3 and rematched.status == "playing"

    # the lobby names the players at an open table
    async with httpx.AsyncClient(base_url=base) as http:
        bob = (await http.post("/v1/players", json={"name": "Bob"})).json()
        bobs = (await http.post("/v1/matches", headers={"Authorization": f"Bearer {bob['token']}"},
                                json={"game": "cinch", "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}}))
    await page.goto(f"{base}/#/")
    await page.wait_for_selector(f"li[data-match='{bobs.json()['match_id']}']:has-text('N: Bob')")
    assert not errors, errors
    assert time.monotonic() - started < 120


async def test_an_admin_steps_through_the_disputed_deal(web_system, web_svc, browser):
    match_id = await disputed_deal(web_system.base, web_svc)
    token = web_system.admin_token("referee")
    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {token}"}) as http:
        table = (await http.get(f"/v1/admin/matches/{match_id}/deals/0/replay")).json()
        east = (await http.get(f"/v1/admin/matches/{match_id}/deals/0/replay?seat=E")).json()
    errors: list[str] = []
    page = await new_page(browser, errors)
    await page.goto(f"{web_system.base}/admin")
    await page.fill("#admin-token", token)
    await page.click("#admin-token-form button")
    item = page.locator(f"#queue li:has-text('{match_id}')")
    await item.locator("button").click()
    await page.wait_for_selector(f"body[data-replay='{match_id}:0:table']")
    assert await page.locator("#step-counter").inner_text() == f"step 1 / {len(table['steps'])}"

    # step forward to the first step where every seat holds cards: the page shows exactly the store's hands
    target = next(i for i, s in enumerate(table["steps"]) if all(s["hands"][x] for x in "NESW") and
                  s["view"].get("phase") == "play")
    for _ in range(target):
        await page.click("#step-next")
    await page.wait_for_selector(f"body[data-step='{target}']")
    for seat in "NESW":
        shown = await page.eval_on_selector_all(f".hand[data-seat={seat}] [data-card]", "els => els.map(e => e.dataset.card)")
        assert sorted(shown) == sorted(table["steps"][target]["hands"][seat]), seat
    await shot(page, "08-admin-replay-table")

    # as E: only E's cards, and what the table saw
    await page.select_option("#replay-seat", "E")
    await page.wait_for_selector(f"body[data-replay='{match_id}:0:E']")
    await page.wait_for_selector(f"body[data-step='{target}']")
    shown = set(await page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    others = set().union(*(table["steps"][target]["hands"][s] for s in "NSW"))
    assert not shown & others, sorted(shown & others)
    assert set(east["steps"][target]["view"]["hand"]) <= shown
    await shot(page, "09-admin-replay-as-east")
    await page.click("#step-last")
    await page.wait_for_selector(f"body[data-step='{len(table['steps']) - 1}']")
    assert not errors, errors


async def test_an_admin_rules_on_the_dispute_from_the_page(web_system, web_svc, browser):
    """The admin adjusts the disputed deal's score from the replay page; the dispute is resolved,
    the ruling is listed, and the match score shown is the one the API answers."""
    match_id = await disputed_deal(web_system.base, web_svc)
    token = web_system.admin_token("judge")
    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {token}"}) as http:
        before = (await http.get(f"/v1/matches/{match_id}")).json()["table"]["match_score"]
    errors: list[str] = []
    page = await new_page(browser, errors)
    await page.goto(f"{web_system.base}/admin")
    await page.fill("#admin-token", token)
    await page.click("#admin-token-form button")
    await page.select_option("#queue-status", "all")
    item = page.locator(f"#queue li:has-text('{match_id}')")
    await item.locator("button").click()
    await page.wait_for_selector("#ruling-form")
    await page.select_option("#ruling-kind", "adjust")
    await page.fill("#ruling-scores input[data-side=NS]", "20")
    await page.fill("#ruling-scores input[data-side=EW]", "-20")
    await page.fill("#ruling-reason", "W revoked at trick 3")
    await page.click("#ruling-go")
    await page.wait_for_selector("body[data-ruled=resolved]")
    await page.wait_for_selector("#ruling-done")
    assert "resolved" in await page.locator("#ruling-done").inner_text()
    ruled = await page.locator("#ruling-list").inner_text()
    assert "adjust" in ruled and "NS +20" in ruled and "EW -20" in ruled, ruled
    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {token}"}) as http:
        after = (await http.get(f"/v1/matches/{match_id}")).json()["table"]["match_score"]
        disputes = (await http.get("/v1/admin/disputes?status=resolved")).json()
    assert after == {"NS": before["NS"] + 20, "EW": before["EW"] - 20}, (before, after)
    assert await page.locator("#ruling-score").inner_text() == f"NS {after['NS']} · EW {after['EW']}"
    assert any(d["match_id"] == match_id for d in disputes)
    await shot(page, "11-admin-ruling")
    assert not errors, errors
