"""The state Five Hundred folds from its events, and the seat arithmetic it uses.

Seats are indexed N=0, E=1, S=2, W=3 (clockwise, the direction of play), sides NS=0, EW=1, so
per-seat and per-side facts are plain tuples. `deal` holds the current deal (or the last one),
as every game's state does; `phase` is the match's. `history` keeps one record per finished deal:
rulings (void, adjust) change the match score and winner by replaying it (B.8 and
docs/rules-five-hundred.md).
"""

from __future__ import annotations

from typing import Final

import msgspec

from domain.cards import SEAT_INDEX, Card, Hands, Seat
from domain.five_hundred.bids import BIDS, BidSpec
from domain.five_hundred.options import Options
from domain.game import RuleViolation
from domain.tricks import Trick

SIDE_NAMES: Final = ("NS", "EW")
SIDE_OF: Final = (0, 1, 0, 1)          # seat index -> side index
NOBODY: Final = -1

AUCTION: Final = "auction"
DISCARD: Final = "discard"
PLAY: Final = "play"
AWAITING_DEAL: Final = "awaiting_deal"
MATCH_OVER: Final = "match_over"
IN_DEAL: Final = frozenset({AUCTION, DISCARD, PLAY})


class Contract(msgspec.Struct, frozen=True):
    """The auction's outcome, with what play asks of it at every card precomputed."""

    seat: Seat
    bid: int               # index in bids.BIDS
    denomination: str      # trump suit, or NT (no-trumps and misère)
    side: int              # the contractors' side index
    sitting_out: int       # seat index of the misère contractor's partner (B.6.2), else NOBODY

    @property
    def spec(self) -> BidSpec:
        return BIDS[self.bid]


def make_contract(seat: Seat, bid: int) -> Contract:
    spec = BIDS[bid]
    i = SEAT_INDEX[seat]
    return Contract(seat=seat, bid=bid, denomination=spec.denomination, side=SIDE_OF[i],
                    sitting_out=(i + 2) % 4 if spec.misere else NOBODY)


class DealRecord(msgspec.Struct, frozen=True):
    """One finished deal as the match remembers it."""

    deal: int
    dealer: Seat
    contract: Contract | None
    result: str                        # made, failed, thrown_in
    tricks: tuple[Trick, ...]
    points: tuple[int, int]
    score: tuple[int, int]
    voided: bool = False
    adjust: tuple[int, int] = (0, 0)


class Deal(msgspec.Struct, frozen=True):
    """Everything about the current deal — or the last one, until the next starts, so that
    views and `deal_summary` can still show it. Empty before the first deal."""

    number: int = 0                    # 0-based
    dealer: Seat | None = None
    hands: Hands = ((), (), (), ())    # by seat, in SEATS order
    kitty: tuple[Card, ...] = ()
    kitty_taken: tuple[Card, ...] = ()  # the kitty the contractor took into his hand
    discards: tuple[Card, ...] = ()
    auction: tuple[tuple[Seat, int], ...] = ()   # (seat, bid index), -1 for a pass
    passed: tuple[bool, ...] = (False, False, False, False)
    high: int = -1                     # index of the highest bid, -1 before any
    turn: Seat | None = None
    contract: Contract | None = None
    trick: Trick | None = None
    tricks: tuple[Trick, ...] = ()
    won: tuple[int, int] = (0, 0)      # tricks per side
    void: tuple[str, ...] = ("", "", "", "")   # suits each seat has shown void in (B.5.4 b)
    exposed: bool = False              # open misère hand face up (after trick 1)


class State(msgspec.Struct, frozen=True):
    options: Options
    phase: str = AWAITING_DEAL
    deals_played: int = 0              # deals started; the current deal's index is deals_played - 1
    deal: Deal = Deal()
    history: tuple[DealRecord, ...] = ()
    score: tuple[int, int] = (0, 0)    # match score after rulings
    winner: str | None = None


def initial(options: Options) -> State:
    return State(options=options)


def next_in_play(index: int, sitting_out: int) -> int:
    """The next seat clockwise, skipping the partner of a misère contractor."""
    nxt = (index + 1) % 4
    return (nxt + 1) % 4 if nxt == sitting_out else nxt


def verify_in_deal(state: State) -> None:
    """'deal over' comes after a command's own shape and before its phase (the README's order)."""
    if state.phase not in IN_DEAL:
        raise RuleViolation("deal_over", "no deal is being played")
