"""The table and the pages around it say what happened, where it happened, in the reader's
language (headless Chromium, Playwright).

A guest whose browser speaks French plays one Belote deal against bots. The replay seats each
card of every trick where it was played (Belote turns counter-clockwise: N→W→S→E, so the
record's cards from the leader are not the clockwise seats), and the dispute form counts deals
from 1, as the score sheet and the replay do (the API from 0). The admin page, in French, says
that deal is deal 1, says its verification and the sides in French (NS · EO) and the recorded
result in words, not JSON.

An English guest's page then draws hands as their players hold them: a Five Hundred hand with
spades trump has the Joker, the right bower (J♠) and the left bower (J♣) above A♠, all lit as
trumps; a Cinch hand with hearts trump has the Left Pedro (5♦) just below the Five of trumps,
lit as a trump. A Five Hundred misère trick's three cards pass over the contractor's partner.
Under Coinche's House rules `to_act` also names the seats that may coinche out
of turn: only the seat in turn carries "to play". The log reads a Cinch bid as "N bids 5" in
every language; Russian says "online", not "on air". The leaderboard shows a rating of −1.5 as
it is and explains its "?"; "My profile" is not the current page on another player's profile;
the clock's stopwatch is drawn, not a character no font of the page holds.

Screenshots: test-artifacts/web-table-words/.
"""

from __future__ import annotations

import json

import httpx
import pytest
from test_web_phone import DESKTOP, context_page, sign_in, snap
from web_support import browser, finished_deal, fresh_artifacts, web_pool, web_svc  # noqa: F401

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

FR_SEATS = {"N": "N", "E": "E", "S": "S", "W": "O"}


@pytest.fixture(scope="module")
def shots():
    return fresh_artifacts("web-table-words")


async def test_a_belote_deal_replayed_disputed_and_reviewed_in_french(web_system, web_svc, browser, shots) -> None:
    errors: list[str] = []
    page = await context_page(browser, errors, "fr-FR", DESKTOP)
    session = await sign_in(page, web_system.base, "Élise")
    match_id = await finished_deal(web_system.base, web_svc, session)
    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {session['token']}"}) as http:
        record = (await http.get(f"/v1/matches/{match_id}/record")).json()
    plays = [(a["seat"], a["card"]) for a in record["deals"][0]["actions"] if a["action"] == "play"]
    assert len(plays) == 32, plays

    # the dispute form counts deals from 1; the deal disputed is the API's deal 0
    await page.goto(f"{web_system.base}/#/match/{match_id}")
    await page.wait_for_selector("body[data-status=finished]")
    await page.wait_for_selector("#dispute-panel:not([hidden])")
    assert await page.input_value("#dispute-deal") == "1"
    await page.fill("#dispute-reason", "O a renoncé au pli 3")
    await page.click("#dispute-form button[type=submit]")
    await page.wait_for_selector("#message:has-text('litige signalé')")

    # the replay: every card of every trick at the seat that played it
    await page.goto(f"{web_system.base}/#/replay/{match_id}")
    await page.wait_for_selector("#replay-deal option", state="attached")
    assert await page.inner_text("#replay-deal option") == "donne 1"
    for n in range(1, 9):
        await page.click("#replay-next")
        await page.wait_for_selector(f"body[data-replay-step='{n}']")
        shown = await page.eval_on_selector_all(
            "#replay-trick .last-play", "els => els.map(e => [e.querySelector('small').textContent, e.querySelector('[data-card]').dataset.card])")
        assert shown == [[FR_SEATS[s], c] for s, c in plays[4 * (n - 1):4 * n]], (n, shown)
    await snap(page, shots, "01-replay-trick-8")

    # the admin page in French
    token = web_system.admin_token("arbitre")
    admin = await context_page(browser, errors, "fr-FR", DESKTOP)
    await admin.goto(f"{web_system.base}/admin")
    await admin.fill("#admin-token", token)
    await admin.click("#admin-token-form button")
    item = admin.locator(f"#queue li:has-text('{match_id}')")
    assert "donne 1 ·" in await item.inner_text()
    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {token}"}) as http:
        queued = [d for d in (await http.get("/v1/admin/disputes?status=all")).json() if d["match_id"] == match_id]
    assert [d["deal"] for d in queued] == [0], queued
    # any deal by match and number: the first is 1 there too
    assert await admin.input_value("#deal-number") == "1"
    await admin.fill("#deal-match", match_id)
    await admin.click("#deal-form button[type=submit]")
    await admin.wait_for_selector(f"body[data-replay='{match_id}:0:table']")
    await item.locator("button").click()
    await admin.wait_for_selector("#ruling-form")
    rows = dict(await admin.eval_on_selector_all("#replay-head table.kv tr", "els => els.map(e => [...e.cells].map(c => c.textContent))"))
    assert rows["donne"] == "1", rows
    assert rows["vérification"] == "vérifiée", rows
    recorded = await admin.inner_text("#recorded-result")
    assert "{" not in recorded and recorded.startswith("enregistré : ") and "score : " in recorded, recorded
    assert "EO " in recorded and "NS " in recorded and "EW" not in recorded, recorded
    await admin.click("#step-last")
    await admin.wait_for_selector("#step-info:has-text('score : NS')")
    assert "· EO " in await admin.inner_text("#step-info")
    await snap(admin, shots, "02-admin-fr")
    assert not errors, json.dumps(errors)


