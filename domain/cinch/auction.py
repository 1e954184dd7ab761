"""The auction (A.4.1–A.4.3): one round from eldest to the dealer, each seat bids once or
passes; a bid tops the highest so far, from `min_bid` to 14; a pass is final. After three
passes the dealer is stuck: he may not pass (Clarifications, CA-2 (b))."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.cards import Seat
from domain.game import RuleViolation

from domain.cinch.commands import Bid, Pass
from domain.cinch.events import BidMade, Passed
from domain.cinch.state import NEXT, Contract, State, verify_turn

MAX_BID = 14


def lowest_bid(state: State) -> int:
    """The smallest value the seat to speak may bid (15 when nothing is left to top)."""
    floor = state.options.min_bid
    if state.deal.high is not None:
        floor = max(floor, state.deal.high[1] + 1)
    return floor


def stuck(state: State, seat: Seat) -> bool:
    """The dealer after three passes: he must bid."""
    return seat == state.deal.dealer and state.deal.high is None


def can_pass(state: State, seat: Seat) -> RuleViolation | None:
    if stuck(state, seat):
        return RuleViolation("illegal_bid", "the dealer is stuck after three passes: he must bid")
    return None


def can_bid(state: State, value: int) -> RuleViolation | None:
    floor = lowest_bid(state)
    if value < floor:
        if value < state.options.min_bid:
            return RuleViolation("illegal_bid", f"the minimum bid is {state.options.min_bid}",
                                 {"min_bid": state.options.min_bid})
        return RuleViolation("illegal_bid", f"a bid must top the highest bid {floor - 1}", {"lowest": floor})
    return None


def legal_bids(state: State, seat: Seat) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = [] if stuck(state, seat) else [{"action": "pass"}]
    actions.extend({"action": "bid", "value": v} for v in range(lowest_bid(state), MAX_BID + 1))
    return actions


def decide_bid(state: State, command: Bid) -> list[Any]:
    verify_turn(state, command.seat, "auction")
    problem = can_bid(state, command.value)
    if problem:
        raise problem
    return [BidMade(seat=command.seat, value=command.value)]


def decide_pass(state: State, command: Pass) -> list[Any]:
    verify_turn(state, command.seat, "auction")
    problem = can_pass(state, command.seat)
    if problem:
        raise problem
    return [Passed(seat=command.seat)]


def _spoken(state: State, seat: Seat, value: int | None) -> State:
    bids = state.deal.bids + ((seat, value),)
    high = (seat, value) if value is not None else state.deal.high
    if seat != state.deal.dealer:
        return replace(state, deal=replace(state.deal, bids=bids, high=high, turn=NEXT[seat]))
    assert high is not None, "the stuck dealer always leaves a bid"
    contract = Contract(seat=high[0], value=high[1])
    return replace(state, phase="trump", deal=replace(state.deal, bids=bids, high=high, contract=contract,
                                                      turn=high[0]))


def evolve_bid(state: State, event: BidMade) -> State:
    return _spoken(state, event.seat, event.value)


def evolve_passed(state: State, event: Passed) -> State:
    return _spoken(state, event.seat, None)
