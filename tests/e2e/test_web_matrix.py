"""Every game by clicking on every screen size, and every screen in every language (headless
Chromium, Playwright).

* The games: classic Belote, Sans Atout, Coinche, Cinch and Five Hundred, one deal each,
  created from the lobby and played by clicking at 360×740, and Sans Atout at a desktop's
  1280×860: with the plays of test_web_phone.py (each game at 390×844 in Russian, classic
  Belote at a desktop in French) and test_web_games.py (Coinche, Cinch and Five Hundred at a
  desktop in English), each game is played at each size, and read in three languages
  (`CELLS`). At every turn the page's layout
  holds (`web_support.laid_out`: nothing off the screen's width, no two controls overlapping),
  a phone's controls and playable cards are big enough to tap, and the cards are written as
  the language's players write them; on the first turn of each phase and at the end, axe-core
  finds no serious or critical violation.
* The screens: sign-in, lobby (and its quick-play wait), the table (its auction, and the end
  of a match with its deal's panel), replay with the deal's review, tournaments, a
  tournament's page (a swiss one and a duplicate event), the organiser's console, leaderboards,
  a profile, invitations, the admin page (its queue of disputes, a disputed deal stepped
  through, reports, sanctions) and the standalone verify page, each read in English, French,
  Polish and Russian on the smallest phone: the layout holds and axe finds nothing serious;
  and in one of them at a desktop's width, the layout holds.

Screenshots: test-artifacts/web-matrix/ (a play's first turn of each phase and its end; each
screen in each language).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_games import play_match
from test_web_phone import (
    DESKTOP,
    FR_RANKS,
    PL_RANKS,
    RU_RANKS,
    axe_check,
    choose,
    context_page,
    create_from_lobby,
    fits,
    in_words,
    sign_in,
)
from web_support import (  # noqa: F401
    browser,
    finished_deal,
    fresh_artifacts,
    laid_out,
    web_pool,
    web_svc,
)

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SMALL_PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DEVICES = {"360x740": SMALL_PHONE, "desktop": DESKTOP}
LANGS = ("en", "fr", "pl", "ru")
LOCALES = {"en": "en-GB", "fr": "fr-FR", "pl": "pl-PL", "ru": "ru-RU"}
RANKS = {"en": {}, "fr": FR_RANKS, "pl": PL_RANKS, "ru": RU_RANKS}
NAMES = {"en": "Alice", "fr": "Aimée", "pl": "Zofia", "ru": "Вера"}
# A play of each game at each size, the language turning so that each game is read in
# three: at 390×844 each in Russian (test_web_phone.py); at a desktop classic Belote in French
# (test_web_phone.py), Coinche, Cinch and Five Hundred in English (test_web_games.py), Sans
# Atout in Polish (here); at 360×740 the others (here).
CELLS = [("belote", "classic", "360x740", "pl"), ("belote", "sans_atout", "360x740", "en"),
         ("belote", "coinche", "360x740", "fr"), ("cinch", None, "360x740", "fr"),
         ("five_hundred", None, "360x740", "pl"), ("belote", "sans_atout", "desktop", "pl")]


def catalog(lang: str) -> dict[str, Any]:
    return json.loads((ROOT / "services" / "web" / "locales" / f"{lang}.json").read_text())


@pytest.fixture(scope="module")
def shots():
    return fresh_artifacts("web-matrix")


async def check(page, shots: Path, where: str, name: str) -> None:
    await laid_out(page, where)
    await page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    await axe_check(page, where)


@pytest.mark.parametrize("game, variant, device, lang", CELLS,
                         ids=[f"{v or g}-{d}-{lang}" for g, v, d, lang in CELLS])
async def test_a_deal_by_clicking(web_system, web_svc, browser, shots, game, variant, device, lang):
    errors: list[str] = []
    page = await context_page(browser, errors, LOCALES[lang], DEVICES[device])
    await sign_in(page, web_system.base, NAMES[lang])
    assert await page.get_attribute("html", "lang") == lang
    match_id = await create_from_lobby(page, game, variant)
    name = f"{variant or game}-{device}-{lang}"
    phases: set[str] = set()

    async def on_turn(view):
        phase = view["table"]["phase"]
        where = f"{name} v{view['version']} {phase}"
        await (laid_out if device == "desktop" else fits)(page, where)     # fits: laid out, and big enough to tap
        await in_words(page, RANKS[lang], where)
        if view["table"].get("contract"):
            assert await page.locator("#glance .trump-big").count() == 1, where
        if phase not in phases:
            phases.add(phase)
            await check(page, shots, where, f"{name}-{len(phases)}-{phase}")

    done = await play_match(page, web_svc, match_id, choose, on_turn)
    await page.wait_for_selector("#status[data-status=finished]")
    assert done["cards"] >= 1 and "play" in phases, (done, phases)
    words = catalog(lang)["status"]
    status = await page.inner_text("#status")
    assert status.startswith((words["won"].split("{{")[0], words["tie"].split("{{")[0])), status
    await check(page, shots, f"{name} over", f"{name}-9-over")
    assert not errors, errors


async def in_each_language(page, shots: Path, screen: str, order: list[str]) -> None:
    """The screen read in each language of `order` in turn, chosen from the page's menu: laid
    out, shot and checked by axe in each. `order` is turned round for the next screen, which
    then begins in the language this one ends in."""
    for lang in order:
        if await page.get_attribute("html", "lang") != lang:
            await page.select_option("#lang", lang)
            await page.wait_for_function(f"document.documentElement.lang === '{lang}'")
            await page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        await check(page, shots, f"{screen} in {lang}", f"screen-{screen}-{lang}")
    await page.set_viewport_size(DESKTOP["viewport"])         # and at a desktop's width, in the last
    await laid_out(page, f"{screen} in {order[-1]} at a desktop")
    await page.set_viewport_size(SMALL_PHONE["viewport"])
    order.reverse()


async def opened(page, hash_: str, ready: str) -> None:
    await page.evaluate(f"location.hash = {json.dumps(hash_)}")
    await page.wait_for_selector(ready, state="attached")


async def test_every_screen_in_every_language(web_system, web_svc, web_pool, browser, shots):
    base, errors = web_system.base, []
    order = list(LANGS)
    # at one device pixel per CSS pixel: the same layout, and its 60 screenshots a quarter the pixels
    page = await context_page(browser, errors, "en-GB", {**SMALL_PHONE, "device_scale_factor": 1})
    # an organiser (made one before his first call, as `atout admin grant` does): he sees every
    # screen a player sees, and the console
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        olga = (await http.post("/v1/players", json={"name": "Olga"})).json()
    await web_pool.execute("UPDATE players SET role = 'organiser' WHERE player_id = $1", olga["player_id"])
    session = {**olga, "name": "Olga"}

    await page.goto(f"{base}/")
    await page.wait_for_selector("#screen-signin:not([hidden])")
    await in_each_language(page, shots, "sign-in", order)
    await page.evaluate("s => localStorage.setItem('atout.session', JSON.stringify(s))", session)
    await page.reload()
    await page.wait_for_selector("#screen-lobby:not([hidden]) #create-go")
    await in_each_language(page, shots, "lobby", order)

    await page.uncheck("#quickplay-bots")
    await page.click("#quickplay button[data-pool=belote_coinche]")
    await page.wait_for_selector("#quickplay [data-status=waiting]")
    await in_each_language(page, shots, "quick-play", order)
    await page.click("#quickplay-cancel")
    await page.wait_for_selector("#quickplay button[data-pool=belote_coinche]")

    # a deal of his played to its end and disputed; tournaments: a swiss one open for entries,
    # a duplicate event
    match_id = await finished_deal(base, web_svc, session)
    organiser = {"Authorization": f"Bearer {session['token']}"}
    async with httpx.AsyncClient(base_url=base, headers=organiser, timeout=30) as http:
        filed = await http.post(f"/v1/matches/{match_id}/disputes", json={"deal": 0, "reason": "a revoke at trick 3"})
        assert filed.status_code == 201, filed.text
        swiss = (await http.post("/v1/tournaments", json={"name": "Cup", "game": "belote", "format": "swiss",
                                                          "rounds": 1, "options": {"deals": 1}})).json()["tournament_id"]
        for level in ("random", "basic"):
            assert (await http.post(f"/v1/tournaments/{swiss}/entries", json={"players": [f"bot:{level}"] * 2})).status_code == 201
        closes = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).isoformat()
        duplicate = (await http.post("/v1/tournaments", json={
            "name": "Robots", "game": "belote", "format": "robot", "options": {"deals": 1}, "bots": {"level": "basic"},
            "scoring": "neuberg", "closes_at": closes})).json()["tournament_id"]

    await opened(page, f"#/match/{match_id}", "#status[data-status=finished]")
    await in_each_language(page, shots, "table-over", order)
    await opened(page, "#/tournaments", f"#tournament-list li[data-tournament='{swiss}']")
    await in_each_language(page, shots, "tournaments", order)
    await opened(page, f"#/tournament/{swiss}", "#screen-tournament:not([hidden]) #console-entries li")
    await in_each_language(page, shots, "tournament", order)
    await opened(page, f"#/tournament/{duplicate}", "#screen-tournament:not([hidden]) #tournament-play:not([hidden])")
    await in_each_language(page, shots, "duplicate", order)
    await opened(page, "#/console", "#screen-console:not([hidden]) #console-format option[value=manual]")
    await in_each_language(page, shots, "console", order)
    await opened(page, "#/leaderboards", "#leaderboard thead th")
    await in_each_language(page, shots, "leaderboards", order)
    await opened(page, f"#/player/{session['player_id']}", f"#player-matches li[data-match='{match_id}']")
    await in_each_language(page, shots, "profile", order)
    await opened(page, "#/invitations", "#screen-invitations:not([hidden])")
    await in_each_language(page, shots, "invitations", order)
    await opened(page, f"#/replay/{match_id}", "#screen-replay:not([hidden]) #replay-deal option")
    await page.click("#replay-next")
    await page.wait_for_selector("#replay-trick [data-card]")
    await page.wait_for_selector("#replay-review table.review-accuracy", timeout=60_000)    # reviewed by the worker
    await in_each_language(page, shots, "replay", order)

    # the standalone verify page reads the language chosen on the site
    for lang in list(order):
        await page.evaluate(f"localStorage.setItem('atout.locale', '{lang}')")
        await page.goto(f"{base}/verify")
        await page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        await check(page, shots, f"verify in {lang}", f"screen-verify-{lang}")
    await page.set_viewport_size(DESKTOP["viewport"])
    await laid_out(page, "verify at a desktop")
    await page.set_viewport_size(SMALL_PHONE["viewport"])
    order.reverse()

    # the admin's page: the queue of disputes, the disputed deal stepped through, reports, sanctions
    await page.goto(f"{base}/admin")
    await page.wait_for_selector("#admin-signin:not([hidden])")
    await in_each_language(page, shots, "admin-sign-in", order)
    await page.fill("#admin-token", web_system.admin_token("matrix referee"))
    await page.click("#admin-token-form button")
    await page.locator(f"#queue li:has-text('{match_id}') button").click()
    await page.wait_for_selector(f"body[data-replay='{match_id}:0:table']")
    await page.click("#step-next")
    await in_each_language(page, shots, "admin", order)
    assert not [e for e in errors if "404" not in e or "/v1/quickplay" not in e], errors
