"""An open misère bid and played through in the web client (headless Chromium, Playwright).

A guest at a desktop sits S at a one-deal Five Hundred table of basic bots, its deal from a
record (dealer E, so S speaks first; S and the kitty get the thirteen lowest cards, a hand
that takes no trick). He bids open misère from the bid buttons, takes the
kitty and discards by picking cards on the felt, and plays the contract by clicking to its
last trick, made. A
spectator's page shows none of his cards before the first trick is complete and all of them,
face up, after it (the contract's exposure), and never a card of another hand. The match
ends; its record holds his bid.
"""

from __future__ import annotations

import random

import httpx
import pytest
from test_web_games import click_action, legal_of, play_match
from test_web_phone import DESKTOP, context_page, sign_in
from web_support import browser, card_codes, web_pool, web_svc  # noqa: F401

from domain.cards import Seat
from domain.game import StartDeal
from domain.games import load

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

OPEN_MISERE = {"action": "bid", "contract": "open_misere"}
LOWEST = ["4H", "4D", "5S", "5C", "5H", "5D", "6S", "6C", "6H", "6D", "7S", "7C", "7H"]


def misere_deck(dealer: Seat = Seat.E) -> list[str]:
    """A deck that deals S (and the kitty) the thirteen lowest cards, the others shuffled: a
    hand that never takes a trick, so the contract runs past its first trick every time,
    whatever the bots play. Where each card lands is learnt by dealing the game's deck."""
    game = load("five_hundred")
    canonical = list(game.deck)
    state = game.initial(game.parse_options({"deals": 1}))
    for event in game.decide(state, StartDeal(dealer=dealer, deck=tuple(canonical))):
        state = game.evolve(state, event)
    defenders = {c for s in "NEW" for c in game.view(state, Seat(s)).hand}
    low_places = [i for i, card in enumerate(canonical) if card not in defenders]      # S's and the kitty's
    rest = [c for c in canonical if c not in LOWEST]
    random.Random(11).shuffle(rest)
    deck: list[str] = []
    for i in range(len(canonical)):
        deck.append(LOWEST[low_places.index(i)] if i in low_places else rest.pop())
    return deck


async def test_an_open_misere_is_bid_and_played_through_in_the_browser(web_system, web_svc, browser):
    errors: list[str] = []
    page = await context_page(browser, errors, "en-GB", DESKTOP)
    me = await sign_in(page, web_system.base, "Misha")
    deck = misere_deck()
    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {me['token']}"}) as http:
        created = await http.post("/v1/matches", json={
            "game": "five_hundred", "options": {"deals": 1},
            "seats": {"N": "bot:basic", "E": "bot:basic", "S": "me", "W": "bot:basic"},
            "record": {"game": "five_hundred", "deals": [{"dealer": "E", "deck": deck}]}})
        assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]

    watcher_errors: list[str] = []
    watcher = await context_page(browser, watcher_errors, "en-GB", DESKTOP)
    await sign_in(watcher, web_system.base, "Watcher")
    await watcher.evaluate(f"location.hash = '#/match/{match_id}'")
    await watcher.wait_for_selector("body[data-version]")
    seen = {"bid": False, "hidden_before": False, "exposed_after": False}

    async def spectator_sees(view) -> None:
        """What the spectator's page shows, against the store, at each of S's turns."""
        await watcher.wait_for_function(f"Number(document.body.dataset.version) >= {view['version']}")
        shown = set(await card_codes(watcher))
        state = await web_svc.load(match_id)
        hands = {s: set(state.game.view(state.game_state, Seat(s)).hand or ()) for s in "NESW"}
        others = set().union(*(hands[s] for s in "NEW"))
        assert not shown & others, f"v{view['version']}: the spectator sees {sorted(shown & others)}"
        if view["table"].get("phase") == "play" and seen["bid"]:
            if view["table"].get("exposed"):
                assert hands["S"] <= shown, f"v{view['version']}: exposed {sorted(hands['S'] - shown)} not shown"
                seen["exposed_after"] = True
            else:
                assert not hands["S"] & shown, f"v{view['version']}: S's hand shown before the first trick"
                seen["hidden_before"] = True

    async def choose(page, view) -> None:
        legal = legal_of(view)
        if OPEN_MISERE in legal and not seen["bid"]:
            seen["bid"] = True
            return await click_action(page, OPEN_MISERE)
        await click_action(page, {"action": "pass"} if {"action": "pass"} in legal else legal[0])

    await page.evaluate(f"location.hash = '#/match/{match_id}'")
    await page.wait_for_selector("body[data-seat=S]")
    done = await play_match(page, web_svc, match_id, choose, spectator_sees)
    await page.wait_for_selector("#status[data-status=finished]")
    assert seen == {"bid": True, "hidden_before": True, "exposed_after": True}, seen
    assert done["picks"] == 1 and done["cards"] == 10, done        # the kitty's discard, then every trick
    state = await web_svc.load(match_id)
    assert state.game.status(state.game_state).match_score["NS"] > 0   # made: no trick taken
    async with httpx.AsyncClient(base_url=web_system.base, headers={"Authorization": f"Bearer {me['token']}"}) as http:
        record = (await http.get(f"/v1/matches/{match_id}/record")).json()
    assert {"seat": "S", **OPEN_MISERE} in record["deals"][0]["actions"], record["deals"][0]["actions"][:6]
    assert not errors and not watcher_errors, errors + watcher_errors