# The hands and words drawn by the page's own modules, in the page (the app's i18n loaded).
DRAWN = """async () => {
  const { renderTable, trickPlays } = await import('/web/shared/table.js');
  const { setLocale, t } = await import('/web/shared/i18n.js');
  const { eventText } = await import('/web/shared/words.js');
  const root = document.createElement('div');
  document.body.append(root);
  const hand = (table, cards, opts = {}) => {
    renderTable(root, table, { hands: { S: cards }, ...opts });
    const els = [...root.querySelectorAll('.hand[data-seat=S] [data-card]')];
    return { order: els.map(e => e.dataset.card), trumps: els.filter(e => e.classList.contains('trump')).map(e => e.dataset.card) };
  };
  const out = {};
  // a Five Hundred misère trick led by its contractor E, his partner W sitting out
  out.misere = trickPlays({ leader: 'E', cards: ['AS', 'KS', 'QS'], winner: 'E' }, 'five_hundred', 'W');
  out.five_hundred = hand({ game: 'five_hundred', phase: 'play', contract: { seat: 'S', team: 'NS', trump: 'S', tricks: 7 } },
                          ['AC', 'JH', 'KS', 'JC', 'QC', '4H', 'AS', 'JK', 'JS', '9D']);
  out.cinch = hand({ game: 'cinch', phase: 'play', contract: { seat: 'S', value: 7, trump: 'H' } },
                   ['AD', '2H', '5S', '5D', 'KS', '4H', '5H', 'AH', '5C']);
  renderTable(root, { game: 'belote', phase: 'auction', turn: 'W', dealer: 'N',
                      calls: [{ seat: 'E', action: 'pass' }, { seat: 'S', action: 'bid', value: 80, suit: 'H' }] },
              { toAct: ['W', 'N', 'E'] });
  out.badges = [...root.querySelectorAll('.seat')].filter(s => s.querySelector('.badge.turn')).map(s => s.dataset.seat);
  const { renderGlance } = await import('/web/matches/glance.js');
  renderGlance({ status: 'playing', to_act: ['W', 'N', 'E'], table: { game: 'belote', phase: 'auction', turn: 'W' } }, false);
  out.glance = document.getElementById('glance-turn').textContent;
  document.getElementById('glance').replaceChildren();
  root.remove();
  out.bids = {};
  for (const lng of ['en', 'fr', 'pl', 'ru']) {
    await setLocale(lng, { keep: false });
    out.bids[lng] = eventText({ type: 'bid_made', seat: 'N', value: 5 });
    if (lng === 'ru') out.live = [t('conn.open'), t('tournaments.live'), t('tournaments.last_event', { what: '…' })];
  }
  await setLocale('en', { keep: false });
  return out;
}"""


