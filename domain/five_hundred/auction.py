"""The continuous auction (B.3): bid or pass in turn, clockwise, until three have passed
after a bid; a pass is final; 10NT closes it at once; four passes throw the deal in.

`can_bid` says why a bid is refused; `decide_*` turn a legal call into events and notice
when the call ends the auction (the contract, and the kitty going to the contractor).
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.cards import SEATS
from domain.five_hundred import bids
from domain.five_hundred.commands import Bid, Pass
from domain.five_hundred.events import BidMade, ContractWon, DealScored, KittyTaken, Passed
from domain.five_hundred.state import AUCTION, DISCARD, SEAT_INDEX, State, make_contract, verify_in_deal
from domain.game import RuleViolation, verify

_PASS = {"action": "pass"}


def next_bidder(passed: tuple[bool, ...], index: int) -> int:
    """The next seat clockwise that has not passed (a pass is final, CB-5)."""
    for step in range(1, 4):
        nxt = (index + step) % 4
        if not passed[nxt]:
            return nxt
    return index


def can_bid(state: State, index: int) -> None:
    """A bid is legal when `bids.biddable` lists it (as `legal_bids` does); `why_not` says why not."""
    high, misere = state.deal.high, state.options.misere
    if index not in bids.biddable(high, misere):
        reason = bids.why_not(index, high, misere) or f"{bids.BIDS[index].describe()} may not be bid now"
        raise RuleViolation("illegal_bid", reason, {"bid": bids.BIDS[index].action()})


def _verify_turn(state: State, seat: Any) -> None:
    if state.phase != AUCTION:
        raise RuleViolation("wrong_phase", "the auction is over")
    if state.deal.turn != seat:
        raise RuleViolation("not_your_turn", f"it is {state.deal.turn}'s turn to bid", {"turn": str(state.deal.turn)})


def _close(state: State, high: int, seat: Any) -> list[Any]:
    """The contract goes to the highest bidder, who takes the kitty (B.4.1)."""
    spec = bids.BIDS[high]
    return [ContractWon(seat=seat, tricks=spec.tricks, suit=spec.suit, contract=spec.kind, value=spec.value),
            KittyTaken(seat=seat, cards=state.deal.kitty)]


def decide_bid(state: State, command: Bid) -> list[Any]:
    index = bids.find(command.tricks, command.suit, command.contract)
    verify(index is not None, "bad_action", "a bid is tricks 6..10 with suit S, C, D, H or NT, "
           "or contract 'misere' / 'open_misere'")
    verify_in_deal(state)
    _verify_turn(state, command.seat)
    can_bid(state, index)  # type: ignore[arg-type]
    events: list[Any] = [BidMade(seat=command.seat, tricks=command.tricks, suit=command.suit,
                                 contract=command.contract)]
    if index == bids.HIGHEST or sum(state.deal.passed) == 3:
        events += _close(state, index, command.seat)  # type: ignore[arg-type]
    return events


def decide_pass(state: State, command: Pass) -> list[Any]:
    verify_in_deal(state)
    _verify_turn(state, command.seat)
    events: list[Any] = [Passed(seat=command.seat)]
    passes = sum(state.deal.passed) + 1
    if passes == 4:
        # B.3.7 / CB-4 (a): thrown in, nobody scores, the deal passes to the left.
        events.append(DealScored(deal=state.deals_played - 1, result="thrown_in", points={"NS": 0, "EW": 0},
                                 score={"NS": 0, "EW": 0}))
    elif passes == 3 and state.deal.high >= 0:
        bidder = next(seat for seat, call in reversed(state.deal.auction) if call == state.deal.high)
        events += _close(state, state.deal.high, bidder)
    return events


def legal_bids(state: State) -> list[dict[str, Any]]:
    """Pass, then every bid over the current one, low to high."""
    table = bids.ACTIONS
    return [dict(_PASS)] + [dict(table[i]) for i in bids.biddable(state.deal.high, state.options.misere)]


def evolve_bid(state: State, event: BidMade) -> State:
    index = bids.find(event.tricks, event.suit, event.contract)
    i = SEAT_INDEX[event.seat]
    deal = state.deal
    return replace(state, deal=replace(deal, auction=deal.auction + ((event.seat, index),), high=index,
                                       turn=SEATS[next_bidder(deal.passed, i)]))


def evolve_passed(state: State, event: Passed) -> State:
    i = SEAT_INDEX[event.seat]
    deal = state.deal
    passed = deal.passed[:i] + (True,) + deal.passed[i + 1:]
    return replace(state, deal=replace(deal, auction=deal.auction + ((event.seat, -1),), passed=passed,
                                       turn=SEATS[next_bidder(passed, i)]))


def evolve_contract(state: State, event: ContractWon) -> State:
    index = bids.find(event.tricks, event.suit, None if event.contract == "tricks" else event.contract)
    contract = make_contract(event.seat, index)  # type: ignore[arg-type]
    return replace(state, phase=DISCARD, deal=replace(state.deal, contract=contract, turn=event.seat))
