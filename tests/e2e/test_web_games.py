"""Every game played to the end in a real browser (headless Chromium, Playwright), by clicking.

A guest plays a short match (`deals: 1`, or 2 for Cinch) against three `bot:basic` bots run
by a real worker: Cinch (a discard of excess trumps, then the dealer's rob of the pack: both
chosen by picking cards on the felt), Five Hundred (the kitty, then the discard of three;
created from the lobby with a turn clock, so the countdown shows) and Coinche (a coinche,
the combinations shown at trick 2, belote and rebelote). Deals that must reach a given
decision are imported as records (`POST /v1/matches` with `record`), arranged from a shuffled
deck by the game's own dealing. At each of the guest's turns every card code in the DOM is
compared with the true hands in the store (nothing still hidden in another hand is shown),
the clickable cards are exactly the view's legal ones, and what each game's view holds
beside the hands (face-up discards, trumps shown, the kitty, combinations shown) is drawn.
At every turn the layout holds, and axe-core finds nothing serious or critical at each
phase's first turn and at the end (`looked_at`): these are the desktop's plays of Coinche,
Cinch and Five Hundred in English in test_web_matrix.py's rotation.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any, Awaitable, Callable

import httpx
import pytest
from web_support import (  # noqa: F401
    axe_check,
    browser,
    card_codes,
    laid_out,
    new_page,
    shot,
    truth,
    web_pool,
    web_svc,
)

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

Choose = Callable[[Any, dict[str, Any]], Awaitable[None]]


def arranged_deck(game: str, options: dict[str, Any], dealer: str, wanted: dict[str, list[str]], seed: int) -> list[str]:
    """A shuffled deck in which each seat of `wanted` is dealt those cards, by the game's own
    dealing: cards dealt to a seat go by position, so moving a card to one of that seat's
    positions gives it to the seat."""
    from domain.cards import Seat
    from domain.game import StartDeal
    from domain.games import load

    rules = load(game)

    def hands(deck: list[str]) -> dict[str, set[str]]:
        state, _ = rules.apply(rules.initial(rules.parse_options(options)), StartDeal(dealer=Seat(dealer), deck=tuple(deck)))
        return {s: set(rules.view(state, Seat(s)).hand or ()) for s in "NESW"}

    deck = list(rules.deck)
    random.Random(seed).shuffle(deck)
    dealt = hands(deck)
    seat_at = {i: next((s for s, cards in dealt.items() if c in cards), None) for i, c in enumerate(deck)}
    for seat, cards in wanted.items():         # a card displaced here is another seat's to place later
        for card in cards:
            j = deck.index(card)
            if seat_at[j] == seat:
                continue
            i = next(i for i, s in seat_at.items() if s == seat and deck[i] not in cards)
            deck[i], deck[j] = deck[j], deck[i]
    got = hands(deck)
    assert all(set(cards) <= got[seat] for seat, cards in wanted.items()), got
    return deck


async def sign_in(browser, base: str, name: str, errors: list[str]):
    page = await new_page(browser, errors)
    await page.goto(f"{base}/")
    await page.fill("#signin-name", name)
    await page.click("#signin-go")
    await page.wait_for_selector("#screen-lobby:not([hidden])")
    return page


async def create_with_record(page, base: str, game: str, options: dict[str, Any], deals: list[dict[str, Any]]) -> str:
    """The guest creates the match through the API (a record is not a lobby option) and opens it."""
    session = await page.evaluate("JSON.parse(localStorage.getItem('atout.session'))")
    seats = {"N": "bot:basic", "E": "bot:basic", "S": "me", "W": "bot:basic"}
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {session['token']}"}) as http:
        out = await http.post("/v1/matches", json={"game": game, "options": options, "seats": seats,
                                                   "record": {"game": game, "deals": deals}})
    assert out.status_code == 201, out.text
    match_id = out.json()["match_id"]
    await page.evaluate(f"location.hash = '#/match/{match_id}'")
    await page.wait_for_selector("body[data-seat=S]")
    return match_id


async def no_hidden_card(page, svc, match_id: str, where: str) -> None:
    shown = set(await card_codes(page))     # the DOM first, then the store: hands only shrink in play
    hands, public, _ = await truth(svc, match_id)
    hidden = set().union(*(cards for s, cards in hands.items() if s != "S")) - public
    leaked = shown & hidden
    assert not leaked, f"{where}: the page shows {sorted(leaked)}, still hidden in other hands {hands}"


async def click_action(page, action: dict[str, Any]) -> None:
    """Click the control that sends `action` (every control carries it in data-action)."""
    level = action.get("value", action.get("tricks")) if action["action"] == "bid" else None
    if level is not None and await page.locator("#bid-level").count():
        await page.select_option("#bid-level", str(level))
    controls = await page.locator("#actions [data-action]").evaluate_all("els => els.map(e => e.dataset.action)")
    for sent in controls:                      # read at once: the controls are not read one by one while redrawn
        if json.loads(sent) == action:
            await page.locator(f"#actions [data-action='{sent}']").click()
            return
    view = await page.evaluate("window.atout.state.view")
    raise AssertionError(f"no control sends {action}: {controls}; {await page.inner_text('#message')!r}; "
                         f"v{view['version']} {view['to_act']} {view['table']['phase']} {view['table']['legal']}")


def legal_of(view: dict[str, Any]) -> list[dict[str, Any]]:
    return view["table"]["legal"]


SNAPSHOT = """() => ({view: window.atout.state.view, version: document.body.dataset.version,
                      status: document.body.dataset.status, automatic: document.body.dataset.automatic,
                      picking: document.body.dataset.picking,
                      clickable: [...document.querySelectorAll("#table .card.legal")].map(e => e.dataset.card),
                      buttons: document.querySelectorAll("#actions button").length})"""


async def play_match(page, svc, match_id: str, choose: Choose, on_turn: Callable[[dict[str, Any]], Awaitable[None]]
                     | None = None, clock: bool = False) -> dict[str, int]:
    """Play the guest's seat to the end of the match by clicking: `choose(page, view)` takes any
    decision that is neither a card to play nor a choice of cards. Counts what was done.

    Under a `clock` the server plays a lone legal action by itself at once: the page offers
    nothing to click once it has the deadline; until then (the clocks' read model follows the
    commit by a moment) a click would race the server's play, so the test never clicks one."""
    done = {"turns": 0, "cards": 0, "picks": 0, "automatic": 0}
    while True:
        await page.wait_for_function(
            "document.body.dataset.myTurn === 'true' || document.body.dataset.status === 'finished'", timeout=30_000)
        await no_hidden_card(page, svc, match_id, f"turn {done['turns']}")
        snap = await page.evaluate(SNAPSHOT)        # the view and what the page drew from it, at once
        if snap["status"] == "finished":
            return done
        version, view, picking = snap["version"], snap["view"], snap["picking"]
        legal = legal_of(view)
        if snap["automatic"] == "true":           # under a clock the server plays a lone legal action
            assert len(legal) == 1 and not snap["clickable"] and not snap["buttons"], snap
        elif on_turn:
            await on_turn(view)
        clickable = page.locator("#table .card.legal")
        lone = len(legal) == 1 and not any(isinstance(v, dict) and v["choose"] != len(v["from"]) for v in legal[0].values())
        if snap["automatic"] == "true" or (clock and lone):
            done["automatic"] += 1
        elif picking:                               # a choice of k cards: pick them on the felt, then send
            k = int(picking)
            choice = next(v for a in legal for v in a.values() if isinstance(v, dict) and "choose" in v)
            codes = await clickable.evaluate_all("els => els.map(e => e.dataset.card)")
            assert sorted(codes) == sorted(choice["from"]) and choice["choose"] == k
            assert await page.locator("#pick-confirm").is_disabled()
            for code in codes[:k]:
                await page.click(f"#table .card.legal[data-card='{code}']")
            await page.wait_for_selector(f"#pick-help:has-text('{k} / {k}')")
            await page.click("#pick-confirm")
            done["picks"] += 1
        elif await clickable.count():
            codes = await clickable.evaluate_all("els => els.map(e => e.dataset.card)")
            assert set(codes) == {a["card"] for a in legal if a["action"] == "play"}
            await clickable.first.click()
            done["cards"] += 1
            forms = page.locator("#actions button.action-play")   # a Joker led in no trumps names a suit
            await page.wait_for_function(
                f"document.body.dataset.version !== '{version}' || document.querySelector('#actions button.action-play')")
            if await page.get_attribute("body", "data-version") == version and await forms.count():
                await forms.first.click()
        else:
            await choose(page, view)
        done["turns"] += 1
        await page.wait_for_function(
            f"document.body.dataset.version !== '{version}' || document.body.dataset.status === 'finished'",
            timeout=30_000)


