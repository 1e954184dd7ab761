"""decide / evolve: the dispatch from a command or event to the module that owns its rule,
nothing else. Each rule checks in the README's order — malformed, deal over, wrong phase
(`state.deal_in`), turn, legality — and each evolve function trusts its event."""

from __future__ import annotations

from typing import Any, Callable, Final

from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal

from domain.belote import auction, coinche, dealing, play, rulings, scoring
from domain.belote.commands import Bid, Coinche, Declare, Name, Pass, Play, Surcoinche, Take
from domain.belote.events import (AuctionClosed, BidMade, CardPlayed, CombinationDeclared,
                                  CombinationsCompared, CombinationsDeclined, Coinched, DealScored,
                                  DealStarted, DealVoided, Named, Passed, RestDealt, ScoreAdjusted,
                                  Surcoinched, ThrownIn, Took, TrickWon)
from domain.belote.state import State

_DECIDE: Final[dict[type, Callable[[State, Any], list[Any]]]] = {
    StartDeal: dealing.decide_start,
    VoidDeal: rulings.decide_void,
    AdjustScore: rulings.decide_adjust,
    Pass: auction.decide_pass,
    Take: auction.decide_take,
    Name: auction.decide_name,
    Bid: coinche.decide_bid,
    Coinche: coinche.decide_coinche,
    Surcoinche: coinche.decide_surcoinche,
    Play: play.decide_play,
    Declare: play.decide_declare,
}

_EVOLVE: Final[dict[type, Callable[[State, Any], State]]] = {
    DealStarted: dealing.evolve_started,
    RestDealt: dealing.evolve_rest,
    ThrownIn: scoring.evolve_thrown_in,
    Passed: auction.evolve_passed,
    Took: auction.evolve_took,
    Named: auction.evolve_named,
    BidMade: coinche.evolve_bid,
    Coinched: coinche.evolve_coinched,
    Surcoinched: coinche.evolve_surcoinched,
    AuctionClosed: play.evolve_closed,
    CombinationsDeclined: play.evolve_declined,
    CombinationDeclared: play.evolve_declared,
    CardPlayed: play.evolve_card,
    TrickWon: play.evolve_trick,
    CombinationsCompared: play.evolve_compared,
    DealScored: scoring.evolve_scored,
    DealVoided: rulings.evolve_voided,
    ScoreAdjusted: rulings.evolve_adjusted,
}


def decide(state: State, command: Any) -> list[Any]:
    handler = _DECIDE.get(type(command))
    if handler is None:
        raise RuleViolation("bad_action", f"belote has no command {type(command).__name__}")
    return handler(state, command)


def evolve(state: State, event: Any) -> State:
    return _EVOLVE[type(event)](state, event)
