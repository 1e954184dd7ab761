"""The organiser's console in the web client (headless Chromium, Playwright): an organiser
creates a tournament from the form the server describes (every format it runs offered, a
format's fields and the game's options as controls), takes entries (a guest registers himself from his own page, house
bots and two people by name from the console, one withdrawn), starts it, pairs its round by hand, follows it live to
its close — ending it with the round in play, so the second round is never paired — and exports
its standings, then closes another before it starts; both pages name the players (never "you / player"), and
the entrant's link to his table reads "go to my table"."""

from __future__ import annotations

import asyncio
import random
import uuid

import httpx
import msgspec
import pytest
from test_web_phone import axe_check
from web_support import ARTIFACTS, browser, new_page, web_pool, web_svc  # noqa: F401

from domain.tournaments.events import FORMATS

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


async def sign_in(page, base: str, name: str) -> dict:
    await page.goto(f"{base}/")
    await page.fill("#signin-name", name)
    await page.click("#signin-go")
    await page.wait_for_selector("#screen-lobby:not([hidden])")
    return await page.evaluate("JSON.parse(localStorage.getItem('atout.session'))")


async def play_my_seat(svc, match_id: str, player_id: str) -> None:
    """The entrant's cards, played through the service from his own view; the bots' by the
    system's worker."""
    from domain import match as rules
    from domain.cards import Seat
    from domain.playout import concrete
    from infra.store import ConcurrencyError

    rng = random.Random(7)
    deadline = asyncio.get_running_loop().time() + 90
    while (state := await svc.load(match_id)).status != "finished":
        assert asyncio.get_running_loop().time() < deadline, f"the deal never ended: {state.status}"
        seat = next(s for s, holder in state.seats.items() if holder and holder.player_id == player_id)
        legal = msgspec.to_builtins(rules.view(state, Seat(seat)).table).get("legal") or []
        if state.status == "playing" and legal:
            try:
                await svc.act(match_id, {"seat": seat, **concrete(rng.choice(legal), rng)}, player_id=player_id,
                              expected_version=state.version, command_id=uuid.uuid4())
            except ConcurrencyError:
                pass                                      # a bot acted first: read the table again
        else:
            await asyncio.sleep(0.05)


