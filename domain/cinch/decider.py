"""decide / evolve: the dispatch from a command or event to the module that owns its rule,
nothing else. Each rule checks in the README's order — malformed (`parse_action`), deal
over, wrong phase and turn (`state.verify_turn`), legality — and each evolve function
trusts its event."""

from __future__ import annotations

from typing import Any, Callable, Final

from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal

from domain.cinch import auction, dealing, exchange, play, rulings, scoring
from domain.cinch.commands import Bid, Discard, NameTrump, Pass, Play, Rob
from domain.cinch.events import (BidMade, CardPlayed, CardsDrawn, DealScored, DealStarted, DealVoided,
                                 NonTrumpsDiscarded, PackRobbed, Passed, ScoreAdjusted, TrickWon, TrumpNamed,
                                 TrumpsDiscarded)
from domain.cinch.state import State

_DECIDE: Final[dict[type, Callable[[State, Any], list[Any]]]] = {
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

_EVOLVE: Final[dict[type, Callable[[State, Any], State]]] = {
    DealStarted: dealing.evolve_started,
    BidMade: auction.evolve_bid,
    Passed: auction.evolve_passed,
    TrumpNamed: exchange.evolve_trump_named,
    NonTrumpsDiscarded: exchange.evolve_non_trumps_discarded,
    TrumpsDiscarded: exchange.evolve_trumps_discarded,
    CardsDrawn: exchange.evolve_cards_drawn,
    PackRobbed: exchange.evolve_pack_robbed,
    CardPlayed: play.evolve_card,
    TrickWon: play.evolve_trick,
    DealScored: scoring.evolve_scored,
    DealVoided: rulings.evolve_voided,
    ScoreAdjusted: rulings.evolve_adjusted,
}


def decide(state: State, command: Any) -> list[Any]:
    handler = _DECIDE.get(type(command))
    if handler is None:
        raise RuleViolation("bad_action", f"cinch has no command {type(command).__name__}")
    return handler(state, command)


def evolve(state: State, event: Any) -> State:
    return _EVOLVE[type(event)](state, event)
