"""decide and evolve: each command and event goes to the module that owns its rule."""

from __future__ import annotations

from typing import Any

from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal

from . import auction, dealing, exchange, play
from .messages import (Bid, BidMade, CardPlayed, DealScored, DealStarted, DealVoided, Discard, NameTrump, Pass,
                       Passed, Play, Rob, ScoreAdjusted, TrickWon)
from .state import State

DECIDE: dict[type, Any] = {
    StartDeal: dealing.decide_start,
    VoidDeal: dealing.decide_void,
    AdjustScore: dealing.decide_adjust,
    Bid: auction.decide_bid,
    Pass: auction.decide_pass,
    NameTrump: exchange.decide_trump,
    Discard: exchange.decide_discard,
    Rob: exchange.decide_rob,
    Play: play.decide_play,
}

EVOLVE: dict[type, Any] = {
    DealStarted: dealing.evolve_start,
    DealVoided: dealing.evolve_void,
    ScoreAdjusted: dealing.evolve_adjust,
    BidMade: auction.evolve_bid,
    Passed: auction.evolve_pass,
    **exchange.EVOLVE,
    CardPlayed: play.evolve_card_played,
    TrickWon: play.evolve_trick_won,
    DealScored: play.evolve_deal_scored,
}


def decide(state: State, command: Any) -> list[Any]:
    handler = DECIDE.get(type(command))
    if handler is None:
        raise RuleViolation("bad_action", f"cinch has no command {type(command).__name__}")
    return handler(state, command)


def evolve(state: State, event: Any) -> State:
    return EVOLVE[type(event)](state, event)
