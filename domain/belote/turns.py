"""Turn order: counter-clockwise, N -> W -> S -> E (belote.md §1.2), as lookup tables."""

from __future__ import annotations

from typing import Final

from domain.cards import PARTNER, SEATS, TEAM, Direction, Seat, next_seat, seats_from
from domain.game import RuleViolation

DIRECTION: Final[Direction] = "counter_clockwise"
NEXT: Final[dict[Seat, Seat]] = {s: next_seat(s, DIRECTION) for s in SEATS}
FROM: Final[dict[Seat, tuple[Seat, ...]]] = {s: seats_from(s, DIRECTION) for s in SEATS}
OTHER_TEAM: Final = {"NS": "EW", "EW": "NS"}

__all__ = ["DIRECTION", "NEXT", "FROM", "OTHER_TEAM", "PARTNER", "TEAM", "verify_turn"]


def verify_turn(turn: Seat | None, seat: Seat) -> None:
    if turn != seat:
        raise RuleViolation("not_your_turn", f"it is {turn}'s turn, not {seat}'s",
                            {"turn": None if turn is None else str(turn), "seat": str(seat)})
