"""The players' decisions (README "Actions"), as commands. Their tags are the action names;
`actions.py` reads them from JSON."""

from __future__ import annotations

from typing import Final

import msgspec

from domain.cards import Seat


class Pass(msgspec.Struct, frozen=True, tag="pass"):
    seat: Seat


class Take(msgspec.Struct, frozen=True, tag="take"):
    """Classic round 1: trump = the turn-up's suit. Sans atout: take the no-trump contract."""
    seat: Seat


class Name(msgspec.Struct, frozen=True, tag="name"):
    """Classic round 2: name a trump suit other than the turn-up's."""
    seat: Seat
    suit: str


class Bid(msgspec.Struct, frozen=True, tag="bid"):
    """Coinche: `value` 80, 90, ... or "capot", with a trump suit."""
    seat: Seat
    value: int | str
    suit: str


class Coinche(msgspec.Struct, frozen=True, tag="coinche"):
    seat: Seat


class Surcoinche(msgspec.Struct, frozen=True, tag="surcoinche"):
    seat: Seat


class Play(msgspec.Struct, frozen=True, tag="play"):
    """`belote=False` declines announcing belote with the first K or Q of trump."""
    seat: Seat
    card: str
    belote: bool = True


class Declare(msgspec.Struct, frozen=True, tag="declare"):
    """Decline declaring combinations (the only declare there is: declaring is automatic)."""
    seat: Seat
    combinations: bool = False


COMMAND_TYPES: Final = (Pass, Take, Name, Bid, Coinche, Surcoinche, Play, Declare)
