"""The web client in a player's hand and in his language (headless Chromium, Playwright).

The session's system and browser. A guest on a phone (390×844, `ru-RU`) plays one
deal of each of classic Belote, Sans Atout, Coinche, Cinch (in partnership and each for
himself) and Five Hundred by tapping,
created from the lobby's controls; at every turn the layout holds (`web_support.laid_out`:
nothing off the screen, no two controls overlapping), every
control and playable card is at least 44 px, the cards are written as Russian players write
them (В Д К Т), the log speaks Russian and the trump is shown large once known. A guest at
a desktop in French plays a deal, switches to Polish (kept on his account: another browser
of his opens in Polish), and replays the deal. The phone guest follows a tournament live to
its end, registers in another, and sees the account stream's notices. axe-core (through
axe-playwright-python) finds no serious or critical violation on any screen.

Screenshots of each screen at phone size: test-artifacts/web-phone/ (docs/web-client.md).
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_games import click_action, legal_of, looked_at, play_match
from web_support import (  # noqa: F401
    ARTIFACTS,
    axe_check,
    browser,
    finished_deal,
    fresh_artifacts,
    laid_out,
    still_cards,
    web_pool,
    web_svc,
)

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}
RU_RANKS = {"J": "В", "Q": "Д", "K": "К", "A": "Т", "T": "10"}
FR_RANKS = {"J": "V", "Q": "D", "K": "R", "A": "A"}
PL_RANKS = {"J": "W", "Q": "D", "K": "K", "A": "A"}

GEOMETRY = """() => {
  const small = [...document.querySelectorAll('#actions button, #actions select, #table button.card, header button, header select, nav a')]
    .filter(e => e.offsetParent !== null)
    .map(e => { const r = e.getBoundingClientRect(); return {what: e.id || e.className || e.tagName, w: r.width, h: r.height}; })
    .filter(r => r.w < 43.5 || r.h < 43.5);
  return {wide: document.scrollingElement.scrollWidth, inner: window.innerWidth, small};
}"""


@pytest.fixture(scope="module")
async def phone(web_system, browser, shots) -> dict[str, Any]:
    """The phone guest, signed in in Russian (his sign-in and lobby checked as he goes): one
    page for the module's phone tests, whichever of them runs, alone or with the others;
    `matches`, the matches he has played so far."""
    errors: list[str] = []
    page = await context_page(browser, errors, "ru-RU", PHONE)
    await page.goto(f"{web_system.base}/")
    await page.wait_for_selector("#screen-signin:not([hidden])")
    assert await page.get_attribute("html", "lang") == "ru"
    assert await page.inner_text("#signin-go") == "Играть гостем"
    await fits(page, "sign-in")
    await snap(page, shots, "01-sign-in")
    await axe_check(page, "sign-in")
    session = await sign_in(page, web_system.base, "Ваня")
    await fits(page, "lobby")
    await snap(page, shots, "02-lobby")
    await axe_check(page, "lobby")
    return {"page": page, "errors": errors, "session": session, "matches": []}


@pytest.fixture(scope="module")
def shots():
    return fresh_artifacts("web-phone")


async def context_page(browser, errors: list[str], locale: str, device: dict[str, Any]):
    context = await still_cards(await browser.new_context(locale=locale, **device))
    page = await context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.request.method} {r.url}") if r.status >= 400 else None)
    page.set_default_timeout(30_000)
    return page


async def snap(page, shots: Path, name: str) -> None:
    await page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


# Where the bottom of each thing a player follows is, the page scrolled to its top.
ONE_SCREEN = """() => {
  window.scrollTo(0, 0);
  const parts = {hand: '.seat-bottom .hand', trick: '#trick', contract: '#glance-contract', score: '#glance-score',
                 turn: '#glance-turn'};
  const bottom = (sel) => { const e = document.querySelector(sel); return e ? Math.round(e.getBoundingClientRect().bottom) : null; };
  return {parts: Object.fromEntries(Object.entries(parts).map(([k, sel]) => [k, bottom(sel)])), height: innerHeight};
}"""
SMALL_PHONE = {"width": 360, "height": 740}


async def one_screen(page, where: str, shots=None) -> None:
    """The hand, the trick, the contract, the score and whose turn on the first screen, at
    390×844 and at 360×740."""
    for size in (PHONE["viewport"], SMALL_PHONE):
        await page.set_viewport_size(size)
        g = await page.evaluate(ONE_SCREEN)
        if not all(v is not None and 0 < v <= g["height"] for v in g["parts"].values()):
            await page.screenshot(path=str(ARTIFACTS / f"one-screen-{where.replace(' ', '-')}-{size['width']}.png"),
                                  full_page=True)
        assert all(v is not None and 0 < v <= g["height"] for v in g["parts"].values()), f"{where} at {size}: {g}"
        if shots is not None and size == SMALL_PHONE:
            await page.screenshot(path=str(shots / f"{where.split(' ')[0]}-360.png"))
    await page.set_viewport_size(PHONE["viewport"])


async def fits(page, where: str) -> None:
    await laid_out(page, where)
    g = await page.evaluate(GEOMETRY)
    assert g["wide"] <= g["inner"], f"{where}: {g['wide']} px wide on a {g['inner']} px screen"
    assert not g["small"], f"{where}: tap targets under 44 px: {g['small']}"


async def sign_in(page, base: str, name: str) -> dict[str, Any]:
    await page.goto(f"{base}/")
    await page.wait_for_selector("#screen-signin:not([hidden])")
    await page.fill("#signin-name", name)
    await page.click("#signin-go")
    await page.wait_for_selector("#screen-lobby:not([hidden])")
    return await page.evaluate("JSON.parse(localStorage.getItem('atout.session'))")


async def create_from_lobby(page, game: str, variant: str | None = None, deals: int = 1) -> str:
    """The match made with the lobby's controls; a Coinche under the official rules, where a
    coinche comes only in turn (under the house rules S may coinche while a bot acts, and
    either's action may find the table moved on: a 409 the page would log). A Cinch variant
    is its mode (`individual`: each for himself)."""
    await page.evaluate("location.hash = '#/'")
    await page.wait_for_selector("#screen-lobby:not([hidden])")
    await page.select_option("#create-game", game)
    if game == "cinch" and variant:
        await page.select_option("#create-mode", variant)
    elif variant:
        await page.select_option("#create-variant", variant)
        await page.select_option("#create-rules", "official" if variant == "coinche" else "house")
    await page.fill("#create-deals", str(deals))
    await page.click("#create-go")
    await page.wait_for_url("**/#/match/*")
    match_id = page.url.rsplit("/match/", 1)[1]
    await page.wait_for_selector("body[data-seat=S]")
    return match_id


async def choose(page, view: dict[str, Any]) -> None:
    """Any decision that is neither a card nor a choice of cards: take, name a suit, the lowest
    bid when nobody has bid yet, else pass."""
    legal, table = legal_of(view), view["table"]
    calls = table.get("calls") or table.get("auction") or [c for c in table.get("bids") or [] if c[1] is not None]
    for wanted in ("take", "name", "trump"):
        found = [a for a in legal if a["action"] == wanted]
        if found:
            return await click_action(page, found[0])
    bids = [a for a in legal if a["action"] == "bid"]
    someone_bid = any((c.get("action") == "bid") if isinstance(c, dict) else True for c in calls)
    if bids and not someone_bid:
        return await click_action(page, bids[0])
    if {"action": "pass"} in legal:
        return await click_action(page, {"action": "pass"})
    await click_action(page, legal[0])


async def in_words(page, ranks: dict[str, str], where: str) -> None:
    """My hand written as this language's players write it, and the log in words."""
    faces = await page.eval_on_selector_all("#table .seat-bottom [data-card]",
                                            "els => els.map(e => [e.dataset.card, e.querySelector('.rank').textContent])")
    for code, rank in faces:
        if code != "JK" and code[0] in ranks:
            assert rank == ranks[code[0]], (where, code, rank)
    log = await page.inner_text("#log")
    assert "_" not in log and "action" not in log, (where, log)


@pytest.mark.parametrize("game, variant", [("belote", "classic"), ("belote", "sans_atout"), ("belote", "coinche"),
                                           ("cinch", None), ("cinch", "individual"), ("five_hundred", None)])
async def test_a_deal_of_each_game_by_tapping_on_a_phone_in_russian(web_system, web_svc, phone, shots, game, variant):
    started = time.monotonic()
    page, errors = phone["page"], phone["errors"]
    name = f"{game}-{variant}" if variant else game
    match_id = await create_from_lobby(page, game, variant)
    if game == "cinch" and variant:                  # each for himself: four scores, not two sides
        assert (await web_svc.load(match_id)).raw_options.get("mode") == "individual"
    seen = {"turns": 0, "trump": False}

    async def on_turn(view):
        where = f"{name} v{view['version']}"
        await fits(page, where)
        await in_words(page, RU_RANKS, where)
        if view["table"].get("contract"):
            assert await page.locator("#glance .trump-big").count() == 1, where
            seen["trump"] = True
        if variant == "classic" and view["table"]["phase"] == "play" and not seen.get("chat"):
            # during play a seat says only presets, in the reader's language; no free text
            assert await page.locator("#chat-form").is_hidden()
            await page.click("#chat-presets button[data-preset=good_luck]")
            await page.wait_for_selector("#chat-log li[data-preset=good_luck]:has-text('Удачи!')")
            seen["chat"] = True
        if seen["turns"] == 0 or (view["table"]["phase"] == "play" and not seen.get("play")):
            await snap(page, shots, f"10-{name}-{view['table']['phase']}")
            await axe_check(page, where)
            if view["table"]["phase"] == "play":
                await one_screen(page, where, shots)
            seen["play"] = view["table"]["phase"] == "play"
        seen["turns"] += 1

    done = await play_match(page, web_svc, match_id, choose, on_turn)
    await page.wait_for_selector("#status[data-status=finished]")
    assert done["cards"] >= 1 and seen["turns"], (done, seen)
    assert seen.get("chat") or variant != "classic", seen
    status = await page.inner_text("#status")
    assert "Партия окончена" in status, status
    log = await page.inner_text("#log")
    assert any(word in log for word in ("берёт взятку", "Раздача")), log
    await snap(page, shots, f"11-{name}-over")
    await axe_check(page, f"{name} over")
    await page.click("#last-trick")
    await page.wait_for_selector("#last-trick-box:not([hidden]) [data-card]")
    assert not errors, errors
    phone["matches"].append(match_id)
    assert time.monotonic() - started < 60


async def test_a_desktop_deal_in_french_then_polish_kept_on_the_account(web_system, web_svc, browser, shots):
    errors: list[str] = []
    page = await context_page(browser, errors, "fr-FR", DESKTOP)
    await page.goto(f"{web_system.base}/")
    await page.wait_for_selector("#screen-signin:not([hidden])")
    assert await page.inner_text("#signin-go") == "Jouer en invité"
    session = await sign_in(page, web_system.base, "Aimé")
    assert await page.inner_text("#create-go") == "Créer et s'asseoir"
    match_id = await create_from_lobby(page, "belote", "classic")

    keyboard: dict[str, Any] = {}
    phases: set[str] = set()

    async def on_turn(view):
        await looked_at(page, view, phases, "desktop-classic-fr")
        await in_words(page, FR_RANKS, f"fr v{view['version']}")
        status = await page.inner_text("#status")
        assert "À vous" in status, status
        await page.wait_for_function("document.getElementById('announce').textContent.startsWith('À vous')")
        playable = page.locator("#table .seat-bottom button.card")
        if not keyboard and await playable.count() >= 2:     # one Tab stop for the hand, the arrows within it
            await page.focus("#table .seat-bottom button.card[tabindex='0']")
            first = await page.evaluate("document.activeElement.dataset.card")
            await page.keyboard.press("ArrowRight")
            keyboard.update(await page.evaluate("({card: document.activeElement.dataset.card, "
                                                "name: document.activeElement.getAttribute('aria-label'), "
                                                "stops: document.querySelectorAll('#table .seat-bottom button.card[tabindex=\"0\"]').length})"))
            assert keyboard["card"] != first and keyboard["stops"] == 1, keyboard
            assert " de " in keyboard["name"], keyboard                # "dame de pique"

    await play_match(page, web_svc, match_id, choose, on_turn)
    await page.wait_for_selector("#status[data-status=finished]")
    await looked_at(page, None, phases, "desktop-classic-fr")
    assert keyboard, "the hand was never walked with the keyboard"
    assert "Partie finie" in await page.inner_text("#status")
    # the score sheet has a row per finished deal (drawn from the deal's event, which may
    # reach the page a moment after the view that says the match is over)
    await page.wait_for_selector("#score-sheet tbody tr[data-deal='0']", timeout=10_000)

    # the switch: the page speaks Polish at once, and the account keeps it
    menu = await page.eval_on_selector_all("#lang option", "els => els.map(e => [e.value, e.lang, e.textContent])")
    assert menu == [["en", "en", "English"], ["fr", "fr", "Français"], ["ru", "ru", "Русский"], ["pl", "pl", "Polski"]]
    await page.select_option("#lang", "pl")
    await page.wait_for_function("document.documentElement.lang === 'pl'")
    assert "Koniec partii" in await page.inner_text("#status")
    assert await page.inner_text("nav a[data-nav=lobby]") == "Sala"
    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {session['token']}"}) as http:
        for _ in range(50):
            me = (await http.get("/v1/players/me")).json()
            if me["locale"] == "pl":
                break
            await asyncio.sleep(0.05)
    assert me["locale"] == "pl", me
    await page.reload()
    await page.wait_for_selector("body[data-ready=true]")
    assert await page.get_attribute("html", "lang") == "pl"

    # another browser of his (English-speaking, nothing chosen in it) opens in Polish
    other = await context_page(browser, errors, "en-US", DESKTOP)
    await other.add_init_script(f"localStorage.setItem('atout.session', {json.dumps(json.dumps(session))})")
    await other.goto(f"{web_system.base}/#/replay/{match_id}")
    await other.wait_for_function("document.documentElement.lang === 'pl'")
    await other.wait_for_selector("#replay-deal option", state="attached")
    assert "Powtórka" in await other.inner_text("#screen-replay h1")
    await other.click("#replay-next")
    await other.wait_for_selector("#replay-trick [data-card]")
    faces = await other.eval_on_selector_all("#replay-trick [data-card]",
                                             "els => els.map(e => [e.dataset.card, e.querySelector('.rank').textContent])")
    assert len(faces) == 4 and all(rank == PL_RANKS.get(code[0], rank) for code, rank in faces if code != "JK"), faces
    assert "lewa 1 z 8" in await other.inner_text("#replay-step")
    assert not errors, errors


async def test_screens_around_the_tables_on_the_phone(web_system, web_svc, phone, shots):
    """Tournaments (followed live to the end, and a registration), leaderboards, my profile and
    replay, the account stream's notices: each screen fits the phone and passes axe."""
    page, errors, session = phone["page"], phone["errors"], phone["session"]
    if not phone["matches"]:                     # alone: a match of his to find on his profile and replay
        phone["matches"].append(await finished_deal(web_system.base, web_svc, session))
    organiser = {"Authorization": f"Bearer {web_system.admin_token('organiser')}"}
    async with httpx.AsyncClient(base_url=web_system.base, headers=organiser, timeout=30) as http:
        open_one = (await http.post("/v1/tournaments", json={"name": "Кубок четверга", "game": "belote", "format": "swiss",
                                                             "rounds": 1, "options": {"deals": 1}})).json()["tournament_id"]
        bots = (await http.post("/v1/tournaments", json={"name": "Bot Swiss", "game": "belote", "format": "swiss", "rounds": 1,
                                                         "options": {"deals": 1}})).json()["tournament_id"]
        for level in ("random", "basic", "random", "basic"):
            assert (await http.post(f"/v1/tournaments/{bots}/entries", json={"players": [f"bot:{level}"] * 2})).status_code == 201
        for _ in range(150):   # the list is a read model: it follows the creation within moments
            listed = (await http.get("/v1/tournaments", params={"status": "registering"})).json()
            if any(x["tournament_id"] == open_one for x in listed):
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"the tournaments' read model never listed {open_one}")

    await page.evaluate("location.hash = '#/tournaments'")
    await page.wait_for_selector(f"#tournament-list li[data-tournament='{open_one}']")
    async with httpx.AsyncClient(base_url=web_system.base, headers=organiser, timeout=30) as http:
        later = (await http.post("/v1/tournaments", json={"name": "Кубок пятницы", "game": "cinch", "format": "swiss",
                                                          "rounds": 1, "options": {"deals": 1}})).json()["tournament_id"]
    await page.wait_for_selector(f"#tournament-list li[data-tournament='{later}']", timeout=20_000)   # the screen refreshes
    await fits(page, "tournaments")
    await snap(page, shots, "20-tournaments")
    await axe_check(page, "tournaments")
    await page.click(f"#tournament-list li[data-tournament='{open_one}'] a")
    await page.wait_for_selector("#screen-tournament:not([hidden]) #tournament-register:not([hidden])")
    await page.click("#tournament-register")
    await page.wait_for_selector("#tournament-register[disabled]")
    assert await page.inner_text("#tournament-register") == "Вы записаны"
    async with httpx.AsyncClient(base_url=web_system.base, headers=organiser) as http:
        entries = (await http.get(f"/v1/tournaments/{open_one}")).json()["entries"]
    assert [e["players"][0] for e in entries] == [session["player_id"]], entries

    # followed live: the page opens before the start and sees every round to the close
    await page.evaluate(f"location.hash = '#/tournament/{bots}'")
    await page.wait_for_selector("body[data-tournament-status=registering]")
    await page.wait_for_selector("#tournament-live:has-text('онлайн')")
    async with httpx.AsyncClient(base_url=web_system.base, headers=organiser) as http:
        assert (await http.post(f"/v1/tournaments/{bots}/start")).status_code == 200
    # the page saw the start live: on a quiet machine a bots' one-round tournament may close
    # within a second of it, before a poll of the page catches `running`
    await page.wait_for_selector("body[data-tournament-status=running], body[data-tournament-status=closed]",
                                 timeout=30_000)
    await page.wait_for_selector("#tournament-rounds li[data-round='1'] a[href^='#/match/']")
    await snap(page, shots, "21-tournament-live")
    await page.wait_for_selector("body[data-tournament-status=closed]", timeout=90_000)
    rows = await page.locator("#tournament-standings tbody tr[data-entry]").count()
    assert rows == 4
    await fits(page, "tournament")
    await snap(page, shots, "22-tournament-closed")
    await axe_check(page, "tournament")

    await page.evaluate("location.hash = '#/leaderboards'")
    await page.wait_for_selector("#leaderboard thead th")
    await fits(page, "leaderboards")
    await snap(page, shots, "23-leaderboards")
    await axe_check(page, "leaderboards")

    await page.evaluate(f"location.hash = '#/player/{session['player_id']}'")
    await page.wait_for_selector("#player-matches li[data-match]")
    assert await page.inner_text("#player-name") == "Ваня"
    assert await page.locator("#player-matches li[data-match]").count() == len(phone["matches"])
    await fits(page, "profile")
    await snap(page, shots, "24-profile")
    await axe_check(page, "profile")

    await page.click("#player-matches li[data-match] a")
    await page.wait_for_selector("#screen-replay:not([hidden]) #replay-deal option", state="attached")
    await page.click("#replay-next")
    await page.wait_for_selector("#replay-trick [data-card]")
    await fits(page, "replay")
    await snap(page, shots, "25-replay")
    await axe_check(page, "replay")

    # the account stream: someone sits at my open table and it starts, while I am in the lobby
    await page.evaluate("location.hash = '#/'")
    await page.wait_for_selector("#screen-lobby:not([hidden])")
    async with httpx.AsyncClient(base_url=web_system.base) as http:
        mine = await http.post("/v1/matches", headers={"Authorization": f"Bearer {session['token']}"},
                               json={"game": "cinch", "options": {"deals": 1},
                                     "seats": {"N": "bot:basic", "E": "bot:basic", "S": "me", "W": "open"}})
        bob = (await http.post("/v1/players", json={"name": "Bob"})).json()
        taken = await http.post(f"/v1/matches/{mine.json()['match_id']}/seats/W", headers={"Authorization": f"Bearer {bob['token']}"},
                                json={})
        assert taken.status_code == 200, taken.text
    await page.wait_for_selector("#notices li[data-type=match_started] a")
    await fits(page, "notices")
    await snap(page, shots, "26-notices")
    assert not errors, errors


