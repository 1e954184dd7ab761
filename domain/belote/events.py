"""What happened, as events. Tags are stable snake_case names; each is unique in this game
(command tags are the action names, so events use past participles).

Hidden information lives only in `DealStarted` (the deck) and `RestDealt` (the cards given
after the auction); `redact` turns them into `DealSeen` / `RestSeen`, which carry one seat's
cards only. Every other event is public.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from domain.cards import Seat
from domain.game import DealVoided, ScoreAdjusted  # noqa: F401  (part of this game's events)


class Contract(msgspec.Struct, frozen=True, omit_defaults=True):
    """The contract once the auction is over. `trump` is a suit, "TA" in Coinche's tout atout,
    None in sans atout (the variant, or Coinche's SA bid); `value`
    (an integer or "capot") and `multiplier` (1, 2, 4) are Coinche's."""

    seat: Seat
    team: str
    trump: str | None
    value: int | str | None = None
    multiplier: int = 1


class Combination(msgspec.Struct, frozen=True):
    """A sequence or carré in one hand (belote.md §2.7). `rank` is the top card's rank of a
    sequence, the rank of a carré."""

    seat: Seat
    kind: str            # "tierce", "cinquante", "cent", "carré"
    value: int
    suit: str | None     # None for a carré
    rank: str
    cards: tuple[str, ...]


# --- The deal --------------------------------------------------------------------------------

class DealStarted(msgspec.Struct, frozen=True, tag="deal_started"):
    """The whole deck, top card first: everything else of the deal follows from it.
    `variant` says how it is dealt, so that redaction needs nothing but the event."""
    deal: int
    dealer: Seat
    variant: str
    deck: tuple[str, ...]
    fair: dict[str, Any] | None = None


class RestDealt(msgspec.Struct, frozen=True, tag="rest_dealt"):
    """Classic and sans atout, after the auction: the cards each seat receives (the taker's
    include the turn-up)."""
    cards: dict[Seat, tuple[str, ...]]


class ThrownIn(msgspec.Struct, frozen=True, tag="thrown_in"):
    """Everybody passed: the deal is annulled, no score, the deal passes on (§3.2.3, §5.2.5)."""
    deal: int


# --- The auction -----------------------------------------------------------------------------

class Passed(msgspec.Struct, frozen=True, tag="passed"):
    seat: Seat


class Took(msgspec.Struct, frozen=True, tag="took"):
    seat: Seat


class Named(msgspec.Struct, frozen=True, tag="named"):
    seat: Seat
    suit: str


class BidMade(msgspec.Struct, frozen=True, tag="bid_made"):
    seat: Seat
    value: int | str
    suit: str


class Coinched(msgspec.Struct, frozen=True, tag="coinched"):
    seat: Seat


class Surcoinched(msgspec.Struct, frozen=True, tag="surcoinched"):
    seat: Seat


class AuctionClosed(msgspec.Struct, frozen=True, tag="auction_closed"):
    contract: Contract


# --- The play --------------------------------------------------------------------------------

class CombinationsDeclined(msgspec.Struct, frozen=True, tag="combinations_declined"):
    seat: Seat


class CombinationDeclared(msgspec.Struct, frozen=True, tag="combination_declared"):
    """Trick 1: only the kind of the seat's best combination is said (§2.7.4)."""
    seat: Seat
    kind: str


class CardPlayed(msgspec.Struct, frozen=True, tag="card_played"):
    """`announce` is "belote" or "rebelote" when the card carries the announcement."""
    seat: Seat
    card: str
    announce: str | None = None


class TrickWon(msgspec.Struct, frozen=True, tag="trick_won"):
    seat: Seat
    points: int


class CombinationsCompared(msgspec.Struct, frozen=True, tag="combinations_compared"):
    """At the first card of trick 2: the team whose declared combinations count (None when
    nobody's do) and those combinations, shown to everyone (§2.7.4-2.7.5)."""
    team: str | None
    shown: tuple[Combination, ...]
    points: int


class DealScored(msgspec.Struct, frozen=True, tag="deal_scored"):
    """`points`: card points taken (incl. dix de der); `score`: what the deal adds to the
    match; `pool`: the litige pool after this deal."""
    deal: int
    result: str          # "made", "failed", "litige"
    points: dict[str, int]
    score: dict[str, int]
    pool: int


# --- Rulings ---------------------------------------------------------------------------------

# DealVoided and ScoreAdjusted (the rulings' events) are shared: domain.game.


# --- What one seat may see of the two hidden events -----------------------------------------

class DealSeen(msgspec.Struct, frozen=True, tag="deal_seen"):
    """`DealStarted` for one seat: its own first cards and the public turn-up."""
    deal: int
    dealer: Seat
    cards: tuple[str, ...]
    turn_up: str | None = None
    fair: dict[str, Any] | None = None


class RestSeen(msgspec.Struct, frozen=True, tag="rest_seen"):
    """`RestDealt` for one seat: its own new cards; the taker's count is public."""
    cards: tuple[str, ...]
    counts: dict[Seat, int]


EVENT_TYPES: Final = (DealStarted, RestDealt, ThrownIn, Passed, Took, Named, BidMade, Coinched,
                      Surcoinched, AuctionClosed, CombinationsDeclined, CombinationDeclared,
                      CardPlayed, TrickWon, CombinationsCompared, DealScored, DealVoided, ScoreAdjusted)
