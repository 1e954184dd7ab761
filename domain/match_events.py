"""The match layer's events and commands: what a match stream holds besides each game's own.

Every event here is public to every seat except `PRIVATE_MATCH_EVENTS` (the deck as dealt and
each decision as sent, which the public hand record of a finished deal is built from); the
decider that produces them and the views that redact them are in `domain.match`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.cards import Seat
from domain.game import StartDeal


class SeatHolder(msgspec.Struct, frozen=True):
    kind: str                      # "player" or "bot"
    player_id: str | None = None
    level: str | None = None       # bot level: random, basic, expert


# --- Events of the match layer (public to every seat) ----------------------------------

class TournamentRound(msgspec.Struct, frozen=True):
    """The tournament round a table belongs to: what is derived from the table (ratings,
    stats) is held until that round closes at every table (docs/api.md, "Who may read what")."""

    tournament_id: str
    round: int
    standin: str | None = None     # the bot level that plays for an absent person here (the clock's
                                   # and a takeover's), the organiser's `bots.standin`; None: basic


class MatchCreated(msgspec.Struct, frozen=True, tag="match_created"):
    match_id: str
    game: str
    options: dict[str, Any]
    seats: dict[str, SeatHolder | None]
    commitment: str | None         # hex c_0 of the hash chain; None for predefined deals only
    chain_length: int
    predefined_deals: int = 0      # how many deals come from an imported record (decks kept secret)
    created_by: str | None = None
    sealed: bool = False           # a tournament board: hand records and seeds stay hidden from
                                   # the table until the round closes everywhere (the service says when)
    rated: bool = False            # ranked play: the result moves the players' ratings (docs/ratings.md)
    private: bool = False          # kept out of the lobby and every public list; seats by invitation or code
    tournament: TournamentRound | None = None   # a tournament's table: its round


class SeatTaken(msgspec.Struct, frozen=True, tag="seat_taken"):
    seat: Seat
    holder: SeatHolder


class SeatLeft(msgspec.Struct, frozen=True, tag="seat_left"):
    seat: Seat
    player_id: str | None = None


class MatchStarted(msgspec.Struct, frozen=True, tag="match_started"):
    first_dealer: Seat


class DealDealt(msgspec.Struct, frozen=True, tag="deal_dealt"):
    """The deck of a deal, for the hand record. Hidden from every seat while the deal is
    played (each seat learns its own cards from the game's deal event); public once the
    deal is over, through DealFinished."""

    deal: int
    dealer: Seat
    deck: tuple[str, ...]
    fair: dict[str, Any] | None = None
    replay_of: int | None = None   # a board dealt again by a ruling: the deal it replays (fair is that deal's)


class ActionTaken(msgspec.Struct, frozen=True, tag="action_taken"):
    """A decision exactly as the seat sent it, for the hand record. Shown only to the seat
    that took it: some decisions (a discard, the cards a dealer keeps) are hidden, and the
    game's own events already say publicly what the table may know."""

    seat: Seat
    action: dict[str, Any]
    by: str = "player"             # player, bot, clock, automatic, takeover (a bot for a disconnected player)


class SeedRevealed(msgspec.Struct, frozen=True, tag="seed_revealed"):
    deal: int                      # 0-based deal index
    seed: str                      # hex c_k, checkable against the previous chain element
    context: str
    entropy: dict[str, str]


class DealFinished(msgspec.Struct, frozen=True, tag="deal_finished"):
    """The public hand record of a finished deal: enough to export it as a match record."""

    deal: int
    dealer: Seat
    deck: tuple[str, ...]
    actions: tuple[dict[str, Any], ...]
    summary: dict[str, Any]
    match_score: dict[str, int]
    fair: dict[str, Any] | None = None


class MatchFinished(msgspec.Struct, frozen=True, tag="match_finished"):
    winner: str | None
    match_score: dict[str, int]


class RulingApplied(msgspec.Struct, frozen=True, tag="ruling_applied"):
    """An admin's ruling on deal `deal` (docs/disputes.md), public to every seat. The game's
    own events for it (deal voided, score adjusted) follow in the same append, so the match's
    score and winner move exactly as the rules fold them. `replay` voids the deal and queues
    its `board` ({deal, deck, fair}) to be dealt again as the next deal."""

    ruling: str                    # adjust, void, replay
    deal: int
    admin: str
    reason: str
    dispute_id: str | None = None
    score: dict[str, int] | None = None
    board: dict[str, Any] | None = None


class MatchReopened(msgspec.Struct, frozen=True, tag="match_reopened"):
    """A ruling left a finished match with no winner: play goes on with the next deal."""

    match_score: dict[str, int]


class MatchAbandoned(msgspec.Struct, frozen=True, tag="match_abandoned"):
    """Nobody acted in the match for `idle_seconds` (the sweeper's ATOUT_ABANDON_AFTER), or an
    admin abandoned it (`admin` and `reason` then say who and why): it is over without a
    winner, and no action is taken any more."""

    idle_seconds: float
    admin: str | None = None
    reason: str | None = None


class ChainRenewed(msgspec.Struct, frozen=True, tag="chain_renewed"):
    """The tip of the match's next hash chain, published before any deal uses it and before
    any entropy that goes into its deals is given (docs/fair-deal.md, "Renewing the chain").
    Chain `chain` holds `chain_length` seeds; its element 1 shuffles the match's deal
    `first_deal` (0-based, as every `deal` of these events: its context names deal
    `first_deal + 1`), element i the deal `first_deal + i - 1`."""

    chain: int                     # 2, 3, ...: chain 1 is the match_created commitment
    tip: str                       # hex c_0 of the new chain
    chain_length: int
    first_deal: int


class MatchSuspended(msgspec.Struct, frozen=True, tag="match_suspended"):
    """The server could not move the match on, for a reason retrying cannot fix (the next deal
    could not be dealt, a bot's task failed on the same state again): nothing is played until
    an admin resumes, voids or abandons it. `reason` is a stable code, `message` says what
    failed in words that name no card."""

    reason: str
    message: str = ""
    status: str = "playing"        # the status the match had (always playing), which resuming gives back


class MatchResumed(msgspec.Struct, frozen=True, tag="match_resumed"):
    """An admin put a suspended match back to the status it had; the turn due is scheduled again."""

    admin: str
    reason: str


class MatchVoided(msgspec.Struct, frozen=True, tag="match_voided"):
    """An admin declared a suspended match void: it is over, without a winner, and its result
    counts nowhere. Its finished deals stay in its record."""

    admin: str
    reason: str


MATCH_EVENTS = (MatchCreated, SeatTaken, SeatLeft, MatchStarted, DealDealt, ActionTaken, SeedRevealed,
                DealFinished, MatchFinished, RulingApplied, MatchReopened, MatchAbandoned, ChainRenewed,
                MatchSuspended, MatchResumed, MatchVoided)
PRIVATE_MATCH_EVENTS = (DealDealt, ActionTaken)
MATCH_EVENT_TAGS = frozenset(e.__struct_config__.tag for e in MATCH_EVENTS)


# --- Commands -----------------------------------------------------------------------------

class TakeSeat(msgspec.Struct, frozen=True):
    seat: Seat
    holder: SeatHolder


class LeaveSeat(msgspec.Struct, frozen=True):
    seat: Seat
    player_id: str | None


class StartMatch(msgspec.Struct, frozen=True):
    first_dealer: Seat
    first_deal: StartDeal


class Act(msgspec.Struct, frozen=True):
    """A player's decision in the shared vocabulary; `player_id` None means the server (a bot
    or the clock) acts for the seat."""

    action: dict[str, Any]
    player_id: str | None = None
    by: str = "player"


class Abandon(msgspec.Struct, frozen=True):
    idle_seconds: float
    admin: str | None = None
    reason: str | None = None


class RenewChain(msgspec.Struct, frozen=True):
    """Publish the next chain's tip (the service drew its secret and kept it in the vault)."""

    tip: str
    chain_length: int


class Suspend(msgspec.Struct, frozen=True):
    reason: str
    message: str = ""


class Resume(msgspec.Struct, frozen=True):
    admin: str
    reason: str


class VoidMatch(msgspec.Struct, frozen=True):
    admin: str
    reason: str


class Rule(msgspec.Struct, frozen=True):
    """An admin's ruling (see RulingApplied); `board` is given by the service for `replay`."""

    ruling: str
    deal: int
    admin: str
    reason: str
    dispute_id: str | None = None
    score: dict[str, int] | None = None
    board: dict[str, Any] | None = None
