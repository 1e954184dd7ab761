"""The fields every game's view carries under the same name with the same meaning.

A client reads the match score, the deal, whose turn it is, the contract, the tricks, its
hand, its legal actions and the deal's points the same way whichever game the table plays;
what only one game has (Belote's combinations, Cinch's stock, Five Hundred's kitty) sits
beside them in that game's own view. Each game's view Struct subclasses `Envelope`, so a
new game cannot leave a field out.

Older names that meant the same thing in one game (`score`, `deal`, `deal_number`,
`points`, `tricks_won`) are kept beside the envelope as deprecated aliases; `ALIASES`
lists them per game for the documentation and the tests.
"""

from __future__ import annotations

from typing import Any, Final, Iterable

import msgspec

from domain.cards import Card, Seat
from domain.tricks import Trick

ENVELOPE_FIELDS: Final[tuple[str, ...]] = (
    "game", "seat", "phase", "match_score", "deal_index", "dealer", "turn", "contract", "trick", "tricks",
    "hand", "legal", "deal_points", "winner")


class Envelope(msgspec.Struct, frozen=True, kw_only=True):
    """The shared part of a seat's view.

    game: the game's name. seat: whose view this is (None: a spectator).
    phase: "awaiting_deal" before a deal and between deals, "match_over" at the end; in a
      deal the game's own phase names ("auction", "play", ...).
    match_score: each side's match total (teams "NS"/"EW", or the four seats in a game
      played without partners).
    deal_index: 0-based index of the current deal, or of the last one between deals; -1
      before the first deal. The same number the events, records, replays and exports use.
    dealer: the current (or last) deal's dealer. turn: the seat to act now, None when nobody is.
    contract: the auction's outcome, None before it: the game's contract object, always with
      `seat` (the contractor) and `trump` (a suit letter, or None with no trump).
    trick: the trick being played (`leader`, `plays` as [seat, card] pairs in order, `led`,
      `winner`), present with no plays while its leader is to lead; None outside trick play.
    tricks: this deal's finished tricks in order, the same shape, each with its winner.
    hand: the seat's unplayed cards; None for a spectator.
    legal: the seat's legal actions now ([] for a spectator or a seat not to act).
    deal_points: what each side has taken so far in this deal, in the unit the game counts a
      deal by (Belote card points, Cinch counting points, Five Hundred tricks); zero for
      every side before the first deal's play.
    winner: the match winner's side, None until the match is over.
    """

    game: str
    seat: Seat | None
    phase: str
    match_score: dict[str, int]
    deal_index: int
    dealer: Seat | None
    turn: Seat | None
    contract: Any
    trick: Any
    tricks: Any
    hand: tuple[Card, ...] | None
    legal: list[dict[str, Any]]
    deal_points: dict[str, int]
    winner: str | None


def deal_index(deals_started: int) -> int:
    """The 0-based index of the current (or last) deal from the number of deals started."""
    return deals_started - 1


def zero(sides: Iterable[str]) -> dict[str, int]:
    return {str(side): 0 for side in sides}


def trick_plays(trick: Trick) -> list[list[str]]:
    """A trick's plays as the envelope writes them, [seat, card] in play order."""
    return [[str(seat), card] for seat, card in trick.plays]