async def test_an_invitation_to_a_private_table_accepted_in_a_second_browser(web_system, web_svc, browser, phone,
                                                                          shots):
    """A host at a desktop makes a private table from the lobby (out of the lobby's list), sees
    its code, invites the phone guest by his id; the guest's page is told on the account
    stream, he accepts from his invitations and sits down: the match starts."""
    guest, guest_errors, guest_session = phone["page"], phone["errors"], phone["session"]
    errors: list[str] = []
    host = await context_page(browser, errors, "en-US", DESKTOP)
    await sign_in(host, web_system.base, "Hostess")
    await host.select_option("#create-game", "belote")
    await host.fill("#create-deals", "1")
    await host.select_option("select[data-seat=W]", "open")
    await host.check("#create-private")
    await host.click("#create-go")
    await host.wait_for_url("**/#/match/*")
    match_id = host.url.rsplit("/match/", 1)[1]
    await host.wait_for_selector("#invite-panel:not([hidden]) #invite-code:has-text('Code of this private table')")

    await guest.evaluate("location.hash = '#/'")
    await guest.wait_for_selector("#screen-lobby:not([hidden])")
    await guest.wait_for_timeout(300)
    assert await guest.locator(f"#open-list li[data-match='{match_id}']").count() == 0   # private: not in the lobby

    await host.fill("#invite-player", guest_session["player_id"])
    await host.click("#invite-go")
    await host.wait_for_selector("#message:has-text('invitation sent to Ваня')")
    await guest.wait_for_selector("#notices li[data-type=invitation_received] a")
    await snap(guest, shots, "27-invited")
    await guest.click("#notices li[data-type=invitation_received] a")
    await guest.wait_for_selector("#screen-invitations:not([hidden]) #invitations-received li[data-status=pending] button.accept")
    await fits(guest, "invitations")
    await snap(guest, shots, "28-invitations")
    await axe_check(guest, "invitations")
    await guest.click("#invitations-received li[data-status=pending] button.accept")
    await guest.wait_for_url(f"**/#/match/{match_id}")
    await guest.wait_for_selector("body[data-seat=W]")
    state = await web_svc.load(match_id)
    assert state.seats["W"].player_id == guest_session["player_id"] and state.status == "playing"
    await host.wait_for_selector("body[data-status=playing]")
    assert not errors and not guest_errors, errors + guest_errors
