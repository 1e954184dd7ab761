"""A board's par (domain/belote/par.py) against the real rules: the par contract, reached
through the decider and played out card by card on the solver's best line, scores exactly
the par; and Coinche's search over the rising bids equals a full minimax over the real
auction, seat by seat, coinche and surcoinche included."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import msgspec
import pytest

from domain.belote import GAME
from domain.belote.doubledummy import card_points
from domain.belote.events import DealScored
from domain.belote.par import RULES, _contracts, par
from domain.belote.scoring import coinche_score, declared_bonuses
from domain.belote.state import OTHER_TEAM
from domain.cards import DECK_32, TEAM

VARIANTS = [{"deals": 1}, {"deals": 1, "rules": "official"}, {"deals": 1, "variant": "sans_atout"},
            {"deals": 1, "variant": "coinche"}, {"deals": 1, "variant": "coinche", "rules": "official"}]


def act(state: Any, seat: Any, **action: Any) -> tuple[Any, list[Any]]:
    return GAME.apply(state, GAME.parse_action({"seat": str(seat), **action}))


def auction_to(state: Any, contract: dict[str, Any]) -> Any:
    """The auction that ends on `contract`: passes to its seat (into round 2 for a suit other
    than the turn-up's), its take, name or bid, the coinche and surcoinche it carries."""
    if state.options.variant != "coinche":
        turn_up = state.deal.turn_up
        wanted = "take" if contract["trump"] is None or contract["trump"] == turn_up[-1] else "name"
        while True:
            seat = state.deal.turn
            legal = GAME.legal_actions(state, seat)
            choice = {"action": "take"} if wanted == "take" else {"action": "name", "suit": contract["trump"]}
            if str(seat) == contract["seat"] and choice in legal:
                return act(state, seat, **choice)[0]
            state = act(state, seat, action="pass")[0]
    while str(state.deal.turn) != contract["seat"]:
        state = act(state, state.deal.turn, action="pass")[0]
    state = act(state, state.deal.turn, action="bid", value=contract["value"], suit=contract["trump"])[0]
    if contract["multiplier"] > 1:
        state = act(state, state.deal.turn, action="coinche")[0]
        if contract["multiplier"] > 2:
            state = act(state, state.deal.turn, action="surcoinche")[0]
    while state.deal.phase == "auction":
        state = act(state, state.deal.turn, action="pass")[0]
    return state


def played_out(state: Any) -> DealScored:
    """Every seat plays a card the solver values at its best (belote announced, combinations
    declared: both by default) to the deal's score."""
    while True:
        seat = state.deal.turn
        solution = GAME.double_dummy.solve(state)
        card = next(c for c, v in solution.cards.items() if v == solution.value)
        state, events = act(state, seat, action="play", card=card)
        scored = [e for e in events if isinstance(e, DealScored)]
        if scored:
            return scored[0]


@pytest.mark.parametrize("raw", VARIANTS, ids=lambda raw: "-".join(map(str, raw.values())))
def test_the_par_contract_played_perfectly_scores_the_par(raw: dict[str, Any]) -> None:
    options = GAME.parse_options(raw)
    deck = list(DECK_32)
    random.Random(f"par {raw}").shuffle(deck)
    board = par(options, "E", deck)
    assert board.contract is not None            # these decks are not passed out
    scored = played_out(auction_to(RULES.dealt(options, "E", deck), board.contract))
    assert dict(scored.score) == board.score
    assert dict(scored.points) == board.card_points


def minimax_auction(options: Any, dealer: str, deck: list[str]) -> dict[str, int]:
    """The Coinche auction searched seat by seat through the decider (each seat's legal calls
    in turn), leaves scored from the same solved deals: the reference for the par's search."""
    start = RULES.dealt(options, dealer, deck)
    deals = _contracts(start)
    solved = {suit: card_points(s) for suit, s in deals.items()}

    @cache
    def best(key: bytes) -> dict[str, int]:
        state = states[key]
        deal = state.deal
        if deal.phase == "play":
            contract = deal.contract
            P, capot = solved[contract.trump]
            B, K = declared_bonuses(deals[contract.trump], contract.team)
            return coinche_score(contract.team, P, B, K, capot, contract.value, contract.multiplier,
                                 options.official).score
        if deal.phase != "auction":
            return {"NS": 0, "EW": 0}
        seat = deal.turn
        team = TEAM[seat]
        outcomes = []
        for action in GAME.legal_actions(state, seat):
            child = act(state, seat, **action)[0]
            outcomes.append(best(remember(child)))
        return max(outcomes, key=lambda score: score[team] - score[OTHER_TEAM[team]])

    states: dict[bytes, Any] = {}

    def remember(state: Any) -> bytes:
        key = msgspec.json.encode([state.deal.turn, state.deal.auction, state.deal.phase,
                                   state.deal.contract])
        states.setdefault(key, state)
        return key

    return best(remember(start))


@pytest.mark.parametrize("rules", ["house", "official"])
def test_the_coinche_par_is_the_minimax_of_the_real_auction(rules: str) -> None:
    options = GAME.parse_options({"deals": 1, "variant": "coinche", "rules": rules, "combinations": False})
    rng = random.Random(f"coinche auction {rules}")
    for _ in range(2):
        deck = list(DECK_32)
        rng.shuffle(deck)
        assert par(options, "S", deck).score == minimax_auction(options, "S", deck)


def test_coinche_par_bids_tout_atout_when_it_is_the_best_contract():
    """N holds every jack and nine: in tout atout they are the masters of every suit and take
    all eight tricks (252 + the capot bid's 250); in any one trump suit W or E holds four
    trumps over his two and the other jacks and nines are losers. Without the option the par is a suit contract, and worth less."""
    from belote_support import coinche_deck

    deck = coinche_deck("E", {"N": "JS JH JD JC 9S 9H 9D 9C".split(), "S": "7S 8S 7H 8H 7D 8D 7C 8C".split(),
                              "W": "AS TS KS QS AH TH KH QH".split(), "E": "AD TD KD QD AC TC KC QC".split()})
    options = GAME.parse_options({"variant": "coinche", "contracts": "suits_ta_sa", "combinations": False})
    best = par(options, "E", deck)
    assert best.contract == {"seat": "N", "team": "NS", "trump": "TA", "value": "capot", "multiplier": 1}
    assert best.score == {"NS": 502, "EW": 0}
    suits = par(GAME.parse_options({"variant": "coinche", "combinations": False}), "E", deck)
    assert suits.contract["trump"] in ("S", "H", "D", "C") and suits.score["NS"] < 502


@pytest.mark.parametrize("raw", VARIANTS, ids=lambda raw: "-".join(map(str, raw.values())))
def test_a_cards_margin_is_the_score_its_perfect_line_ends_with(raw: dict[str, Any]) -> None:
    """`margins` turns each card's solved points into the deal's score margin: the best card's
    is what the solver's line scores through the real rules, and a card with more points
    never has a smaller margin."""
    options = GAME.parse_options(raw)
    deck = list(DECK_32)
    random.Random(f"margins {raw}").shuffle(deck)
    board = par(options, "E", deck)
    assert board.contract is not None
    state = auction_to(RULES.dealt(options, "E", deck), board.contract)
    team = TEAM[state.deal.turn]
    margins = GAME.double_dummy.margins(state)
    points = GAME.double_dummy.solve(state).cards
    assert margins.keys() == points.keys()
    for a in points:
        for b in points:
            if points[a] > points[b]:
                assert margins[a] >= margins[b]
    scored = played_out(state)
    assert max(margins.values()) == scored.score[team] - scored.score[OTHER_TEAM[team]]
    for _ in range(6):                  # into the second trick: the combinations compared
        solution = GAME.double_dummy.solve(state)
        card = next(c for c, v in solution.cards.items() if v == solution.value)
        state = act(state, state.deal.turn, action="play", card=card)[0]
    team = TEAM[state.deal.turn]
    assert max(GAME.double_dummy.margins(state).values()) == \
        scored.score[team] - scored.score[OTHER_TEAM[team]]
