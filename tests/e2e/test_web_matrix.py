"""Every game by clicking on every screen size, and every screen in every language (headless
Chromium, Playwright).

* The games: classic Belote, Sans Atout, Coinche, Cinch and Five Hundred, one deal each,
  created from the lobby and played by clicking at 360×740 and at a desktop's 1280×860 (the
  390×844 phone plays each in Russian: test_web_phone.py), the language turning from one play
  to the next so that each game is read in three languages. At every turn the page's layout
  holds (`web_support.laid_out`: nothing off the screen's width, no two controls overlapping),
  a phone's controls and playable cards are big enough to tap, and the cards are written as
  the language's players write them; on the first turn of each phase and at the end, axe-core
  finds no serious or critical violation.
* The screens: sign-in, lobby (and its quick-play wait), the table (its auction, and the end
  of a match with its deal's panel), replay with the deal's review, tournaments, a
  tournament's page (a swiss one and a duplicate event), the organiser's console, leaderboards,
  a profile, invitations, the admin page (its queue of disputes, a disputed deal stepped
  through, reports, sanctions) and the standalone verify page, each read in English, French,
  Polish and Russian on the smallest phone: the layout holds and axe finds nothing serious.

Screenshots: test-artifacts/web-matrix/ (a play's first turn of each phase and its end; each
screen in each language).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_phone import (DESKTOP, FR_RANKS, PL_RANKS, RU_RANKS, axe_check, choose, context_page, create_from_lobby,
                            fits, in_words, sign_in)
from test_web_games import play_match
from web_support import browser, finished_deal, fresh_artifacts, laid_out, web_pool, web_svc  # noqa: F401

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SMALL_PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DEVICES = {"360x740": SMALL_PHONE, "desktop": DESKTOP}
LANGS = ("en", "fr", "pl", "ru")
LOCALES = {"en": "en-GB", "fr": "fr-FR", "pl": "pl-PL", "ru": "ru-RU"}
RANKS = {"en": {}, "fr": FR_RANKS, "pl": PL_RANKS, "ru": RU_RANKS}
NAMES = {"en": "Alice", "fr": "Aimée", "pl": "Zofia", "ru": "Вера"}
GAMES = [("belote", "classic"), ("belote", "sans_atout"), ("belote", "coinche"), ("cinch", None), ("five_hundred", None)]
# The language turns with each play: the phone's column is Russian, these two take the other
# three in turn, a game never twice in one language.
CELLS = [(game, variant, device, ("en", "fr", "pl")[(g + d) % 3])
         for d, device in enumerate(DEVICES) for g, (game, variant) in enumerate(GAMES)]


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
        await laid_out(page, where)
        if device != "desktop":
            await fits(page, where)
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