async def test_an_organiser_runs_a_tournament_from_the_console_to_its_end(web_system, web_svc, web_pool,
                                                                          browser) -> None:
    errors: list[str] = []
    organiser, guest = await new_page(browser, errors), await new_page(browser, errors)
    # The organiser: a guest made one (as `atout admin grant` does) before his first call, so
    # the server never held his token as a player's.
    async with httpx.AsyncClient(base_url=web_system.base, timeout=30) as http:
        olga = (await http.post("/v1/players", json={"name": "Olga"})).json()
    await web_pool.execute("UPDATE players SET role = 'organiser' WHERE player_id = $1", olga["player_id"])
    await organiser.goto(f"{web_system.base}/")
    await organiser.evaluate("s => localStorage.setItem('atout.session', JSON.stringify(s))", {**olga, "name": "Olga"})
    await organiser.reload()
    gaston = await sign_in(guest, web_system.base, "Gaston")
    assert await guest.locator("#nav-console").is_hidden()                 # a player has no console

    await organiser.click("#nav-console")
    await organiser.wait_for_selector("#console-format option[value='manual']", state="attached")
    offered = await organiser.eval_on_selector_all("#console-format option", "os => os.map(o => o.value)")
    assert offered == list(FORMATS)                                         # the server's, in its order
    await organiser.select_option("#console-format", "robot")
    assert await organiser.get_attribute("#console-f-options-deals", "max") == "36"
    assert await organiser.locator("#console-f-closes_at[type='datetime-local'][required]").count() == 1
    await organiser.select_option("#console-game", "cinch")                # the game's options, from /v1/games
    assert await organiser.locator("#console-f-options-mode option").count() == 2
    await organiser.select_option("#console-game", "belote")
    await organiser.select_option("#console-f-options-variant", "classic")
    await organiser.fill("#console-name", "Console cup")
    await organiser.select_option("#console-format", "manual")
    await organiser.fill("#console-f-rounds", "2")
    await organiser.fill("#console-f-options-deals", "1")
    await organiser.select_option("#console-f-bots-level", "random")
    await organiser.screenshot(path=str(ARTIFACTS / "console-form.png"), full_page=True, animations="disabled")
    await axe_check(organiser, "console")
    await organiser.click("#console-create")
    await organiser.wait_for_function("location.hash.startsWith('#/tournament/')")
    tid = (await organiser.evaluate("location.hash")).split("/")[-1]

    await guest.evaluate(f"location.hash = '#/tournament/{tid}'")
    await guest.click("#tournament-register:not([disabled])")
    await organiser.wait_for_selector("#console-entries li:has-text('Gaston & bot (random)')")   # live, by name
    await organiser.select_option("#console-house", "random")
    await organiser.click("#console-enter")
    await organiser.wait_for_function("document.querySelectorAll('#console-entries li').length === 2")
    marcel, renee = f"Marcel {uuid.uuid4().hex[:6]}", f"Renée {uuid.uuid4().hex[:6]}"   # entered by name
    async with httpx.AsyncClient(base_url=web_system.base, timeout=30) as http:
        for name in (marcel, renee):
            await http.post("/v1/players", json={"name": name})
    await organiser.fill("#console-players", f"{marcel}, Nobody {uuid.uuid4().hex}")
    await organiser.click("#console-enter")
    await organiser.wait_for_selector("#console-said:has-text('No player is named Nobody')")
    await organiser.fill("#console-players", f" {marcel} , {renee}")
    await organiser.click("#console-enter")
    await organiser.wait_for_selector(f"#console-entries li:has-text('{marcel} & {renee}')")
    await organiser.click(f"#console-entries li:has-text('{marcel}') [data-withdraw]")
    await organiser.wait_for_function("document.querySelectorAll('#console-entries li').length === 2")

    await axe_check(organiser, "the organiser's tournament")             # entries, pairing, export
    await organiser.click("#console-start")
    await organiser.wait_for_selector("body[data-tournament-status='running'] #console-pair:not([hidden])")
    assert await organiser.locator("#console-pair-tables [data-table]").count() == 1
    await organiser.click("#console-pair-go")
    await organiser.wait_for_selector("#tournament-rounds li[data-round='1'] a[href^='#/match/']")
    assert await organiser.inner_text("#console-said") == "Round 1's pairing is kept"
    assert await organiser.locator("#console-pair").is_hidden()             # the round is paired
    line = await organiser.inner_text("#tournament-rounds li[data-round='1'] li")
    assert "Gaston & bot (random)" in line and "bot (random) & bot (random)" in line, line
    assert "watch" in line and await organiser.locator("#tournament-mine").is_hidden()
    organiser.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
    await organiser.click("#console-finish")                                # this round is the last
    await organiser.wait_for_selector("#console-finish", state="hidden")

    mine = guest.locator("#tournament-rounds a[data-mine='true']")
    await mine.wait_for()
    assert await mine.inner_text() == "go to my table" and await guest.locator("#tournament-mine").is_visible()
    assert "you" not in await guest.inner_text("#tournament-rounds")
    await guest.click("#tournament-mine")
    await guest.wait_for_function("location.hash.startsWith('#/match/')")
    await play_my_seat(web_svc, (await guest.evaluate("location.hash")).split("/")[-1], gaston["player_id"])

    await organiser.wait_for_selector("body[data-tournament-status='closed']", timeout=60_000)
    await organiser.wait_for_function("[...document.querySelectorAll('#tournament-standings tr[data-entry]')]"
                                      ".some(r => r.textContent.includes('Gaston') && r.cells[3].textContent === '1')")
    standings = await organiser.inner_text("#tournament-standings")
    assert "Gaston & bot (random)" in standings and "bot (random) & bot (random)" in standings, standings
    assert f"{marcel} & {renee} (withdrawn)" in standings, standings
    assert "ended early by its organiser" in await organiser.inner_text("#tournament-info")
    assert await organiser.locator("#tournament-rounds li[data-round='2']").count() == 0
    assert await organiser.locator("#console-start, #console-pair, #console-entry-form, #console-finish").evaluate_all(
        "els => els.every(e => e.hidden)")
    async with organiser.expect_download() as download:
        await organiser.click("#console-export-csv")
    exported = (await (await download.value).path()).read_text(encoding="utf-8")
    assert exported.startswith("place,entry,name,points") and "Gaston & bot:random" in exported, exported
    await organiser.screenshot(path=str(ARTIFACTS / "console-closed.png"), full_page=True, animations="disabled")

    await organiser.click("#nav-console")                                  # another, closed before it starts
    await organiser.fill("#console-name", "Dropped cup")
    await organiser.select_option("#console-format", "round_robin")
    await organiser.click("#console-create")
    await organiser.wait_for_function(f"location.hash.startsWith('#/tournament/') && !location.hash.endsWith('{tid}')")
    organiser.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
    await organiser.click("#console-cancel")
    await organiser.wait_for_selector("body[data-tournament-status='closed']")
    assert "cancelled by its organiser" in await organiser.inner_text("#tournament-info")

    await organiser.click("#nav-console")
    await organiser.wait_for_selector(f"#console-list li[data-tournament='{tid}']")
    await organiser.select_option("#lang", "fr")
    await organiser.wait_for_function("document.querySelector('#screen-console h1').textContent === "
                                      "\"Console de l'organisateur\"")
    assert await organiser.inner_text("label:has(#console-f-no_show_grace) span") == "Délai d'absence (secondes)"
    assert not [e for e in errors if e.startswith("pageerror")], errors
