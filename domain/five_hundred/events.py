"""The events of Five Hundred: what happened.

Tags are stable snake_case names stored in the match stream; they must not collide with the
match layer's tags (`deal_dealt`, `action_taken`, ...), nor with each other, nor with the
commands' tags (the action names). Events carry what `evolve` needs and nothing it would
have to re-check: `decide` has validated already.
"""

from __future__ import annotations

import msgspec

from domain.cards import Card, Seat
from domain.game import DealVoided, ScoreAdjusted  # noqa: F401  (part of this game's events)

class DealStarted(msgspec.Struct, frozen=True, tag="cards_dealt"):
    """The whole deal; hands and kitty follow from `deck` and `dealer` (3, kitty 3, 4, 3).
    Never shown as is: `redact` turns it into a `DealSeen` per seat."""

    deal: int
    dealer: Seat
    deck: tuple[Card, ...]


class DealSeen(msgspec.Struct, frozen=True, tag="hand_dealt"):
    """What one seat sees of `DealStarted`: its own ten cards (a spectator: none)."""

    deal: int
    dealer: Seat
    seat: Seat | None
    hand: tuple[Card, ...]


class BidMade(msgspec.Struct, frozen=True, tag="bid_made"):
    seat: Seat
    tricks: int | None = None
    suit: str | None = None
    contract: str | None = None


class Passed(msgspec.Struct, frozen=True, tag="passed"):
    seat: Seat


class ContractWon(msgspec.Struct, frozen=True, tag="contract_won"):
    """The auction is over: `seat` is the contractor of the highest bid."""

    seat: Seat
    tricks: int | None
    suit: str | None
    contract: str          # "tricks", "misere", "open_misere"
    value: int


class KittyTaken(msgspec.Struct, frozen=True, tag="kitty_taken"):
    """The contractor picks up the kitty unseen by the others (their copy has no cards)."""

    seat: Seat
    cards: tuple[Card, ...] = ()


class Discarded(msgspec.Struct, frozen=True, tag="discarded"):
    """Three cards face down; only the contractor's copy names them."""

    seat: Seat
    cards: tuple[Card, ...] = ()


class CardPlayed(msgspec.Struct, frozen=True, tag="card_played"):
    seat: Seat
    card: Card
    suit: str | None = None


class TrickWon(msgspec.Struct, frozen=True, tag="trick_taken"):
    number: int            # 1..10
    winner: Seat


class HandExposed(msgspec.Struct, frozen=True, tag="hand_exposed"):
    """Open misère: the contractor's remaining cards face up after trick 1 (B.6.4)."""

    seat: Seat
    cards: tuple[Card, ...]


class DealScored(msgspec.Struct, frozen=True, tag="deal_scored"):
    """The end of a deal: `result` made / failed / thrown_in; `points` tricks per side."""

    deal: int
    result: str
    points: dict[str, int]
    score: dict[str, int]


# DealVoided and ScoreAdjusted (the rulings' events) are shared: domain.game.


EVENT_TYPES = (DealStarted, BidMade, Passed, ContractWon, KittyTaken, Discarded, CardPlayed, TrickWon,
               HandExposed, DealScored, DealVoided, ScoreAdjusted)
REDACTED_EVENTS = (DealSeen,)
"""Shapes that exist only in a seat's copy of the stream, never stored."""
