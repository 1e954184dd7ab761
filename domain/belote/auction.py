"""The take-or-pass auction of classic belote (two rounds, §3.2) and sans atout (one round,
§4.1), and the completion of the deal once somebody takes (§3.3, §4.1)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.cards import Seat
from domain.game import RuleViolation, verify

from domain.belote import coinche
from domain.belote.commands import Name, Pass, Take
from domain.belote.events import AuctionClosed, Contract, Named, Passed, RestDealt, ThrownIn, Took
from domain.belote.ranking import BELOTE_SUITS, SUIT
from domain.belote.state import FROM, NEXT, TAKE_OR_PASS, TEAM, Call, Deal, State, deal_in, verify_turn


def rest_of_deal(deal: Deal, taker: Seat) -> dict[Seat, tuple[str, ...]]:
    """From eldest on: 3 cards each, the taker 2 plus the turn-up (classic); 3 each in sans
    atout, which has no turn-up."""
    stock, i, out = deal.stock, 0, {}
    for seat in FROM[deal.eldest]:
        if seat == taker and deal.turn_up is not None:
            out[seat] = (deal.turn_up, *stock[i:i + 2])
            i += 2
        else:
            out[seat] = stock[i:i + 3]
            i += 3
    return out


def may_take(deal: Deal, variant: str) -> bool:
    return variant == "sans_atout" or deal.auction.round == 1


def may_name(deal: Deal, suit: str) -> bool:
    return deal.auction.round == 2 and suit != SUIT[deal.turn_up]


def can_take(deal: Deal, variant: str) -> None:
    verify(may_take(deal, variant), "illegal_bid", "in round 2 a player names a suit or passes; 'take' is for round 1")


def can_name(deal: Deal, suit: str) -> None:
    if not may_name(deal, suit):
        verify(deal.auction.round == 2, "illegal_bid", "a suit is named only in round 2, after four passes")
        raise RuleViolation("illegal_bid",
                            f"round 2 names a suit other than the turn-up's ({SUIT[deal.turn_up]}), §3.2.2 / A-02")


def _closing(deal: Deal, taker: Seat, trump: str | None) -> list[Any]:
    return [RestDealt(rest_of_deal(deal, taker)), AuctionClosed(Contract(taker, TEAM[taker], trump))]


def decide_take(state: State, command: Take) -> list[Any]:
    deal = deal_in(state, "auction", "take", TAKE_OR_PASS)
    variant = state.options.variant
    verify_turn(deal.turn, command.seat)
    can_take(deal, variant)
    trump = SUIT[deal.turn_up] if variant == "classic" else None
    return [Took(command.seat), *_closing(deal, command.seat, trump)]


def decide_name(state: State, command: Name) -> list[Any]:
    deal = deal_in(state, "auction", "name", ("classic",))
    verify_turn(deal.turn, command.seat)
    can_name(deal, command.suit)
    return [Named(command.seat, command.suit), *_closing(deal, command.seat, command.suit)]


def decide_pass(state: State, command: Pass) -> list[Any]:
    """A pass in any variant: Coinche's auction counts passes its own way."""
    deal = deal_in(state, "auction", "pass")
    if state.options.variant == "coinche":
        return coinche.pass_events(deal, command)
    verify_turn(deal.turn, command.seat)
    events: list[Any] = [Passed(command.seat)]
    if deal.auction.passes == 3 and (state.options.variant == "sans_atout" or deal.auction.round == 2):
        events.append(ThrownIn(deal.number))
    return events


def evolve_passed(state: State, event: Passed) -> State:
    if state.options.variant == "coinche":
        return coinche.evolve_passed(state, event)
    deal = state.deal
    auction = deal.auction
    passes = auction.passes + 1
    auction = replace(auction, round=auction.round + 1, passes=0) if passes == 4 else \
        replace(auction, passes=passes)
    return replace(state, deal=replace(deal, auction=auction, turn=NEXT[event.seat],
                                       calls=deal.calls + (Call(event.seat, "pass"),)))


def evolve_took(state: State, event: Took) -> State:
    deal = state.deal
    return replace(state, deal=replace(deal, calls=deal.calls + (Call(event.seat, "take"),)))


def evolve_named(state: State, event: Named) -> State:
    deal = state.deal
    return replace(state, deal=replace(deal, calls=deal.calls + (Call(event.seat, "name", event.suit),)))


def legal_bids(deal: Deal, variant: str) -> list[dict[str, Any]]:
    """What `may_take` and `may_name` (the guards of `can_take` and `can_name`) allow, then
    pass: round 1 (and sans atout) take or pass; round 2 a suit other than the turn-up's."""
    out = [{"action": "take"}] if may_take(deal, variant) else []
    out += [{"action": "name", "suit": s} for s in BELOTE_SUITS if may_name(deal, s)]
    return [*out, {"action": "pass"}]