async def looked_at(page, view: dict[str, Any] | None, phases: set[str], name: str) -> None:
    """The layout holds (`web_support.laid_out`) at every turn; at each phase's first turn,
    and at the end (`view` None), the table is shot and axe-core finds no serious or critical
    violation: these plays are the desktop's in test_web_matrix.py's rotation."""
    phase = view["table"]["phase"] if view else "over"
    where = f"{name} v{view['version'] if view else 'end'} {phase}"
    await laid_out(page, where)
    if phase not in phases:
        phases.add(phase)
        await shot(page, f"{name}-{phase}")
        await axe_check(page, where)


async def finish(page, name: str, errors: list[str], phases: set[str] | None = None) -> None:
    await page.wait_for_selector("#status[data-status=finished]")
    if phases is not None:
        await looked_at(page, None, phases, name)
    await shot(page, name)
    assert not errors, errors


async def test_cinch_discard_and_rob_by_picking_cards(web_system, web_svc, browser):
    """Deal 0: S (eldest) bids 14 in hearts holding nine trumps and sheds three; deal 1: S deals
    and robs the pack, choosing six of his nine and the stock. The last deal's panel counts its
    six points card by card."""
    started = time.monotonic()
    errors: list[str] = []
    page = await sign_in(browser, web_system.base, "Cy", errors)
    hearts = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "5D"]      # 5D: the off five, a trump in hearts
    deals = [{"dealer": "E", "deck": arranged_deck("cinch", {}, "E", {"S": hearts}, seed=1), "actions": []},
             {"dealer": "S", "deck": arranged_deck("cinch", {}, "S", {}, seed=2), "actions": []}]
    match_id = await create_with_record(page, web_system.base, "cinch", {"deals": 2}, deals)
    seen: dict[str, int] = {"discards": 0, "stock": 0}

    async def choose(page, view):
        legal, table = legal_of(view), view["table"]
        if table["phase"] == "auction":
            top = {"action": "bid", "value": 14}
            pass_ = {"action": "pass"}
            await click_action(page, top if table["deal_number"] == 0 and top in legal else pass_ if pass_ in legal else legal[-1])
        else:                                     # naming trumps
            await click_action(page, {"action": "trump", "suit": "H"} if table["deal_number"] == 0 else legal[0])

    phases: set[str] = set()

    async def on_turn(view):
        await looked_at(page, view, phases, "desktop-cinch-en")
        table = view["table"]
        # the face-up non-trumps and the trumps shown, seat by seat, exactly as the view has them
        reused = {c for _, c in table["reused"]}
        for seat in "NESW":
            drawn = await page.eval_on_selector_all(f".seat-extras[data-seat={seat}] .discards [data-card]",
                                                    "els => els.map(e => e.dataset.card)")
            assert drawn == [c for s, c in table["discards"] if s == seat and c not in reused], seat
            drawn = await page.eval_on_selector_all(f".seat-extras[data-seat={seat}] .trumps-shown [data-card]",
                                                    "els => els.map(e => e.dataset.card)")
            assert drawn == [c for s, c in table["shown"] if s == seat], seat
        seen["discards"] = max(seen["discards"], len(table["discards"]))
        if table["phase"] == "discard":
            await shot(page, "20-cinch-discard")
        if table["phase"] == "rob":               # the stock, face up to the robbing dealer only
            stock = await page.eval_on_selector_all(".pile .stock [data-card]", "els => els.map(e => e.dataset.card)")
            assert stock == table["stock"] and table["stock"] is not None
            seen["stock"] = len(stock)
            await shot(page, "21-cinch-rob")

    done = await play_match(page, web_svc, match_id, choose, on_turn)
    assert done["picks"] == 2 and 6 <= done["cards"] <= 12, done   # the discard, the rob; a lone legal card plays itself
    assert seen["discards"] and seen["stock"], seen
    await finish(page, "22-cinch-over", errors, phases)
    # The last deal's panel counts the six points card by card, as its deal_scored credits them.
    scored = await page.evaluate("""async (id) => {
        const token = JSON.parse(localStorage.getItem('atout.session')).token;
        const out = await (await fetch(`/v1/matches/${id}/events?after=0`, {headers: {Authorization: `Bearer ${token}`}})).json();
        return (out.events || out).map(e => e.event || e).filter(e => e.type === 'deal_scored').pop();
    }""", match_id)
    lines = await page.eval_on_selector_all("#deal-summary:not([hidden]) [data-counted]",
                                            "els => els.map(e => [e.dataset.counted, e.textContent])")
    assert [card for card, _ in lines] == [card for card, _ in scored["credits"]], (lines, scored)
    sides = {"NS": "NS", "EW": "EW", None: "dead"}
    assert all(text.endswith(sides[side]) or (side is None and "dead" in text)
               for (_, text), (_, side) in zip(lines, scored["credits"])), lines
    assert time.monotonic() - started < 60


