"""What a seat (or a spectator, `seat=None`) may see: the only way anything leaves the
domain toward players, logs and bots (architecture "Hidden information").

A seat sees its own hand, the public actions, the turn-up, the kinds declared at trick 1,
the combinations shown at trick 2, the tricks and the scores; never another seat's unplayed
card. The deck and the cards dealt after the auction exist only in two events, which
`redact` cuts down to the seat's own cards.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final


from domain.cards import SEAT_INDEX, SEATS, Seat
from domain.envelope import Envelope, deal_index, zero
from domain.tricks import Trick

from domain.belote.actions import legal_actions
from domain.belote.dealing import first_cards
from domain.belote.events import (Combination, CombinationsDeclined, Contract, DealSeen, DealStarted,
                                  RestDealt, RestSeen)
from domain.belote.options import Options, sides
from domain.belote.state import Call, State

_PUBLIC_FAIR_KEYS = ("commitment", "context", "entropy")


ALIASES: Final = MappingProxyType({"points": "deal_points"})
"""Deprecated view fields equal to an envelope field (old name -> envelope name)."""
DEALS_STARTED: Final = "deal"
"""The deprecated view field counting deals started: the envelope's `deal_index` + 1."""


class View(Envelope, frozen=True, kw_only=True):
    """The envelope (phases "awaiting_deal", "auction", "play", "match_over"; `deal_points`
    the card points of this deal's completed tricks) and what is Belote's own."""

    contract: Contract | None = None
    trick: Trick | None = None
    tricks: tuple[Trick, ...] = ()
    options: Options
    history: tuple[dict[str, int], ...]  # what each deal added
    pool: int                           # litige points waiting for the next winner
    deal: int = 0                       # deprecated: deals started (deal_index + 1)
    points: dict[str, int] = {}         # deprecated alias of deal_points
    hand_sizes: dict[Seat, int] = {}
    turn_up: str | None = None
    calls: tuple[Call, ...] = ()
    announces: tuple[tuple[Seat, str], ...] = ()
    declared: dict[Seat, str] = {}      # the kind each seat said at trick 1
    combinations_team: str | None = None
    combinations_shown: tuple[Combination, ...] = ()
    result: str | None = None
    deal_score: dict[str, int] = {}
    legal: list[dict[str, Any]] = []


def _phase(state: State) -> str:
    if state.over:
        return "match_over"
    if state.deal is None or state.deal.phase == "over":
        return "awaiting_deal"
    return state.deal.phase


def view(state: State, seat: Seat | None) -> View:
    match = dict(game="belote", options=state.options, seat=seat, phase=_phase(state),
                 match_score=dict(state.match_score), history=state.history, pool=state.pool, winner=state.winner,
                 deal_index=deal_index(state.deals_played), deal=state.deals_played)
    deal = state.deal
    if deal is None:
        nothing = zero(sides(state.options))
        return View(**match, dealer=None, turn=None, hand=None if seat is None else (), legal=[],
                    deal_points=nothing, points=nothing)
    points = dict(deal.points)
    return View(
        **match, dealer=deal.dealer, turn=deal.turn,
        hand=None if seat is None else deal.hand(seat),
        hand_sizes={s: len(h) for s, h in zip(SEATS, deal.hands)}, turn_up=deal.turn_up, calls=deal.calls,
        contract=deal.contract, trick=deal.trick, tricks=deal.tricks, deal_points=points, points=points,
        announces=deal.announces, declared=dict(deal.declared), combinations_team=deal.combination_team,
        combinations_shown=deal.shown, result=deal.result, deal_score=dict(deal.score),
        legal=[] if seat is None else legal_actions(state, seat))


def redact(event: Any, seat: Seat | None) -> Any:
    """The event as `seat` may see it: the deal shows only the seat's own cards (none to a
    spectator) and the turn-up; a seat's declining of its combinations is its own; every
    other event is public as it is."""
    if isinstance(event, DealStarted):
        hands, turn_up, _ = first_cards(event)
        fair = None if event.fair is None else {k: v for k, v in event.fair.items() if k in _PUBLIC_FAIR_KEYS}
        return DealSeen(event.deal, event.dealer, () if seat is None else hands[SEAT_INDEX[seat]], turn_up, fair)
    if isinstance(event, RestDealt):
        counts = {s: len(event.cards.get(s, ())) for s in SEATS}
        return RestSeen(() if seat is None else tuple(event.cards.get(seat, ())), counts)
    if isinstance(event, CombinationsDeclined) and seat != event.seat:
        return None                 # declining is silent: the table only sees no declaration
    return event
