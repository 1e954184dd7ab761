"""The state of a Cinch match, folded from its events.

Frozen Structs, replaced (never mutated) by `evolve`: the match (`State`) and its current or
last deal (`Deal`), as in every game. Hands are a tuple indexed like `SEATS` (N, E, S, W) in
the order their cards arrived — the order A.4.8 needs to reuse
discards — and every public fact of the deal (bids, face-up discards, shown trumps, draw
counts) is kept so a view can be built from the state alone.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from domain.cards import SEAT_INDEX, SEATS, Card, Hands, Seat, next_seat
from domain.game import RuleViolation
from domain.tricks import Trick

from domain.cinch.options import Options, parse_options, sides

DIRECTION: Final = "clockwise"
NEXT: Final = {s: next_seat(s, DIRECTION) for s in SEATS}
PREVIOUS: Final = {NEXT[s]: s for s in SEATS}

DEAL_PHASES: Final = frozenset({"auction", "trump", "discard", "rob", "play"})
"""A deal is under way; between deals the phase is `awaiting_deal` or `match_over`."""

HAND_SIZE: Final = 6
TRICKS: Final = 6


class Contract(msgspec.Struct, frozen=True):
    seat: Seat
    value: int
    trump: str | None = None


class DealRecord(msgspec.Struct, frozen=True):
    """One finished deal as the match score sees it; rulings mark or extend it."""

    dealer: Seat
    contract: Contract
    made: bool
    points: dict[str, int]
    score: dict[str, int]
    credits: tuple[tuple[Card, str | None], ...]
    voided: bool = False
    adjustments: tuple[dict[str, int], ...] = ()


class Deal(msgspec.Struct, frozen=True):
    """Everything about the current deal — or the last one, until the next starts, so that
    views can still show it. Empty before the first deal."""

    number: int = 0                                 # 0-based
    dealer: Seat | None = None
    turn: Seat | None = None
    hands: Hands = ((), (), (), ())                 # by seat, in SEATS order, in the order cards arrived
    stock: tuple[Card, ...] = ()
    bids: tuple[tuple[Seat, int | None], ...] = ()  # None: a pass
    high: tuple[Seat, int] | None = None
    contract: Contract | None = None
    face_up: tuple[tuple[Seat, Card], ...] = ()     # non-trumps discarded face up, in order
    reused: tuple[tuple[Seat, Card], ...] = ()      # (taker, card) of face-up discards reused
    shed: tuple[tuple[Seat, Card], ...] = ()        # trumps shown and out of play
    pending: tuple[Seat, ...] = ()                  # non-dealers still to shed trumps
    drawn: tuple[tuple[Seat, int], ...] = ()        # cards given to each non-dealer
    took: int | None = None                         # stock cards the robbing dealer kept
    buried: tuple[Card, ...] = ()                   # the dealer's face-down non-trumps
    trick: Trick | None = None
    tricks: tuple[Trick, ...] = ()
    fair: dict[str, Any] | None = None

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return self.hands[SEAT_INDEX[seat]]


class State(msgspec.Struct, frozen=True):
    options: Options
    phase: str = "awaiting_deal"
    deals_played: int = 0                          # deals started
    deal: Deal = Deal()
    history: tuple[DealRecord, ...] = ()
    match_score: dict[str, int] = {}
    winner: str | None = None

    @property
    def in_deal(self) -> bool:
        return self.phase in DEAL_PHASES


def non_dealers(dealer: Seat) -> tuple[Seat, Seat, Seat]:
    """Eldest first: the order of discards and draws (A.4.5, A.4.6)."""
    a = NEXT[dealer]
    b = NEXT[a]
    return a, b, NEXT[b]


def initial(options: Any = None) -> State:
    options = parse_options(options)
    return State(options=options, match_score={side: 0 for side in sides(options)})


def verify_turn(state: State, seat: Seat, phase: str) -> None:
    """The checks every decision shares, in the README's order: deal over -> wrong phase ->
    turn. (Malformed actions never get this far: `parse_action` refused them.)"""
    if state.phase != phase:
        if state.phase not in DEAL_PHASES:
            raise RuleViolation("deal_over", "no deal is under way; the next deal has not started")
        raise RuleViolation("wrong_phase", f"this is the {state.phase} phase, not the {phase} phase",
                            {"phase": state.phase})
    if state.deal.turn != seat:
        raise RuleViolation("not_your_turn", f"it is {state.deal.turn}'s turn, not {seat}'s",
                            {"turn": str(state.deal.turn)})
