"""What `GET /v1/matches/{id}/export` and `GET /v1/admin/audit` answer, as the OpenAPI
document types it: a match record (shared/rules/README.md, docs/fair-deal.md "Signed
records") and the audit's entries. The actions and deal summaries are the game's words:
documented maps (`services.http.documented.GameMap`)."""

from __future__ import annotations

from typing import Literal

import msgspec

from services.http.documented import ABSENT, Absent, GameMap
from services.matches.routes.answers import ChainRenewal, RecordDeal, RecordSignature


class RecordRuling(msgspec.Struct):
    """A ruling in a record: a replay ruling is, in a record, the void of its deal (the board
    follows as a later deal); `score` (side -> points) only for an adjustment."""

    deal: int
    ruling: Literal["adjust", "void"]
    reason: str
    admin: str
    score: dict[str, int] | Absent = ABSENT


class RecordResult(msgspec.Struct):
    """What the match says of itself: for the whole match its score per side, winner and
    whether it is over; for one exported deal (`?deal=d`) that deal's summary (`deal`)."""

    match_score: dict[str, int] | Absent = ABSENT
    winner: str | None | Absent = ABSENT
    finished: bool | Absent = ABSENT
    deal: GameMap | Absent = ABSENT


class MatchRecordOut(msgspec.Struct):
    """The match (or one finished deal, `first_deal` naming it) as a signed match record:
    `atout record play` on it gives back `result`. `tip`, `chain_length` and `renewals` are
    the commitment chains, absent for a match that shuffled nothing."""

    match_id: str
    game: str
    options: GameMap
    deals: list[RecordDeal]
    rulings: list[RecordRuling]
    result: RecordResult
    signature: RecordSignature
    tip: str | Absent = ABSENT
    chain_length: int | Absent = ABSENT
    renewals: list[ChainRenewal] | Absent = ABSENT
    first_deal: int | Absent = ABSENT


class AuditRow(msgspec.Struct):
    """Who saw or changed what, when: `action` is replay (hidden cards seen), review, ruling,
    refused, chat_read or a moderation act; `detail` says more, in the action's words (a
    ruling's `ruling`, `reason`, `score`, `match_version`; a refusal's `code` and `read`)."""

    at: str
    type: Literal["audit_entry"]
    actor: str
    role: str
    action: str
    match_id: str | None
    deal: int | None
    seat: str | None
    dispute_id: str | None
    detail: GameMap
