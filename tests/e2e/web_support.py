"""Support for the browser tests of the web client (tests/e2e/test_web_*.py).

* `web_system`: `atout serve --projector` and `atout worker` (the bots and clocks) as
  subprocesses on a database of their own (`web_database_url`, on the session's server) and Redis (`system_support.running_system`),
  under their own Redis prefix (`<redis_prefix>web`), so the bots of these tests run on this
  worker only; one for the whole session, shared by every browser test module (provided by
  tests/e2e/conftest.py: a test module must not import it, or it would get one of its own).
* `browser`: Debian's Chromium (`/usr/bin/chromium`, or `ATOUT_CHROMIUM`) driven by the
  Playwright package pinned in the `test` extras; browsers are never downloaded. One for the
  session (`chromium`, from tests/e2e/conftest.py), its pages closed after each module. Without
  Chromium or Playwright the tests skip and say why (`.ci/run` installs Chromium).
* `truth`: what the store says, to compare the DOM with: every seat's hand read through
  the game's own view of each seat, and the cards the table has shown to everyone.
* `card_codes(page)`: every card code the page shows (`data-card`: only face-up cards carry one).
* `shot(page, name)`: a screenshot under `test-artifacts/web/`.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from system_support import System, running_system

from tests.databases import own_database

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"


def fresh_artifacts(name: str) -> Path:
    """`test-artifacts/<name>/`, emptied: where one test module keeps its screenshots."""
    folder = ROOT / "test-artifacts" / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
CHROMIUM = os.environ.get("ATOUT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SEATS = ("N", "E", "S", "W")


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does it when apt is available)"
    return None


WebSystem = System


@pytest.fixture(scope="session")
async def web_database_url(database_url: str) -> AsyncIterator[str]:
    """A database of the browser tests' own, on the session's server: their worker's sweeper
    and bots then never act on the other tests' matches."""
    async with own_database(database_url, "atout_web") as url:
        yield url


@pytest.fixture(scope="module")
async def web_pool(web_database_url: str):
    from infra.store import create_pool

    pool = await create_pool(web_database_url, max_size=3)
    yield pool
    await pool.close()


@pytest.fixture(scope="session")
def web_system(web_database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory):
    """The server (API, projector with the live publisher and the bots' scheduler), a
    one-process Celery worker (bots, clocks, the sweeper) and one reviewing deals, as `make run`
    runs them: one for
    every browser test of the session (tests/e2e/conftest.py provides it), since starting them
    costs about 25 s and each test makes its own players and matches."""
    # Reviews on 2 worlds, not 8: the browser tests read that a review is drawn, not its
    # figures, and every deal of the session is reviewed on the machine the browsers share.
    # Quick play's cooldown after leaving a queue 2 s, not 10: the test that leaves one waits it out.
    with running_system(tmp_path_factory.mktemp("web"), web_database_url, redis_url, f"{redis_prefix}web",
                        reviews=True, ATOUT_REVIEW_WORLDS="2", ATOUT_QUICKPLAY_COOLDOWN="2") as system:
        yield system


@pytest.fixture(scope="module")
async def web_svc(web_pool):
    from infra.store import PostgresEventStore
    from infra.vault import Vault
    from services.matches.service import MatchService

    return MatchService(PostgresEventStore(web_pool), Vault(web_pool))


@pytest.fixture(scope="session")
async def chromium():
    """One Chromium for the session's browser tests (tests/e2e/conftest.py provides it, as it
    does `web_system`): launching one costs about a second per module."""
    reason = browser_missing()
    if reason:
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as pw:
        launched = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture(scope="module")
async def browser(chromium):
    """The session's Chromium, for one module: the pages the module opened are closed after it,
    so that none of them keeps polling or listening while the next modules run."""
    yield chromium
    for context in list(chromium.contexts):
        await context.close()


# Cards do not move in the browser tests unless a test asks for it: a held trick would delay
# every test that plays a card after another (the setting is kept only when none is yet).
STILL_CARDS = """(() => { try { const k = "atout.settings"; const s = JSON.parse(localStorage.getItem(k) || "{}");
  if (!("motion" in s)) localStorage.setItem(k, JSON.stringify({ ...s, motion: "off" })); } catch (e) {} })();"""


async def still_cards(context: Any) -> Any:
    """`context`, its pages' cards kept still (the table's movement setting "off")."""
    await context.add_init_script(STILL_CARDS)
    return context


