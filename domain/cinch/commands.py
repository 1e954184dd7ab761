"""The decisions a seat takes in Cinch, as commands; their tags are the action names
(`actions.py` reads them from JSON). Each carries the acting seat."""

from __future__ import annotations

import msgspec

from domain.cards import Card, Seat


class Bid(msgspec.Struct, frozen=True, tag="bid"):
    seat: Seat
    value: int


class Pass(msgspec.Struct, frozen=True, tag="pass"):
    seat: Seat


class NameTrump(msgspec.Struct, frozen=True, tag="trump"):
    seat: Seat
    suit: str


class Discard(msgspec.Struct, frozen=True, tag="discard"):
    """The trumps a non-dealer sheds when he kept more than six (A.4.5)."""

    seat: Seat
    cards: tuple[Card, ...]


class Rob(msgspec.Struct, frozen=True, tag="rob"):
    """The six cards the dealer keeps from his nine and the rest of the stock (A.4.7)."""

    seat: Seat
    keep: tuple[Card, ...]


class Play(msgspec.Struct, frozen=True, tag="play"):
    seat: Seat
    card: Card


COMMAND_TYPES = (Bid, Pass, NameTrump, Discard, Rob, Play)
