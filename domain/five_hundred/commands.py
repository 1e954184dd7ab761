"""The decisions a seat takes in Five Hundred, as commands; their tags are the action names
(`actions.py` reads them from JSON). Each carries the acting seat."""

from __future__ import annotations

import msgspec

from domain.cards import Card, Seat


class Pass(msgspec.Struct, frozen=True, tag="pass"):
    seat: Seat


class Bid(msgspec.Struct, frozen=True, tag="bid"):
    """`tricks` 6..10 with `suit` (S C D H NT), or `contract` "misere" / "open_misere"."""

    seat: Seat
    tricks: int | None = None
    suit: str | None = None
    contract: str | None = None


class Discard(msgspec.Struct, frozen=True, tag="discard"):
    """The contractor's three cards out, after taking the kitty (B.4.1)."""

    seat: Seat
    cards: tuple[Card, ...]


class Play(msgspec.Struct, frozen=True, tag="play"):
    """`suit` is the suit named when leading the Joker in no-trumps or misère (B.5.4)."""

    seat: Seat
    card: Card
    suit: str | None = None


COMMAND_TYPES = (Pass, Bid, Discard, Play)
