"""What one seat (or a spectator, `None`) may see: the only way anything leaves the rules.

A seat sees its own hand, its legal actions and everything public — bids, the contract,
face-up discards, trumps shown, how many cards each seat drew and the robbing dealer took,
the tricks. It never sees another seat's hand, the stock, or the dealer's face-down
cards; the dealer alone sees the stock while he robs it, and his own buried cards after.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final

import msgspec
from msgspec.structs import replace

from domain.cards import Seat
from domain.envelope import Envelope, deal_index, zero
from domain.tricks import Trick

from domain.cinch.actions import legal_actions
from domain.cinch.events import CardsDrawn, DealStarted, PackRobbed
from domain.cinch.options import Options, sides
from domain.cinch.scoring import credits, points_of
from domain.cinch.state import Contract, State


ALIASES: Final = MappingProxyType({"deal_number": "deal_index"})
"""Deprecated view fields equal to an envelope field (old name -> envelope name)."""


class DealScore(msgspec.Struct, frozen=True):
    """One finished deal in the score sheet."""

    deal: int
    dealer: Seat
    contract: Contract
    result: str
    points: dict[str, int]
    score: dict[str, int]
    voided: bool
    adjustments: tuple[dict[str, int], ...]


class CinchView(Envelope, frozen=True, kw_only=True):
    """The envelope (`deal_points`: the counting points — high, low, jack, game, pedros —
    each side holds so far, in tricks taken and trumps shed) and what is Cinch's own."""

    contract: Contract | None
    trick: Trick | None
    tricks: tuple[Trick, ...]
    options: Options
    deal_number: int                       # deprecated alias of deal_index
    bids: tuple[tuple[Seat, int | None], ...]
    discards: tuple[tuple[Seat, str], ...]  # face-up non-trumps, in order
    reused: tuple[tuple[Seat, str], ...]    # face-up discards given back when the stock ran out
    shown: tuple[tuple[Seat, str], ...]     # trumps shown and out of play
    drawn: tuple[tuple[Seat, int], ...]
    stock_size: int
    stock: tuple[str, ...] | None           # only the dealer, while he robs
    took: int | None                        # stock cards the dealer kept
    buried: int                             # how many cards the dealer put face down
    buried_cards: tuple[str, ...] | None    # only the dealer
    hand_sizes: dict[str, int]
    deals: tuple[DealScore, ...]


def _deal_points(state: State) -> dict[str, int]:
    if state.deal.contract is None or state.deal.contract.trump is None:
        return zero(sides(state.options))
    return points_of(state.options, state.deal.contract.trump, credits(state))


def view(state: State, seat: Seat | None) -> CinchView:
    dealer = state.deal.dealer
    is_dealer = seat is not None and seat == dealer
    return CinchView(
        game="cinch", options=state.options, seat=seat, phase=state.phase,
        deal_index=deal_index(state.deals_played), deal_number=deal_index(state.deals_played),
        dealer=dealer, turn=state.deal.turn, hand=state.deal.hand(seat) if seat is not None else None,
        legal=legal_actions(state, seat) if seat is not None else [],
        bids=state.deal.bids, contract=state.deal.contract, discards=state.deal.face_up, reused=state.deal.reused, shown=state.deal.shed,
        drawn=state.deal.drawn, stock_size=len(state.deal.stock),
        stock=state.deal.stock if is_dealer and state.phase == "rob" else None,
        took=state.deal.took, buried=len(state.deal.buried), buried_cards=state.deal.buried if is_dealer else None,
        hand_sizes={str(s): len(state.deal.hand(s)) for s in (Seat.N, Seat.E, Seat.S, Seat.W)},
        trick=state.deal.trick, tricks=state.deal.tricks, match_score=state.match_score, deal_points=_deal_points(state),
        deals=tuple(DealScore(deal=i, dealer=r.dealer, contract=r.contract, result="made" if r.made else "failed",
                              points=r.points, score=r.score, voided=r.voided, adjustments=r.adjustments)
                    for i, r in enumerate(state.history)),
        winner=state.winner)


def redact(event: Any, seat: Seat | None) -> Any:
    """`seat`'s copy of an event: the deal keeps only its hand; a draw or the dealer's rob
    keeps its numbers and public cards but no hidden card. Everything else is public."""
    if isinstance(event, DealStarted):
        hands = {seat: event.hands[seat]} if seat is not None and seat in event.hands else {}
        fair = {k: v for k, v in event.fair.items() if k != "seed"} if event.fair else event.fair
        return replace(event, hands=hands, stock=(), fair=fair)
    if isinstance(event, CardsDrawn):
        return event if seat == event.seat else replace(event, cards=())
    if isinstance(event, PackRobbed):
        return event if seat == event.seat else replace(event, kept=(), buried=())
    return event
