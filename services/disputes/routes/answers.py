"""What the dispute routes answer, as the OpenAPI document types it: the dispute, the queue's
rows, a deal's verification, the admin replay, the match record an export gives, the audit.

The handlers build plain dicts (or a dispute's Struct as builtins); these Structs describe
them field for field. A field a branch leaves out has a default (so it is not `required`);
one that may be null says so. What the game owns — its options, its view of the table, its
events' payloads and deal summaries, the actions as its vocabulary spells them — is a
documented map (`services.http.documented.GameMap`)."""

from __future__ import annotations

from typing import Literal

import msgspec

from services.matches.routes.answers import SeatHolderOut
from services.http.documented import ABSENT, Absent, GameMap

DisputeStatus = Literal["open", "in_review", "resolved", "rejected"]


class DisputePosition(msgspec.Struct):
    """Where in the deal the complaint points: a trick (0-based) and a card, both optional."""

    deal: int
    trick: int | None
    card: str | None


class DisputeRuling(msgspec.Struct):
    """The ruling that closed a dispute; `match_version` is the match's version after it (null
    for a rejection, which changes nothing in the match)."""

    type: Literal["dispute_ruled"]
    dispute_id: str
    ruling: Literal["reject", "adjust", "void", "replay"]
    admin: str
    reason: str
    score: dict[str, int] | None
    match_version: int | None


class DisputeOut(msgspec.Struct):
    """A dispute as its stream folds it: who filed (`by`, and `role`: why he could), on which
    deal, why, where; its status and, once ruled, the ruling."""

    dispute_id: str
    match_id: str
    deal: int
    by: str
    role: str
    reason: str
    position: DisputePosition | None
    status: DisputeStatus
    ruling: DisputeRuling | None
    version: int


class QueuedRuling(msgspec.Struct):
    """A ruling as the queue shows it, with the time it was made."""

    ruling: Literal["reject", "adjust", "void", "replay"]
    admin: str
    reason: str
    score: dict[str, int] | None
    match_version: int | None
    at: str


class DisputeRow(msgspec.Struct):
    """A row of the disputes queue (the `disputes` read model). A dispute on a match the reader
    plays in has `sealed: true` and its `reason` and `position` null until the match is public
    to him; `sealed` is absent otherwise."""

    dispute_id: str
    match_id: str
    deal: int
    filed_by: str
    role: str | None
    reason: str | None
    position: DisputePosition | None
    status: DisputeStatus
    ruling: QueuedRuling | None
    filed_at: str | None
    updated_at: str | None
    version: int
    sealed: bool | Absent = ABSENT


class DealVerification(msgspec.Struct):
    """A deal's shuffle checked: `pending` (the deal is not over) carries only the commitment;
    `predefined` (an imported deck) the shuffle inputs it has and no checks; `verified` and
    `failed` the seed, its place in the chain (`chain_index`), every check (`checks`: name ->
    passed) and the names of those that failed (`problems`), with `error` when the inputs
    could not be read at all."""

    deal: int
    replay_of: int | None
    tip: str | None
    commitment: str | None
    status: Literal["verified", "failed", "pending", "predefined"]
    checks: dict[str, bool]
    problems: list[str]
    seed: str | None | Absent = ABSENT
    context: str | None | Absent = ABSENT
    entropy: dict[str, str] | None | Absent = ABSENT
    chain_index: int | Absent = ABSENT
    error: str | Absent = ABSENT


class ReplayRuling(msgspec.Struct):
    """A ruling applied to the replayed deal (the match's `ruling_applied` event), with the
    version and time it was recorded; `board` is the deal queued again by a replay ruling."""

    version: int
    at: str
    type: Literal["ruling_applied"]
    ruling: str
    deal: int
    admin: str
    reason: str
    dispute_id: str | None
    score: dict[str, int] | None
    board: GameMap | None


class IllegalAction(msgspec.Struct):
    """A recorded action the current rules refuse: where (`version`, `index` among the deal's
    actions, `seat`), the action, and the rule's code and message."""

    version: int
    index: int
    seat: str
    action: GameMap
    code: str
    message: str


class RuleFlag(msgspec.Struct):
    code: str
    message: str


class ReplayStep(msgspec.Struct):
    """One event of the deal, with the time it was recorded and the table after it. `seen` is
    the event as the replay's reader (a seat, or the table) saw it (null: hidden); `view` the
    game's view. The table's replay adds the whole `event`, its `flag` (the rule an action
    broke) and every seat's cards (`hands`); a seat's replay has none of the three."""

    version: int
    at: str
    type: str
    mark: str | None
    seen: GameMap | None
    view: GameMap | None
    event: GameMap | Absent = ABSENT
    flag: RuleFlag | None | Absent = ABSENT
    hands: dict[str, list[str]] | Absent = ABSENT


class ChatLine(msgspec.Struct):
    """A table-chat message sent during the deal, either channel, with the sender's name now
    (null once erased) and the match's version when it was sent."""

    version: int
    type: Literal["chat_message"]
    message_id: str
    channel: str
    player_id: str
    name: str | None
    seat: str | None
    preset: str | None
    text: str | None
    phase: str
    match_version: int
    at: str


class DealReplay(msgspec.Struct):
    """A deal from its deck to its end, for a reviewer. As the table (no `?seat`): the deck,
    the actions the rules now refuse (`illegal`), the recorded and re-scored results (the
    latter null when they agree) and the verification. As one seat: none of those but the
    verification, and that only once the deal is over."""

    match_id: str
    game: str
    options: GameMap
    deal: int
    dealer: str
    finished: bool
    replay_of: int | None
    seats: dict[str, SeatHolderOut | None]
    rulings: list[ReplayRuling]
    steps: list[ReplayStep]
    chat: list[ChatLine]
    verification: DealVerification | Absent = ABSENT
    deck: list[str] | Absent = ABSENT
    illegal: list[IllegalAction] | Absent = ABSENT
    recorded_result: GameMap | None | Absent = ABSENT
    rescored_result: GameMap | None | Absent = ABSENT