async def new_page(browser: Any, errors: list[str]) -> Any:
    """A page in a context of its own (its own localStorage: its own player), whose script
    errors are collected in `errors`; its cards do not move (`still_cards`)."""
    context = await still_cards(await browser.new_context(viewport={"width": 1280, "height": 860}))
    page = await context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    page.set_default_timeout(30_000)
    return page


async def shot(page: Any, name: str) -> Path:
    path = ARTIFACTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path


async def card_codes(page: Any) -> list[str]:
    return await page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")


async def truth(svc: Any, match_id: str) -> tuple[dict[str, set[str]], set[str], Any]:
    """(every seat's hand, the cards shown to the whole table, the state) from the store."""
    from domain import match as rules
    from domain.cards import Seat

    state = await svc.load(match_id)
    hands: dict[str, set[str]] = {s: set() for s in SEATS}
    public: set[str] = set()
    if state.game_state is not None:
        for s in SEATS:
            hands[s] = set(state.game.view(state.game_state, Seat(s)).hand or ())
        table = rules.view(state, None).table
        turn_up = getattr(table, "turn_up", None)           # Belote's turn-up is shown to all
        if turn_up:
            public.add(turn_up)
        for cards in (getattr(table, "exposed", None) or {}).values():  # Five Hundred's open misère
            public.update(cards)
        for combination in getattr(table, "combinations_shown", None) or ():  # Belote, shown at trick 2
            public.update(combination.cards)
        public.update(card for _, card in getattr(table, "reused", None) or ())  # Cinch: face-up, then taken back
    return hands, public, state


async def disputed_deal(base: str, svc: Any, reason: str = "W revoked at trick 3, I think") -> str:
    """A one-deal Belote match a new guest (S) played against three bots to its end, its deal
    disputed by him: what the admin pages review."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        guest = (await http.post("/v1/players", json={"name": "Ada"})).json()
        match_id = await finished_deal(base, svc, guest)
        filed = await http.post(f"/v1/matches/{match_id}/disputes", json={"deal": 0, "reason": reason},
                                headers={"Authorization": f"Bearer {guest['token']}"})
        assert filed.status_code == 201, filed.text
    return match_id


async def finished_deal(base: str, svc: Any, guest: dict[str, Any]) -> str:
    """A one-deal Belote match `guest` ({player_id, token}) played at S against three bots, to
    its end: his cards played through the service from his own view, the bots' by the
    system's worker. Its id."""
    import asyncio
    import random
    import uuid

    import httpx
    import msgspec

    from domain import match as rules
    from domain.cards import Seat
    from domain.playout import concrete
    from infra.store import ConcurrencyError

    rng = random.Random(5)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = await http.post("/v1/matches", headers={"Authorization": f"Bearer {guest['token']}"}, json={
            "game": "belote", "options": {"variant": "classic", "deals": 1},
            "seats": {"N": "bot:basic", "E": "bot:basic", "S": "me", "W": "bot:basic"}})
        assert made.status_code == 201, made.text
    match_id = made.json()["match_id"]
    deadline = asyncio.get_running_loop().time() + 90
    while (state := await svc.load(match_id)).status != "finished":
        assert asyncio.get_running_loop().time() < deadline, f"the deal never ended: {state.status}"
        legal = msgspec.to_builtins(rules.view(state, Seat.S).table).get("legal") or []
        if state.status == "playing" and legal:
            try:
                await svc.act(match_id, {"seat": "S", **concrete(rng.choice(legal), rng)},
                              player_id=guest["player_id"], expected_version=state.version, command_id=uuid.uuid4())
            except ConcurrencyError:
                pass                                      # a bot acted first: read the table again
        else:
            await asyncio.sleep(0.05)
    return match_id


async def guest_against_bots(page: Any, base: str, name: str, deals: int) -> str:
    """`name` signs in as a guest and creates, from the lobby, a classic Belote match of
    `deals` deals at S against three basic bots; its id, once the page sits him at S."""
    await page.goto(f"{base}/")
    await page.fill("#signin-name", name)
    await page.click("#signin-go")
    await page.wait_for_selector("#screen-lobby:not([hidden])")
    await page.select_option("#create-game", "belote")
    await page.select_option("#create-variant", "classic")
    await page.fill("#create-deals", str(deals))
    for seat in "NEW":
        await page.select_option(f"select[data-seat={seat}]", "bot:basic")
    await page.select_option("select[data-seat=S]", "me")
    await page.click("#create-go")
    await page.wait_for_url("**/#/match/*")
    await page.wait_for_selector("body[data-seat=S]")
    return page.url.rsplit("/match/", 1)[1]


