"""A Cinch board's par (domain/cinch/par.py) against the real rules: the par contract, bid
through the decider, its trump named, the shed and the rob made by the stated rule, then
played out card by card on the solver's line, scores exactly the par; and the par's search
equals a full minimax over the real auction, seat by seat through the decider's legal calls
(the stuck dealer included)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from domain.cards import DECK_52, TEAM
from domain.cinch import GAME, doubledummy
from domain.cinch.events import DealScored
from domain.cinch.exchange import keep_order
from domain.cinch.par import RULES, _taken, par
from domain.cinch.scoring import deal_score
from domain.cinch.state import Contract

PARTNERSHIP = [{"deals": 1}, {"deals": 1, "failure_scoring": "points_plus_bid", "low_point": "holder", "min_bid": 7}]


def act(state: Any, seat: Any, **action: Any) -> tuple[Any, list[Any]]:
    return GAME.apply(state, GAME.parse_action({"seat": str(seat), **action}))


def exchanged(state: Any, contract: dict[str, Any]) -> Any:
    """The auction that ends on `contract`, its trump named, then each shed and the rob by
    `keep_order`, up to the first lead."""
    while state.phase == "auction":
        seat = state.deal.turn
        if str(seat) == contract["seat"]:
            state = act(state, seat, action="bid", value=contract["value"])[0]
        else:
            state = act(state, seat, action="pass")[0]
    state = act(state, state.deal.turn, action="trump", suit=contract["trump"])[0]
    while state.phase != "play":
        seat = state.deal.turn
        legal = GAME.legal_actions(state, seat)[0]
        spec = legal.get("cards") or legal["keep"]
        order = sorted(spec["from"], key=lambda c: keep_order(contract["trump"], c), reverse=state.phase == "rob")
        field = "cards" if state.phase == "discard" else "keep"
        state = act(state, seat, action=state.phase, **{field: order[:spec["choose"]]})[0]
    return state


def played_out(state: Any) -> DealScored:
    while True:
        seat = state.deal.turn
        solution = doubledummy.solve(state)
        card = next(c for c, v in solution.cards.items() if v == solution.value)
        state, events = act(state, seat, action="play", card=card)
        scored = [e for e in events if isinstance(e, DealScored)]
        if scored:
            return scored[0]


@pytest.mark.parametrize("raw", PARTNERSHIP, ids=["default", "points-holder-7"])
def test_the_par_contract_played_perfectly_scores_the_par(raw: dict[str, Any]) -> None:
    options = GAME.parse_options(raw)
    deck = list(DECK_52)
    random.Random(f"cinch par {raw}").shuffle(deck)
    board = par(options, "W", deck)
    assert board is not None and board.contract is not None and board.unit == "points"
    scored = played_out(exchanged(RULES.dealt(options, "W", deck), board.contract))
    assert dict(scored.score) == board.score
    assert dict(scored.points) == board.card_points


def minimax_auction(options: Any, dealer: str, deck: list[str]) -> dict[str, int]:
    """The auction searched through the decider's legal calls, each bidder then naming the
    trump best for his side; every (bidder, trump) deal played as the par plays it."""
    start = RULES.dealt(options, dealer, deck)

    @cache
    def points(bidder: str, trump: str) -> tuple[tuple[str, int], ...]:
        return tuple(_taken(start, bidder, trump).items())

    def margin(score: dict[str, int], team: str) -> int:
        return score[team] - score["EW" if team == "NS" else "NS"]

    def best(state: Any) -> dict[str, int]:
        seat = state.deal.turn
        team = TEAM[seat]
        if state.phase == "trump":
            contract = state.deal.contract
            return max((deal_score(options, Contract(seat=seat, value=contract.value, trump=a["suit"]),
                                   dict(points(str(seat), a["suit"])))[1]
                        for a in GAME.legal_actions(state, seat)), key=lambda score: margin(score, team))
        return max((best(act(state, seat, **a)[0]) for a in GAME.legal_actions(state, seat)),
                   key=lambda score: margin(score, team))

    return best(start)


@pytest.mark.parametrize("raw, seed", [(PARTNERSHIP[0], "cinch auction"), (PARTNERSHIP[1], "cinch auction"),
                                       (PARTNERSHIP[0], 0)], ids=["default", "points-holder-7", "dealer-stuck"])
def test_the_cinch_par_is_the_minimax_of_the_real_auction(raw: dict[str, Any], seed: Any) -> None:
    options = GAME.parse_options(raw)
    deck = list(DECK_52)
    random.Random(seed).shuffle(deck)
    board = par(options, "N", deck)
    assert board.score == minimax_auction(options, "N", deck)
    if seed == 0:                   # everybody passes to the dealer, who must bid: he holds 1
        assert board.contract == {"seat": "N", "team": "NS", "trump": "C", "value": 1}


def test_cut_throat_cinch_has_no_par() -> None:
    assert par(GAME.parse_options({"mode": "individual", "deals": 1}), "N", list(DECK_52)) is None