async def test_hands_badges_and_words_as_players_read_them(web_system, browser, shots) -> None:
    errors: list[str] = []
    page = await context_page(browser, errors, "en-GB", DESKTOP)
    me = await sign_in(page, web_system.base, "Grace")
    drawn = await page.evaluate(DRAWN)
    assert drawn["five_hundred"] == {"order": ["JK", "JS", "JC", "AS", "KS", "JH", "4H", "AC", "QC", "9D"],
                                     "trumps": ["JK", "JS", "JC", "AS", "KS"]}, drawn
    assert drawn["cinch"] == {"order": ["AH", "5H", "5D", "4H", "2H", "KS", "5S", "AD", "5C"],
                              "trumps": ["AH", "5H", "5D", "4H", "2H"]}, drawn
    assert drawn["misere"] == [["E", "AS"], ["S", "KS"], ["N", "QS"]], drawn
    assert drawn["badges"] == ["W"] and drawn["glance"] == "W to play", drawn
    assert drawn["bids"] == {"en": "N bids 5", "fr": "N annonce 5", "pl": "N licytuje 5", "ru": "С: заявка 5"}, drawn
    assert not any("эфир" in x for x in drawn["live"]), drawn

    # the clock: a drawn stopwatch and the time
    await page.evaluate("""async () => { const { renderClock } = await import('/web/matches/glance.js');
                                         renderClock(new Date(Date.now() + 90_000).toISOString()); }""")
    clock = page.locator("#clock")
    assert await clock.locator("svg.stopwatch").count() == 1
    assert (await clock.text_content()) in ("1:30", "1:29", "1:28"), await clock.text_content()
    await page.evaluate("async () => (await import('/web/matches/glance.js')).renderClock(null)")

    # the leaderboard: a rating as it is, and its "?" explained
    board = {"pool": "belote_classic", "offset": 0, "limit": 50, "total": 1, "entries": [
        {"rank": 1, "player_id": me["player_id"], "name": "Grace", "rating": -1.5, "mu": 24.0, "sigma": 8.5, "games": 3,
         "wins": 1, "provisional": True}]}
    await page.route("**/v1/leaderboards/**", lambda route: route.fulfill(json=board))
    await page.evaluate("location.hash = '#/leaderboards'")
    await page.wait_for_selector("#leaderboard tbody td abbr.provisional")
    cells = await page.eval_on_selector_all("#leaderboard tbody td", "els => els.map(e => e.textContent)")
    assert cells[2] == "-1.5 ?", cells
    explained = "provisional: fewer than 10 rated matches in this way of playing"
    assert await page.get_attribute("#leaderboard abbr.provisional", "title") == explained
    assert await page.is_visible("#leaderboard-legend")
    assert "provisional rating" in await page.inner_text("#leaderboard-legend")
    await snap(page, shots, "03-leaderboard")

    # "My profile" is current on mine only
    async with httpx.AsyncClient(base_url=web_system.base) as http:
        other = (await http.post("/v1/players", json={"name": "Ada"})).json()
    await page.evaluate(f"location.hash = '#/player/{other['player_id']}'")
    await page.wait_for_selector("body[data-screen=player]")
    await page.wait_for_selector("#player-name:has-text('Ada')")
    assert await page.get_attribute("#nav-me", "aria-current") is None
    await page.evaluate(f"location.hash = '#/player/{me['player_id']}'")
    await page.wait_for_selector("#nav-me[aria-current=page]")
    assert not errors, json.dumps(errors)