# Nothing wider than the screen, and no two controls a finger or a pointer could mistake for
# each other: every visible element's box within the page's width (unless a scrolling or
# clipping box holds it: that box is checked itself), and no two visible interactive controls
# overlapping (one inside the other is a control's own part, not an overlap).
LAYOUT = """() => {
  const width = document.documentElement.clientWidth;
  // (a closed <details>'s content keeps boxes in Chromium, not shown: checkVisibility knows)
  const shown = (e) => e.checkVisibility({opacityProperty: true, visibilityProperty: true});
  // a skip link waits beyond the left edge until it is focused: placed there, not pushed there
  const parked = (e, r) => r.right <= 0 && ['absolute', 'fixed'].includes(getComputedStyle(e).position);
  const held = (e) => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement)
    if (getComputedStyle(p).overflowX !== 'visible') return true; return false; };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
    + (e.dataset.card ? `[${e.dataset.card}]` : '');
  const off = [];
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || !shown(e)) continue;
    if ((r.left < -0.5 || r.right > width + 0.5) && !held(e) && !parked(e, r)) off.push(`${name(e)} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  // a control's part one can see: its box cut by every box that clips or scrolls it
  const seen = (e, r = e.getBoundingClientRect(), from = e.parentElement) => { let [l, t, rt, b] = [r.left, r.top, r.right, r.bottom];
    for (let p = from; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p); if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const q = p.getBoundingClientRect(); l = Math.max(l, q.left); t = Math.max(t, q.top); rt = Math.min(rt, q.right); b = Math.min(b, q.bottom); }
    return {left: l, top: t, right: rt, bottom: b, width: rt - l, height: b - t}; };
  const controls = [...document.querySelectorAll('a[href], button, select, input:not([type=hidden]), textarea, summary, [role=button]')]
    .filter(e => shown(e)).map(e => [e, seen(e)]).filter(([, r]) => r.width > 1 && r.height > 1);
  const overlaps = [];
  for (let i = 0; i < controls.length; i++) for (let j = i + 1; j < controls.length; j++) {
    const [a, p] = controls[i], [b, q] = controls[j];
    if (a.contains(b) || b.contains(a)) continue;
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left), h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 1 && h > 1) overlaps.push(`${name(a)} × ${name(b)} (${Math.round(w)}×${Math.round(h)})`);
  }
  // and no control drawn over words outside it (a raised card over its seat's name)
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const holder = n.parentElement;
    if (!n.textContent.trim() || !holder || !shown(holder)) continue;
    const range = document.createRange(); range.selectNodeContents(n);
    for (const box of range.getClientRects()) {
      const t = seen(holder, box, holder);              // words cut by what clips them (a visually hidden label)
      if (t.width < 2 || t.height < 2) continue;
      for (const [c, q] of controls) {
        if (c.contains(holder) || holder.contains(c)) continue;
        const w = Math.min(t.right, q.right) - Math.max(t.left, q.left), h = Math.min(t.bottom, q.bottom) - Math.max(t.top, q.top);
        if (w > 1 && h > 1) overlaps.push(`${name(c)} over "${n.textContent.trim().slice(0, 20)}" (${Math.round(w)}×${Math.round(h)})`);
      }
    }
  }
  return {wide: document.scrollingElement.scrollWidth, width, off: off.slice(0, 12), overlaps: overlaps.slice(0, 12)};
}"""


async def axe_check(page: Any, where: str) -> None:
    """axe-core (axe-playwright-python) finds no serious or critical violation on the page."""
    from axe_playwright_python.async_playwright import Axe

    results = await Axe().run(page)
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]
           if v["impact"] in ("serious", "critical")]
    assert not bad, f"{where}: {bad}"


async def laid_out(page: Any, where: str) -> None:
    """The page's layout holds (`LAYOUT`): nothing off the screen's width, no overlapping controls."""
    g = await page.evaluate(LAYOUT)
    if g["wide"] > g["width"] or g["off"] or g["overlaps"]:
        await page.screenshot(path=str(ARTIFACTS / f"layout-{where.replace(' ', '-').replace('/', '-')}.png"), full_page=True)
    assert g["wide"] <= g["width"] and not g["off"] and not g["overlaps"], f"{where}: {g}"
