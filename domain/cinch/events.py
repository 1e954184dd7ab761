"""The events of Cinch: what happened.

Tags are stable snake_case names stored in the match stream; they must not collide with the
match layer's tags (`deal_dealt`, `action_taken`, ...), nor with each other, nor with the
commands' tags (the action names). Events carry what `evolve` needs and nothing it would
have to re-check: `decide` has validated already.
A seat's copy of a hidden event (`redact`) is the same Struct with the hidden cards emptied
and their number kept, so every copy decodes with the same tag.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.cards import Card, Seat
from domain.game import DealVoided, ScoreAdjusted  # noqa: F401  (part of this game's events)

class DealStarted(msgspec.Struct, frozen=True, tag="deal_started"):
    """Nine cards each, three at a time from eldest; the other sixteen are the stock.
    A seat's copy holds only its own hand and no stock cards."""

    deal: int
    dealer: Seat
    hands: dict[Seat, tuple[Card, ...]]
    stock: tuple[Card, ...]
    stock_size: int = 16
    fair: dict[str, Any] | None = None


class BidMade(msgspec.Struct, frozen=True, tag="bid_made"):
    seat: Seat
    value: int


class Passed(msgspec.Struct, frozen=True, tag="passed"):
    seat: Seat


class TrumpNamed(msgspec.Struct, frozen=True, tag="trump_named"):
    seat: Seat
    suit: str


class NonTrumpsDiscarded(msgspec.Struct, frozen=True, tag="non_trumps_discarded"):
    """The server's automatic face-up discard of a non-dealer's non-trumps (A.4.5): public."""

    seat: Seat
    cards: tuple[Card, ...]


class TrumpsDiscarded(msgspec.Struct, frozen=True, tag="trumps_discarded"):
    """Trumps shed down to six, shown and out of play (A.4.5): public."""

    seat: Seat
    cards: tuple[Card, ...]


class CardsDrawn(msgspec.Struct, frozen=True, tag="cards_drawn"):
    """A non-dealer brought back to six (A.4.6): `cards` from the top of the stock (only his
    copy names them; `count` is public), then `reused` — face-up discards, public — when
    the stock ran out (A.4.8)."""

    seat: Seat
    cards: tuple[Card, ...]
    count: int
    reused: tuple[Card, ...] = ()


class PackRobbed(msgspec.Struct, frozen=True, tag="pack_robbed"):
    """The dealer keeps six of his nine plus the stock (A.4.7). `took`: stock cards kept
    (announced); `shown`: trumps not kept, face up and out of play; `buried`: non-trumps not
    kept, face down. Others' copies name only `took`, `shown` and `buried_count`."""

    seat: Seat
    kept: tuple[Card, ...]
    took: int
    shown: tuple[Card, ...]
    buried: tuple[Card, ...]
    buried_count: int


class CardPlayed(msgspec.Struct, frozen=True, tag="card_played"):
    seat: Seat
    card: Card


class TrickWon(msgspec.Struct, frozen=True, tag="trick_won"):
    number: int            # 1..6
    winner: Seat


class DealScored(msgspec.Struct, frozen=True, tag="deal_scored"):
    """The end of a deal. `credits` lists the six counting cards in counting-out order with
    the side credited (None: dead), from which `points` follow; `score` is what the deal
    adds to the match score."""

    deal: int
    result: str            # "made" or "failed"
    points: dict[str, int]
    score: dict[str, int]
    credits: tuple[tuple[Card, str | None], ...]


# DealVoided and ScoreAdjusted (the rulings' events) are shared: domain.game.


EVENT_TYPES = (DealStarted, BidMade, Passed, TrumpNamed, NonTrumpsDiscarded, TrumpsDiscarded, CardsDrawn,
          PackRobbed, CardPlayed, TrickWon, DealScored, DealVoided, ScoreAdjusted)
