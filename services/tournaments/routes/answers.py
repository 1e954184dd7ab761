"""What the tournament routes answer, as the OpenAPI document types it (the handlers build
plain dicts; these Structs describe them field for field, so a generated client reads every
answer without guessing). A field that may be missing has a default; one that may be null
says so. Options and bot settings are the game's and the organiser's words: documented maps."""

from __future__ import annotations

from typing import Literal

import msgspec

from services.http.documented import GameMap

Status = Literal["registering", "running", "closed"]


class EntryOut(msgspec.Struct):
    """An entry of the tournament: its players (house bots as `bot:<level>`), its shown name."""

    entry_id: str
    players: list[str]
    name: str
    withdrawn: bool


class TableResult(msgspec.Struct):
    """A table's recorded result (the `result_recorded` event): the score per side, each board's
    score by board number, and the entry that did not show (`both`: a double forfeit)."""

    type: Literal["result_recorded"]
    round: int
    table: int
    match_id: str
    score: dict[str, int]
    boards: dict[str, dict[str, int]]
    forfeit: str | None


class TableOut(msgspec.Struct):
    """A table of a round: NS and EW entries (null at an individual table, which has `seats`:
    seat -> entry), its match once opened, its result once the reader may see it."""

    table: int
    room: int | None               # teams of four: 1 (the home team NS) or 2 (the same boards, swapped)
    ns: str | None
    ew: str | None
    seats: dict[str, str] | None
    match_id: str | None
    result: TableResult | None


class RoundOut(msgspec.Struct):
    """A round: its boards, byes and tables; `seeds` (board -> hex seed) once it has closed."""

    round: int
    closed: bool
    boards: list[int]
    byes: list[str]
    manual: bool
    tables: list[TableOut]
    seeds: dict[str, str]


class TournamentOut(msgspec.Struct):
    """The tournament as its reader may see it: results and seeds of a round only once closed
    (the organiser and admins see them as they come, unless they play an entry)."""

    tournament_id: str
    name: str
    organiser: str
    game: str
    options: GameMap
    format: str
    status: Status
    scoring: str | None            # a duplicate's method: matchpoints, neuberg, butler, cross_imps
    closes_at: str | None          # a robot duplicate event's window end
    closed_reason: str | None
    schedule: str | None
    bots: GameMap
    no_show_grace: int
    rounds_planned: int | None
    individual: bool
    commitment: str | None
    board_count: int
    boards: Literal["record", "shuffle"] | None
    board_digests: list[str]
    entries: list[EntryOut]
    rounds: list[RoundOut]
    version: int
    player_names: dict[str, str] = {}   # player id -> display name, for the entries' players (bots: none)


class TournamentRow(msgspec.Struct):
    """A tournament in a list: `entries` counts the entries not withdrawn."""

    tournament_id: str
    name: str
    game: str
    format: str
    individual: bool
    status: Status
    organiser: str
    schedule: str | None
    entries: int
    created_at: str | None


class EntryRegistered(msgspec.Struct):
    entry_id: str


class EntryWithdrawn(msgspec.Struct):
    entry_id: str
    withdrawn: bool


class ResultRow(msgspec.Struct):
    """A table's result in `…/results`: the entries at NS and EW (or `seats` at an individual
    table), the score per side, each board's score by board number, a forfeit."""

    round: int
    table: int
    ns: str | None
    ew: str | None
    seats: dict[str, str] | None
    score: dict[str, int]
    boards: dict[str, dict[str, int]]
    forfeit: str | None


class StandingLine(msgspec.Struct):
    """An entry's line in the standings; `tiebreak` (Buchholz) is null in duplicate formats.
    Teams of four: `points` are Victory Points, `diff` the IMP margin. `bots`: the entry seats
    a bot (a team's bot pair, a partner bot)."""

    place: int
    entry: str
    points: float
    tiebreak: float | None
    diff: int
    played: int
    wins: int
    byes: int
    bots: bool = False


class StandingsOut(msgspec.Struct):
    """The standings overall and after each closed round (`by_round`: round -> lines)."""

    tournament_id: str
    format: str
    status: Status
    overall: list[StandingLine]
    by_round: dict[str, list[StandingLine]]
    scoring: str | None            # a duplicate's method (points are matchpoints or IMPs by it)
    tie_breaks: list[str]


class TournamentExport(msgspec.Struct):
    """`…/export` as JSON: the tournament as the reader may see it and the overall standings."""

    tournament: TournamentOut
    standings: list[StandingLine]
