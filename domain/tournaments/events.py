"""Events and commands of the tournament stream (`tournament-<id>`), as msgspec Structs."""

from __future__ import annotations

from typing import Any

import msgspec

FORMATS = ("round_robin", "swiss", "elimination", "manual", "duplicate", "robot", "teams")
# The creation fields (`POST /v1/tournaments`, dotted into `bots` and the game's `options`) each
# format reads: what `GET /v1/tournaments/formats` tells a client drawing a creation form, so a
# format added here is offered without a client release. Every format reads `name`, `game`.
_EVERY = ("options.deals", "schedule", "no_show_grace", "rated", "bots.level", "bots.standin")
FORMAT_FIELDS: dict[str, tuple[str, ...]] = {
    "round_robin": _EVERY,
    "swiss": ("rounds", "seeding", *_EVERY),
    "elimination": ("seeding", *_EVERY),
    "manual": ("rounds", *_EVERY),
    "duplicate": ("rounds", "scoring", *_EVERY),
    "robot": ("options.deals", "closes_at", "scoring", "bots.level"),   # opens at once, unrated, one round
    "teams": ("rounds", *_EVERY),
}
NEEDS_DEALS = ("duplicate", "robot", "teams")   # each round is `deals` boards: the option is required
NO_SHOW_GRACE = 600                # seconds a table waits for an entry's first action of its own
MAX_NO_SHOW_GRACE = 86_400
BOTH = "both"                      # `forfeit` of a double no-show: neither entry came


class Table(msgspec.Struct, frozen=True):
    table: int                     # 1-based
    home: str                      # sits NS ("" at an individual table)
    away: str                      # sits EW ("" at an individual table)
    seats: dict[str, str] = {}     # an individual table: seat (N, E, S, W) -> entry
    room: int = 0                  # teams of four: 1 (home team NS), 2 (the same boards, the teams swapped)


class TournamentCreated(msgspec.Struct, frozen=True, tag="tournament_created"):
    tournament_id: str
    organiser: str
    name: str
    game: str
    options: dict[str, Any]
    format: str
    rounds: int | None             # None: the format decides (round robin, elimination)
    schedule: str | None           # ISO 8601 UTC start time, for beat
    bots: dict[str, Any]           # {"level": "basic", "fill": true}
    no_show_grace: int | None = None   # seconds; 0: no forfeits; None (older events): none either
    imported_boards: int = 0       # boards given as a match record (their decks are never in an event)
    individual: bool = False       # entries of one player, four a table (domain/tournaments/individual.py)
    rated: bool = False            # its tables with four human seats rate in their pool (docs/ratings.md)
    seeding: str = "registration"  # or "rating": a Swiss or an elimination seeds its entries by rating
    scoring: str = "matchpoints"   # duplicate: matchpoints, neuberg, butler or cross_imps (scoring.METHODS)
    closes_at: str | None = None   # robot duplicate: when its window closes (ISO 8601 UTC)


class EntryRegistered(msgspec.Struct, frozen=True, tag="entry_registered"):
    entry_id: str
    players: list[str]             # player ids, or "bot:LEVEL" for a house bot
    name: str = ""


class EntryWithdrawn(msgspec.Struct, frozen=True, tag="entry_withdrawn"):
    entry_id: str


class TournamentStarted(msgspec.Struct, frozen=True, tag="tournament_started"):
    rounds: int
    boards_per_round: int          # 0: no boards, each match shuffles its own deals
    board_count: int
    commitment: str | None         # hex chain tip H^board_count(secret): binds every board's seed
    board_digests: list[str] = []  # imported boards: sha256(c_b || board b), one a board (domain/tournaments/boards.py)
    seeds: list[str] = []          # entries best first, by rating (seeding "rating"); empty: registration order


class PairingSubmitted(msgspec.Struct, frozen=True, tag="pairing_submitted"):
    round: int
    tables: list[list[str]]
    byes: list[str]


class RoundPaired(msgspec.Struct, frozen=True, tag="round_paired"):
    round: int
    tables: list[Table]
    byes: list[str]
    boards: list[int]              # the board numbers every table of the round plays, in order
    manual: bool = False
    order: list[str] = []          # elimination: bracket order, "table:k" or a bye's entry


class TableAdded(msgspec.Struct, frozen=True, tag="table_added"):
    """Robot duplicate: an entrant's own table, added to the round when he enters."""

    round: int
    table: Table


