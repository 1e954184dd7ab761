"""decide and evolve: each command and event goes to the module that owns its rule."""

from __future__ import annotations

from typing import Any

from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal

from domain.cinch import auction, dealing, exchange, play, rulings, scoring
from domain.cinch.commands import Bid, Discard, NameTrump, Pass, Play, Rob
from domain.cinch.events import (BidMade, CardPlayed, DealScored, DealStarted, DealVoided, Passed, ScoreAdjusted,
                                 TrickWon)
from domain.cinch.state import State

DECIDE: dict[type, Any] = {
    StartDeal: dealing.decide_start,
    VoidDeal: rulings.decide_void,
    AdjustScore: rulings.decide_adjust,
    Bid: auction.decide_bid,
    Pass: auction.decide_pass,
    NameTrump: exchange.decide_trump,
    Discard: exchange.decide_discard,
    Rob: exchange.decide_rob,
    Play: play.decide_play,
}

EVOLVE: dict[type, Any] = {
    DealStarted: dealing.evolve_started,
    DealVoided: rulings.evolve_voided,
    ScoreAdjusted: rulings.evolve_adjusted,
    BidMade: auction.evolve_bid,
    Passed: auction.evolve_passed,
    **exchange.EVOLVE,
    CardPlayed: play.evolve_card,
    TrickWon: play.evolve_trick,
    DealScored: scoring.evolve_scored,
}


def decide(state: State, command: Any) -> list[Any]:
    handler = DECIDE.get(type(command))
    if handler is None:
        raise RuleViolation("bad_action", f"cinch has no command {type(command).__name__}")
    return handler(state, command)


def evolve(state: State, event: Any) -> State:
    return EVOLVE[type(event)](state, event)
