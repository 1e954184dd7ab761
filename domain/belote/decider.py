"""decide / evolve: the dispatch from a command or event to the rule that handles it, with
the README's order of checks: malformed -> deal over -> wrong phase -> turn -> legality
(the last two inside each rule)."""

from __future__ import annotations

from typing import Any, Callable

from msgspec.structs import replace

from domain.cards import SEATS, Seat
from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal

from domain.belote import auction, coinche, dealing, play, rulings, scoring
from domain.belote import combinations as combos
from domain.belote.commands import Bid, Coinche, Declare, Name, Pass, Play, Surcoinche, Take
from domain.belote.events import (AuctionClosed, BidMade, CardPlayed, CombinationDeclared,
                                  CombinationsCompared, CombinationsDeclined, Coinched, DealScored,
                                  DealStarted, DealVoided, Named, Passed, RestDealt, ScoreAdjusted,
                                  Surcoinched, ThrownIn, Took, TrickWon)
from domain.belote.state import Call, Deal, State
from domain.tricks import Trick

_CLASSIC = ("classic", "sans_atout")
_COINCHE = ("coinche",)
_ANY = ("classic", "sans_atout", "coinche")


def _deal_in(state: State, phase: str, action: str) -> Deal:
    """The deal under way, in `phase`, or the reason why not."""
    deal = state.deal
    if deal is None or deal.phase == "over" or state.over:
        raise RuleViolation("deal_over", f"no deal is under way; '{action}' has nothing to act on")
    if deal.phase != phase:
        raise RuleViolation("wrong_phase", f"'{action}' belongs to the {phase}; the deal is in its {deal.phase}")
    return deal


def _for(variants: tuple[str, ...], phase: str, action: str,
         rule: Callable[[State, Deal, Any], list[Any]]) -> Callable[[State, Any], list[Any]]:
    def handler(state: State, command: Any) -> list[Any]:
        if state.options.variant not in variants:
            raise RuleViolation("bad_action", f"'{action}' is not an action of {state.options.variant} belote")
        return rule(state, _deal_in(state, phase, action), command)
    return handler


def _pass(state: State, deal: Deal, command: Pass) -> list[Any]:
    if state.options.variant == "coinche":
        return coinche.decide_pass(deal, command)
    return auction.decide_pass(state.options.variant, deal, command)


def _declare(state: State, deal: Deal, command: Declare) -> list[Any]:
    options = state.options
    if not options.combinations:
        raise RuleViolation("illegal_declare", "this match is played without combinations")
    if not play.may_decline(options, deal, command.seat):
        raise RuleViolation("illegal_declare", f"{command.seat} has no combination left to decline "
                            "(only before the seat's first card, once, holding one)")
    return [CombinationsDeclined(command.seat)]


_DECIDE: dict[type, Callable[[State, Any], list[Any]]] = {
    StartDeal: dealing.decide_start,
    VoidDeal: rulings.decide_void,
    AdjustScore: rulings.decide_adjust,
    Pass: _for(_ANY, "auction", "pass", _pass),
    Take: _for(_CLASSIC, "auction", "take", lambda s, d, c: auction.decide_take(s.options.variant, d, c)),
    Name: _for(("classic",), "auction", "name", lambda s, d, c: auction.decide_name(s.options.variant, d, c)),
    Bid: _for(_COINCHE, "auction", "bid", lambda s, d, c: coinche.decide_bid(s.options, d, c)),
    Coinche: _for(_COINCHE, "auction", "coinche", lambda s, d, c: coinche.decide_coinche(s.options, d, c)),
    Surcoinche: _for(_COINCHE, "auction", "surcoinche", lambda s, d, c: coinche.decide_surcoinche(s.options, d, c)),
    Play: lambda s, c: play.decide_play(s.options, _deal_in(s, "play", "play"), c, s.pool),
    Declare: _for(_ANY, "play", "declare", _declare),
}


def decide(state: State, command: Any) -> list[Any]:
    handler = _DECIDE.get(type(command))
    if handler is None:
        raise RuleViolation("bad_action", f"not a belote command: {type(command).__name__}")
    return handler(state, command)


# --- evolve -------------------------------------------------------------------------------

def _on_deal(change: Callable[[State, Deal, Any], Deal]) -> Callable[[State, Any], State]:
    def evolve_deal(state: State, event: Any) -> State:
        return replace(state, deal=change(state, state.deal, event))
    return evolve_deal


def _passed(state: State, deal: Deal, event: Passed) -> Deal:
    if state.options.variant == "coinche":
        return coinche.evolve_passed(deal, event)
    return auction.evolve_passed(deal, event)


def _rest(state: State, deal: Deal, event: RestDealt) -> Deal:
    hands = {s: deal.hands[s] + tuple(event.cards.get(s, ())) for s in SEATS}
    return replace(deal, hands=hands, stock=())


def _closed(state: State, deal: Deal, event: AuctionClosed) -> Deal:
    """Play begins: eldest leads (§1.3); belote holder and combinations are fixed now, from
    the full hands (§2.6.1, §2.7.4)."""
    options, contract = state.options, event.contract
    found: dict[Seat, tuple] = {}
    if options.combinations:
        nt_table = contract.trump is None and options.official
        for seat in SEATS:
            chosen = combos.choose(combos.find(seat, deal.hands[seat], nt_table), options.official, contract.trump)
            if chosen:
                found[seat] = chosen
    return replace(deal, phase="play", contract=contract, turn=deal.eldest, trick=Trick(leader=deal.eldest),
                   belote_holder=play.belote_holder(deal.hands, contract.trump), combinations=found)


def _called(action: str) -> Callable[[State, Deal, Any], Deal]:
    def add_call(state: State, deal: Deal, event: Any) -> Deal:
        return replace(deal, calls=deal.calls + (Call(event.seat, action, getattr(event, "suit", None)),))
    return add_call


_EVOLVE: dict[type, Callable[[State, Any], State]] = {
    DealStarted: dealing.evolve_started,
    RestDealt: _on_deal(_rest),
    ThrownIn: scoring.evolve_thrown_in,
    Passed: _on_deal(_passed),
    Took: _on_deal(_called("take")),
    Named: _on_deal(_called("name")),
    BidMade: _on_deal(lambda s, d, e: coinche.evolve_bid(d, e)),
    Coinched: _on_deal(lambda s, d, e: coinche.evolve_coinched(d, e)),
    Surcoinched: _on_deal(lambda s, d, e: coinche.evolve_surcoinched(d, e)),
    AuctionClosed: _on_deal(_closed),
    CombinationsDeclined: _on_deal(lambda s, d, e: replace(d, declined=d.declined + (e.seat,))),
    CombinationDeclared: _on_deal(lambda s, d, e: replace(d, declared={**d.declared, e.seat: e.kind})),
    CardPlayed: lambda s, e: replace(s, deal=play.evolve_card(s.deal, e)),
    TrickWon: lambda s, e: replace(s, deal=play.evolve_trick(s.deal, e)),
    CombinationsCompared: _on_deal(lambda s, d, e: replace(d, combination_team=e.team, shown=e.shown,
                                                           combination_points=e.points)),
    DealScored: scoring.evolve_scored,
    DealVoided: rulings.evolve_voided,
    ScoreAdjusted: rulings.evolve_adjusted,
}


def evolve(state: State, event: Any) -> State:
    return _EVOLVE[type(event)](state, event)
