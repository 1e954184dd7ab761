"""What the duplicate routes answer, typed for the OpenAPI document (the handlers build plain
dicts; these Structs describe them field for field)."""

from __future__ import annotations

from typing import Literal

import msgspec

from services.http.documented import GameMap


class RobotEntryOut(msgspec.Struct):
    """My entry in a robot duplicate event: my table (I sit South, bots at N, E, W), its match
    once opened, and when the window closes."""

    tournament_id: str
    entry_id: str
    table: int | None
    seat: str
    match_id: str | None
    closes_at: str | None


class TravellerRow(msgspec.Struct):
    """A table's line on the board: its entries (null where bots sat), its contract (the game's
    own words: `seat`, `team`, `trump`, and a Coinche's `value` and `multiplier`), declarer,
    result, the board's score per side, and the points each side earned by the event's method
    (matchpoints or IMPs; null for the robot event's house table, `bots: true`, which is
    shown beside the field and ranked in it by no one)."""

    table: int
    ns: str | None
    ew: str | None
    bots: bool
    forfeit: str | None
    contract: GameMap | None
    declarer: str | None
    result: str | None
    score: dict[str, int] | None
    ns_points: float | None
    ew_points: float | None
    match_id: str | None           # the table's match: its replay
    deal: int | None               # the board's deal in that match (0-based): its double-dummy analysis,
                                   # GET /v1/matches/{match_id}/deals/{deal}/analysis (par of its contract)


class BoardPar(msgspec.Struct):
    """The board's par: the contract both teams reach and its score when the auction and the
    play are both perfect, every hand known (null `contract`: everybody passes), and what
    each team takes on that line, in `unit` (docs/tournaments.md, "Par")."""

    contract: GameMap | None
    score: dict[str, int]
    card_points: dict[str, int]    # what each team takes on the perfect line, in `unit`
    unit: Literal["card_points", "points", "tricks"] = "card_points"   # Belote, Cinch, Five Hundred


class HandRecord(msgspec.Struct):
    """The board's deal (dealer and deck, top card first) and its seed, revealed when its
    round closed; `verified`: the seed is the commitment's chain element for this board and
    the deck is its shuffle (null for imported boards, whose digest docs/tournaments.md
    explains); `par`, the board's par (every partnership game)."""

    dealer: str | None
    deck: list[str]
    seed: str | None
    commitment: str | None
    verified: bool | None
    par: BoardPar | None           # null while `par_pending`
    par_pending: bool              # the par is being worked out (seconds, once per board): read again


class TravellerOut(msgspec.Struct):
    """Board `board`'s traveller, once its round has closed at every table."""

    tournament_id: str
    board: int
    round: int
    scoring: str
    rows: list[TravellerRow]
    hand: HandRecord
