"""decide / evolve: the dispatch from a command or event to the module that owns its rule,
nothing else. Each rule checks in the README's order — malformed, deal over
(`state.verify_in_deal`), wrong phase, turn, legality — and each evolve function trusts its
event (no re-validation: replaying a stream must be cheap)."""

from __future__ import annotations

from typing import Any, Callable, Final

from domain.five_hundred import auction, dealing, kitty, play, rulings, scoring
from domain.five_hundred.commands import Bid, Discard, Pass, Play
from domain.five_hundred.events import (
    BidMade, CardPlayed, ContractWon, DealScored, DealStarted, DealVoided, Discarded, HandExposed, KittyTaken, Passed,
    ScoreAdjusted, TrickWon,
)
from domain.five_hundred.state import State
from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal

_DECIDE: Final[dict[type, Callable[[State, Any], list[Any]]]] = {
    StartDeal: dealing.decide_start,
    VoidDeal: rulings.decide_void,
    AdjustScore: rulings.decide_adjust,
    Bid: auction.decide_bid,
    Pass: auction.decide_pass,
    Discard: kitty.decide_discard,
    Play: play.decide_play,
}

_EVOLVE: Final[dict[type, Callable[[State, Any], State]]] = {
    DealStarted: dealing.evolve_started,
    BidMade: auction.evolve_bid,
    Passed: auction.evolve_passed,
    ContractWon: auction.evolve_contract,
    KittyTaken: kitty.evolve_kitty_taken,
    Discarded: kitty.evolve_discard,
    CardPlayed: play.evolve_card,
    TrickWon: play.evolve_trick,
    HandExposed: play.evolve_exposed,
    DealScored: scoring.evolve_scored,
    DealVoided: rulings.evolve_voided,
    ScoreAdjusted: rulings.evolve_adjusted,
}


def decide(state: State, command: Any) -> list[Any]:
    handler = _DECIDE.get(type(command))
    if handler is None:
        raise RuleViolation("bad_action", f"five_hundred has no command {type(command).__name__}")
    return handler(state, command)


def evolve(state: State, event: Any) -> State:
    return _EVOLVE[type(event)](state, event)
