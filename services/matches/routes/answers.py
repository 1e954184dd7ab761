"""What the match routes answer, typed for a client generator. The handlers build these
answers as plain values (the view is the domain's, the rows the read models'); these Structs
are their documented shape, and the tests validate real answers against the served document.
A game's own parts (`table`, options, actions) are typed per game by
`services.http.contract_views` when the document is finished."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.cards import Seat

Scalar = str | int | bool | float | None


class SeatHolderOut(msgspec.Struct):
    """Who holds a seat: a player (`player_id`) or a bot (`level`)."""

    kind: Literal["player", "bot"]
    player_id: str | None
    level: str | None


class NamedSeatHolderOut(SeatHolderOut, kw_only=True):
    name: str | None | msgspec.UnsetType = msgspec.UNSET   # a player's display name (null once erased)


class ClockOut(msgspec.Struct):
    """Seconds each seat has for a decision of the auction (`bid`) and of the play (`play`)."""

    bid: float | None = None
    play: float | None = None


class SuspensionOut(msgspec.Struct):
    reason: str
    message: str


class MatchViewOut(msgspec.Struct):
    """A match as one seat (or a spectator) sees it; `table` is its game's view (one schema per game)."""

    match_id: str
    game: str
    options: dict[str, Scalar]
    seats: dict[str, SeatHolderOut | None]
    status: Literal["open", "playing", "suspended", "finished", "abandoned", "void"]
    version: int
    commitment: str | None
    seat: Seat | None
    table: dict[str, Scalar]         # replaced in the document by the games' views
    to_act: list[Seat]
    clock: ClockOut | None
    deadline: str | None
    visibility: Literal["public", "private"]
    hints_used: dict[str, int]
    hints_limit: int
    details: SuspensionOut | None = None
    invitation_code: str | msgspec.UnsetType = msgspec.UNSET   # the host's, only in his answer to creating it


class LobbyRow(msgspec.Struct):
    match_id: str
    game: str
    options: dict[str, Scalar]
    seats: dict[str, NamedSeatHolderOut | None]
    free_seats: int
    created_at: str


class MatchSummary(msgspec.Struct):
    """A match in a list. A table the reader may not watch yet (a tournament board still in play
    elsewhere) keeps its place but not what its play derives: `score`, `winner`, `deals` and
    `version` are null and `sealed` is true."""

    match_id: str
    game: str
    options: dict[str, Scalar]
    seats: dict[str, SeatHolderOut | None]
    status: str
    score: dict[str, int] | None
    deals: int | None
    winner: str | None
    version: int | None
    created_at: str | None
    updated_at: str | None
    sealed: bool | msgspec.UnsetType = msgspec.UNSET     # sent only as true


class EntropyOut(msgspec.Struct):
    match_id: str
    seat: Seat
    chain: int


class HintReason(msgspec.Struct):
    """Why a hint: a stable `code`, its English `words`, and the values the words name."""

    code: str
    words: str
    params: dict[str, Scalar | list[Scalar]]   # the numbers, suits and cards the words name


class HintOut(msgspec.Struct):
    match_id: str
    seat: Seat
    version: int
    action: dict[str, Scalar] | None  # replaced in the document by the games' actions
    reason: HintReason
    used: int
    limit: int
    replayed: bool


class ShuffleInputs(msgspec.Struct):
    """What a shuffled deal was made of: the revealed seed, its commitment, the context and
    the seats' entropy (seat -> text); an imported deck has no `fair` at all."""

    seed: str | None
    commitment: str | None
    context: str | None
    entropy: dict[str, str] | None


class RecordDeal(msgspec.Struct):
    """A finished deal: its dealer, its deck (top first), its actions in order."""

    dealer: str
    deck: list[str]
    actions: list[dict[str, Scalar]]   # replaced in the document by the games' actions
    fair: ShuffleInputs | msgspec.UnsetType = msgspec.UNSET


class ChainRenewal(msgspec.Struct):
    """A renewal of the commitment chain: its number, tip, length and the first deal it shuffles."""

    chain: int
    tip: str
    chain_length: int
    first_deal: int


class RecordSignature(msgspec.Struct):
    """The server's signature over the record without it (docs/fair-deal.md)."""

    alg: Literal["ed25519"]
    key_id: str
    value: str


class RecordOut(msgspec.Struct):
    """A match record (the format of the rules' README), signed by the server."""

    match_id: str
    game: str
    options: dict[str, Scalar]
    deals: list[RecordDeal]
    signature: RecordSignature
    tip: str | msgspec.UnsetType = msgspec.UNSET
    chain_length: int | msgspec.UnsetType = msgspec.UNSET
    renewals: list[ChainRenewal] | msgspec.UnsetType = msgspec.UNSET


class RecordPlayOut(msgspec.Struct):
    """A record played through the rules (the README's result object), and what its signature
    is worth here: `valid`, `invalid` (altered since), `unknown_key`, `absent`."""

    ok: bool                          # true here; a refused record is the 422
    deals: list[dict[str, Scalar]]    # replaced in the document: the deals' summaries
    match_score: dict[str, int]
    winner: str | None
    signature: Literal["valid", "invalid", "unknown_key", "absent"]
    legal: dict[str, list[dict[str, Scalar]]] | msgspec.UnsetType = msgspec.UNSET   # with ?legal=true


class RecordPlayRefused(msgspec.Struct):
    """A record the rules refuse (422): the first problem as `atout record play` prints it —
    where (`deal`, `index` of the action; null when the record itself is at fault), the rule's
    code and message, `details.check` for a fair-chain check that does not hold."""

    ok: bool                          # false
    deal: int | None
    index: int | None
    code: str
    message: str
    # absent when the body was not JSON at all (no record to check a signature of)
    signature: Literal["valid", "invalid", "unknown_key", "absent"] | msgspec.UnsetType = msgspec.UNSET
    details: dict[str, Scalar] | msgspec.UnsetType = msgspec.UNSET