async def a_chosen_level_outlasts_a_redraw(page, level: str) -> bool:
    """The player picks a bid level, then reads the page in Russian and in English again: the
    controls are drawn again in each language, the level still chosen. Then he asks a hint: the
    page reads the view again (the same version) and keeps its controls, the same elements; a
    hinted bid's level is chosen for him, so that its button is there, outlined."""
    async def level_shown(wanted: str) -> None:
        assert await page.input_value("#bid-level") == wanted
        bids = await page.locator("#bid-buttons [data-action]").evaluate_all("els => els.map(e => JSON.parse(e.dataset.action))")
        assert bids and all(b["tricks"] == int(wanted) for b in bids), bids

    await page.select_option("#bid-level", level)
    english = await page.inner_text("#actions .action-pass")
    await page.select_option("#lang", "ru")
    await page.wait_for_function(f"document.querySelector('#actions .action-pass').textContent !== {json.dumps(english)}")
    await level_shown(level)
    await page.select_option("#lang", "en")
    await page.wait_for_function(f"document.querySelector('#actions .action-pass').textContent === {json.dumps(english)}")
    await level_shown(level)
    kept = ("fetch('/v1/players/me', {headers: {Authorization: 'Bearer ' + "
            "JSON.parse(localStorage.getItem('atout.session')).token}}).then(r => r.json()).then(me => me.locale)")
    for _ in range(25):                          # the account keeps the last choice, not the last request to land
        if await page.evaluate(kept) == "en":
            break
        await asyncio.sleep(0.2)
    assert await page.evaluate(kept) == "en"

    await page.evaluate("window.chosenLevel = document.getElementById('bid-level')")
    await page.click("#hint")
    await page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
    assert await page.evaluate("document.getElementById('bid-level') === window.chosenLevel")
    hint = json.loads(await page.get_attribute("body", "data-hint"))
    await level_shown(str(hint["tricks"]) if "tricks" in hint else level)
    outlined = page.locator("#actions [data-action].hinted")
    assert json.loads(await outlined.get_attribute("data-action")) == hint
    if "tricks" in hint:                          # another level and back: the outline comes back with it
        other = next(v for v in await page.locator("#bid-level option").evaluate_all("els => els.map(e => e.value)")
                     if v != str(hint["tricks"]))
        await page.select_option("#bid-level", other)
        assert await outlined.count() == 0
        await page.select_option("#bid-level", str(hint["tricks"]))
        assert json.loads(await outlined.get_attribute("data-action")) == hint
    return True