class TableOpened(msgspec.Struct, frozen=True, tag="table_opened"):
    round: int
    table: int
    match_id: str
    opened_at: str | None = None   # ISO 8601 UTC, the service's clock: the no-show grace runs from here


class ResultRecorded(msgspec.Struct, frozen=True, tag="result_recorded"):
    round: int
    table: int
    match_id: str
    score: dict[str, int]
    boards: dict[str, dict[str, int]]   # board number (as text) -> {"NS": x, "EW": y}
    forfeit: str | None = None          # the entry that did not show, or "both" (a double forfeit)


class RoundClosed(msgspec.Struct, frozen=True, tag="round_closed"):
    round: int
    seeds: dict[str, str]          # board number (as text) -> hex seed, revealed now


class TournamentClosed(msgspec.Struct, frozen=True, tag="tournament_closed"):
    reason: str = "completed"


class TournamentShortened(msgspec.Struct, frozen=True, tag="tournament_shortened"):
    """Its organiser ends it early: `rounds` is the round in play (or the last one played);
    no round after it is paired, and the tournament closes when that round does, with
    `reason: "finished_early"`."""

    rounds: int


EVENTS = (TournamentCreated, EntryRegistered, EntryWithdrawn, TournamentStarted, PairingSubmitted, RoundPaired,
          TableOpened, ResultRecorded, RoundClosed, TournamentClosed, TableAdded, TournamentShortened)


# --- Commands -----------------------------------------------------------------------------

class Create(msgspec.Struct, frozen=True):
    tournament_id: str
    organiser: str
    name: str
    game: str
    options: dict[str, Any]
    format: str
    rounds: int | None = None
    schedule: str | None = None
    bots: dict[str, Any] = {}
    no_show_grace: int | None = None   # None: NO_SHOW_GRACE
    imported_boards: int = 0
    individual: bool = False
    rated: bool = False
    seeding: str = "registration"
    scoring: str = "matchpoints"
    closes_at: str | None = None


class Enter(msgspec.Struct, frozen=True):
    """Robot duplicate: a player enters at `now` (ISO 8601 UTC) and gets his own table."""

    entry_id: str
    players: list[str]
    name: str
    now: str


class CloseWindow(msgspec.Struct, frozen=True):
    """Robot duplicate: the window has closed at `now`; `partial` gives each table still
    playing the boards it finished (table -> board -> score), `seeds` the boards' seeds."""

    now: str
    seeds: dict[str, str]
    partial: dict[int, dict[str, dict[str, int]]] = {}


class Register(msgspec.Struct, frozen=True):
    entry_id: str
    players: list[str]
    name: str = ""


class Withdraw(msgspec.Struct, frozen=True):
    entry_id: str


class Start(msgspec.Struct, frozen=True):
    commitment: str | None
    board_digests: list[str] = []
    seeds: list[str] = []


class Cancel(msgspec.Struct, frozen=True):
    """Close a tournament that never started, saying why (`too_few_entries` when its schedule
    came with fewer entries than a table needs)."""

    reason: str


class Finish(msgspec.Struct, frozen=True):
    """End a running tournament with the round in play: its tables play on, nothing after
    it is paired. The standings are final when it closes."""


class SubmitPairing(msgspec.Struct, frozen=True):
    round: int
    tables: list[list[str]]
    byes: list[str] = []


class PairNext(msgspec.Struct, frozen=True):
    round: int                     # the round to pair: a stale worker's command is refused


class OpenTable(msgspec.Struct, frozen=True):
    round: int
    table: int
    match_id: str
    opened_at: str | None = None


class Forfeit(msgspec.Struct, frozen=True):
    """The service saw, at `now`, that these entries of a table without a result have not
    acted at it in person: the rules check the grace has run out and record the forfeit."""

    round: int
    table: int
    match_id: str
    absent: list[str]
    now: str                       # ISO 8601 UTC
    seeds: dict[str, str]          # as in RecordResult: revealed if this result closes the round


class RecordResult(msgspec.Struct, frozen=True):
    round: int
    table: int
    match_id: str
    score: dict[str, int]
    boards: dict[str, dict[str, int]]
    seeds: dict[str, str]          # the round's board seeds, revealed if this result closes it
    forfeit: str | None = None
