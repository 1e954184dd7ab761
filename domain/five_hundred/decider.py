"""decide and evolve: one dispatch table per direction; the rules live in dealing.py,
auction.py, kitty.py, play.py, scoring.py and rulings.py.

`decide` checks in the README's order — malformed, deal over, wrong phase, turn, legality —
and `evolve` trusts its events (no re-validation: replaying a stream must be cheap).
"""

from __future__ import annotations

from typing import Any, Callable

import msgspec

from domain.five_hundred import auction, dealing, kitty, play, rulings, scoring
from domain.five_hundred.bids import find
from domain.five_hundred.commands import Bid, Discard, Pass, Play
from domain.five_hundred.events import (
    BidMade, CardPlayed, DealStarted, ContractWon, DealScored, DealVoided, Discarded, HandExposed, KittyTaken, Passed,
    ScoreAdjusted, TrickWon,
)
from domain.five_hundred.state import IN_DEAL, State
from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal, verify


# --- decide ----------------------------------------------------------------------------------

def _in_deal(decider: Callable[[State, Any], list[Any]]) -> Callable[[State, Any], list[Any]]:
    """A seat's decision: shape first, then 'deal over', then the decider's own checks."""
    def checked(state: State, command: Any) -> list[Any]:
        if state.phase not in IN_DEAL:
            _malformed(command)
            raise RuleViolation("deal_over", "no deal is being played")
        return decider(state, command)
    return checked


def _malformed(command: Any) -> None:
    """The shape checks a decider makes before 'deal over', so the order holds everywhere."""
    if isinstance(command, Bid):
        verify(find(command.tricks, command.suit, command.contract) is not None, "bad_action", "no such bid")
    elif isinstance(command, Discard):
        verify(len(command.cards) == 3 and len(set(command.cards)) == 3, "bad_action",
               "discard exactly three different cards")


_DECIDE: dict[type, Callable[[State, Any], list[Any]]] = {
    StartDeal: dealing.decide_start,
    Bid: _in_deal(auction.decide_bid),
    Pass: _in_deal(auction.decide_pass),
    Discard: _in_deal(kitty.decide_discard),
    Play: play.decide_play,   # the hot path checks shape, deal over and phase itself
    VoidDeal: rulings.decide_void,
    AdjustScore: rulings.decide_adjust,
}


def decide(state: State, command: Any) -> list[Any]:
    decider = _DECIDE.get(type(command))
    if decider is None:
        raise RuleViolation("bad_action", f"five_hundred has no command {type(command).__name__}")
    return decider(state, command)


# --- evolve ----------------------------------------------------------------------------------

def _fields(change: Callable[[State, Any], dict[str, Any]]) -> Callable[[State, Any], State]:
    """Most events change a few fields: their evolve functions return just those."""
    def evolve_one(state: State, event: Any) -> State:
        return msgspec.structs.replace(state, **change(state, event))
    return evolve_one


_EVOLVE: dict[type, Callable[[State, Any], State]] = {
    DealStarted: _fields(dealing.evolve_started),
    BidMade: _fields(auction.evolve_bid),
    Passed: _fields(auction.evolve_passed),
    ContractWon: _fields(auction.evolve_contract),
    KittyTaken: _fields(kitty.evolve_kitty_taken),
    Discarded: _fields(kitty.evolve_discard),
    CardPlayed: play.evolve_card,        # the hot pair returns the new state itself
    TrickWon: play.evolve_trick,
    HandExposed: _fields(play.evolve_exposed),
    DealScored: _fields(scoring.evolve_scored),
    DealVoided: _fields(rulings.evolve_voided),
    ScoreAdjusted: _fields(rulings.evolve_adjusted),
}


def evolve(state: State, event: Any) -> State:
    return _EVOLVE[type(event)](state, event)