async def test_five_hundred_kitty_and_discard_from_the_lobby_with_a_clock(web_system, web_svc, browser):
    """S bids 10 no trumps (nothing tops it), sees the kitty marked in his hand, discards three by
    picking them, and plays the deal out; the turn clock's countdown shows at his turns."""
    started = time.monotonic()
    errors: list[str] = []
    page = await sign_in(browser, web_system.base, "Fay", errors)
    await page.select_option("#create-game", "five_hundred")
    await page.fill("#create-deals", "1")
    await page.fill("#create-clock-bid", "300")
    await page.fill("#create-clock-play", "300")
    await page.click("#create-go")
    await page.wait_for_url("**/#/match/*")
    match_id = page.url.rsplit("/match/", 1)[1]
    seen: dict[str, Any] = {"clock": False, "kitty": None, "backs": 0, "level_kept": False}

    async def choose(page, view):
        legal = legal_of(view)
        if not seen["level_kept"] and any(a.get("tricks") == 8 for a in legal):
            seen["level_kept"] = await a_chosen_level_outlasts_a_redraw(page, "8")
        top = {"action": "bid", "tricks": 10, "suit": "NT"}
        await click_action(page, top if top in legal else {"action": "pass"})

    phases: set[str] = set()

    async def on_turn(view):
        await looked_at(page, view, phases, "desktop-five_hundred-en")
        table = view["table"]
        if await page.locator("#clock:not([hidden])").count():
            seen["clock"] = True
        if table["phase"] == "auction":
            seen["backs"] = await page.locator(".pile .kitty .card.back").count()
            assert seen["backs"] == table["kitty_size"] == 3
            assert await page.locator(".pile .kitty [data-card]").count() == 0
        if table["phase"] == "discard":
            await page.wait_for_selector("#table .card.from-kitty")
            marked = await page.eval_on_selector_all("#table .card.from-kitty", "els => els.map(e => e.dataset.card)")
            assert len(marked) == 3 and set(marked) <= set(table["hand"])
            seen["kitty"] = marked
            await shot(page, "23-five-hundred-kitty")
        if table["phase"] == "play" and table["contract"]["seat"] == "S":
            shown = await page.eval_on_selector_all(".seat-extras .discarded [data-card]", "els => els.map(e => e.dataset.card)")
            assert sorted(shown) == sorted(table["discarded"]) and len(shown) == 3

    done = await play_match(page, web_svc, match_id, choose, on_turn, clock=True)
    assert done["picks"] == 1 and 5 <= done["cards"] <= 10, done
    assert seen["kitty"] and seen["clock"] and seen["level_kept"], seen
    await finish(page, "24-five-hundred-over", errors, phases)
    assert time.monotonic() - started < 60


