"""Cinch par: a partnership board's result when the auction and the play are both perfect,
every hand known (A.4, A.6).

Who bids and which trump he names decide every hand after the auction: the non-dealers'
non-trumps go face up by rule and the draws come off the stock in a fixed order, so each of
the sixteen (bidder, trump) pairs is driven through the real decider and played out on the
solver's line — the game's own scoring then says what it is worth. The choices left to a
player there (a non-dealer over six trumps, the robbing dealer) follow `keep_order`: counting
trumps first, the other trumps, then aces and kings. The auction is searched seat by seat
from eldest, each seat bidding what is best for its side or passing (the stuck dealer must
bid). Each side plays to take the most points it can (the solver's
measure); ties go to passing and to the lower bid. Cut-throat Cinch has no partnerships and
no par.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from domain.cards import SEATS, SUITS, TEAM
from domain.cinch import doubledummy
from domain.cinch.actions import legal_actions, parse_action
from domain.cinch.auction import MAX_BID
from domain.cinch.decider import decide, evolve
from domain.cinch.events import DealScored
from domain.cinch.exchange import keep_order
from domain.cinch.options import Options
from domain.cinch.scoring import deal_score
from domain.cinch.state import Contract, State, initial, non_dealers
from domain.par import NOBODY, Driver, Par, margin

RULES = Driver(initial, decide, evolve, parse_action)


def _choose(state: State, seat: str, choose: int, cards: list[str], best: bool) -> list[str]:
    order = sorted(cards, key=lambda c: keep_order(state.deal.contract.trump, c), reverse=best)
    return order[:choose]


def _taken(state: State, bidder: str, trump: str) -> dict[str, int]:
    """Each side's points with `bidder` holding the contract in `trump`, played perfectly."""
    for seat in (*non_dealers(state.deal.dealer), state.deal.dealer):
        if seat == bidder:
            state = RULES.act(state, seat, action="bid", value=state.options.min_bid)
        else:
            state = RULES.act(state, seat, action="pass")
    state = RULES.act(state, bidder, action="trump", suit=trump)
    while state.phase in ("discard", "rob"):
        seat = state.deal.turn
        legal = legal_actions(state, seat)[0]
        if state.phase == "discard":
            spec = legal["cards"]
            state = RULES.act(state, seat, action="discard",
                              cards=_choose(state, seat, spec["choose"], spec["from"], best=False))
        else:
            spec = legal["keep"]
            state = RULES.act(state, seat, action="rob",
                              keep=_choose(state, seat, spec["choose"], spec["from"], best=True))
    return dict(RULES.played_out(state, doubledummy.solve, DealScored).points)


def par(options: Options, dealer: str, deck: Sequence[str]) -> Par | None:
    """The board's par (None in cut-throat): its contract, each side's score and points."""
    if options.individual:
        return None
    state = RULES.dealt(options, dealer, deck)
    taken = {(bidder, trump): _taken(state, bidder, trump) for bidder in SEATS for trump in SUITS}

    def contract(bidder: str, value: int) -> Par:
        """`bidder`'s side holds `value`: he names the trump that serves it best."""
        team = TEAM[bidder]
        best: Par | None = None
        for trump in SUITS:
            points = taken[(bidder, trump)]
            _, score = deal_score(options, Contract(seat=bidder, value=value, trump=trump), points)
            outcome = Par({"seat": str(bidder), "team": team, "trump": trump, "value": value}, score, points, "points")
            if best is None or margin(outcome, team) > margin(best, team):
                best = outcome
        assert best is not None
        return best

    speakers = (*non_dealers(state.deal.dealer), state.deal.dealer)

    @cache
    def auction(i: int, high: tuple[str, int] | None) -> Par:
        if i == len(speakers):
            return contract(*high) if high is not None else Par(None, dict(NOBODY), dict(NOBODY), "points")
        seat = speakers[i]
        team = TEAM[seat]
        stuck = high is None and i == len(speakers) - 1
        best = None if stuck else auction(i + 1, high)
        lowest = options.min_bid if high is None else high[1] + 1
        for value in range(lowest, MAX_BID + 1):
            outcome = auction(i + 1, (seat, value))
            if best is None or margin(outcome, team) > margin(best, team):
                best = outcome
        assert best is not None
        return best

    return auction(0, None)


__all__ = ["par"]