async def test_coinche_with_a_coinche_combinations_and_belote(web_system, web_svc, browser):
    """Official rules (a coinche only in turn), tout atout and sans atout bids on. E (eldest) holds strong hearts and bids; S coinches.
    S holds a tierce (declared at trick 1 by playing, shown to all at trick 2 if it counts) and the king and queen of hearts.
    Wherever S may bid, the level's buttons offer the four suits, all trumps and no trumps."""
    started = time.monotonic()
    errors: list[str] = []
    page = await sign_in(browser, web_system.base, "Coco", errors)
    wanted = {"E": ["JH", "9H", "AH", "TH", "7H", "AS", "AD", "AC"], "S": ["KH", "QH", "7S", "8S", "9S", "KC", "QC", "7D"]}
    options = {"variant": "coinche", "rules": "official", "deals": 1,    # official: a coinche only in turn
               "contracts": "suits_ta_sa"}
    deals = [{"dealer": "N", "deck": arranged_deck("belote", options, "N", wanted, seed=3), "actions": []}]
    match_id = await create_with_record(page, web_system.base, "belote", options, deals)
    seen: dict[str, Any] = {"coinche": False, "shown": [], "announces": set(), "badge": "", "ta_sa": False}

    async def choose(page, view):
        legal, calls = legal_of(view), view["table"]["calls"]
        bids = [a for a in legal if a["action"] == "bid"]
        if bids and not seen["ta_sa"]:
            await page.select_option("#bid-level", str(bids[0]["value"]))
            offered = await page.locator("#bid-buttons [data-action]").evaluate_all(
                "els => els.map(e => [JSON.parse(e.dataset.action).suit, e.textContent])")
            assert [suit for suit, _ in offered] == ["S", "H", "D", "C", "TA", "SA"], offered
            assert "all trumps" in offered[4][1] and "no trumps" in offered[5][1], offered
            seen["ta_sa"] = True
        for wish in ({"action": "coinche"}, {"action": "surcoinche"}):
            if wish in legal:
                await click_action(page, wish)
                seen["coinche"] = True
                return
        if not any(c["action"] == "bid" for c in calls):
            bid = next(a for a in legal if a["action"] == "bid")
            await click_action(page, bid)
        else:
            await click_action(page, {"action": "pass"})

    phases: set[str] = set()

    async def on_turn(view):
        await looked_at(page, view, phases, "desktop-coinche-en")
        table = view["table"]
        if table["phase"] == "auction" and any(c["action"] == "bid" for c in table["calls"]):
            assert await page.locator(".pile .auction-state").count() == 1
        if table["contract"]:
            seen["badge"] = await page.locator("#table .badge.contract").first.inner_text()
        if table["combinations_shown"]:
            for combination in table["combinations_shown"]:
                drawn = await page.eval_on_selector_all(
                    f".seat-extras[data-seat={combination['seat']}] .combination [data-card]", "els => els.map(e => e.dataset.card)")
                assert set(combination["cards"]) <= set(drawn)
            if not seen["shown"]:
                await shot(page, "26-coinche-combinations")
            seen["shown"] = table["combinations_shown"]
        for seat, word in table["announces"]:
            assert await page.locator(f".seat[data-seat={seat}] .badge.announce:has-text('{word}')").count()
            seen["announces"].add(word)
        if table["phase"] == "play" and not table["tricks"] and "auction" not in seen:
            seen["auction"] = True
            await shot(page, "25-coinche-play")

    done = await play_match(page, web_svc, match_id, choose, on_turn)
    assert 4 <= done["cards"] <= 8, done
    final = await page.evaluate("window.atout.state.view")
    assert {"seat": "S", "action": "coinche"} in final["table"]["calls"], final["table"]["calls"]
    assert seen["coinche"] and "coinch" in seen["badge"] and seen["shown"] and seen["ta_sa"], seen
    await finish(page, "27-coinche-over", errors, phases)
    assert time.monotonic() - started < 60
