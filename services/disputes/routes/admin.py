"""Admin routes of the disputes feature: the queue, the replay of a deal, rulings, the audit.

Declared with the disputes feature (`services.disputes.routes.disputes.FEATURE`). The replay shows hidden cards, so it is for
admins and for the organiser of the match's own tournament only — neither while he plays in
the match or its tournament (services/visibility.py) — and every read of it, or refusal of one
to a role that plays, is written to the audit stream before the answer leaves. Rulings and
the audit log are for admins.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, timezone
from typing import Annotated, Any, Literal

import msgspec
from litestar import get, post
from litestar.params import Body, FromPath

from services.disputes.routes.answers import DealReplay, DisputeOut, DisputeRow
from services.disputes.routes.record_answers import AuditRow
from services.disputes.routes.views import (
    HANDLERS,
    PATH_HANDLERS,
    QUEUE_EXAMPLE,
    RULED_EXAMPLE,
    SEALED_EXAMPLE,
    VERIFY_EXAMPLE,
    Reason,
    dispute_out,
    queue,
    service,
)
from services.http.auth import authenticated, requires

from services.http.errors import ApiError
from services.http.ratelimit import rate_limited
from services.http.schemas import (
    VIEW_EXAMPLE,
    BEARER,
    MATCH_ID,
    PLAYER_ID,
    Caller,
    FromQuery,
    Limit,
    PathStr,
    Runtime,
    ex,
    responses,
)
from services.matches.routes.flows import parse_seat

TAGS = ["admin"]
ADMIN = [authenticated, rate_limited, requires("admin")]
REVIEWER = [authenticated, rate_limited, requires("organiser")]  # then: an organiser of this match only
MAX_AUDIT_DAYS = 31
STATUS_SETS = {"pending": ["open", "in_review"], "all": None}


class RulingIn(msgspec.Struct, forbid_unknown_fields=True):
    ruling: Literal["reject", "adjust", "void", "replay"]
    reason: Reason
    score: dict[str, int] | None = None
    command_id: uuid.UUID | None = None


@get("/v1/admin/disputes", guards=ADMIN, tags=TAGS, security=BEARER, summary="The disputes queue (admin)",
     description="`status`: pending (open or in review, the default), open, in_review, resolved, rejected, all. "
                 "A dispute on a match the admin plays in — a seat, or an entry of its tournament — keeps its place "
                 "without its reason and position (`sealed: true`) until the match is over and public to him.",
     responses=responses(200, list[DisputeRow], [ex("the queue", [QUEUE_EXAMPLE, SEALED_EXAMPLE])],
                         "Disputes, newest first", 400, 401, 403, 429))
async def disputes_queue(principal: Caller, runtime: Runtime, limit: Limit = 100,
                         status: FromQuery[Literal["pending", "open", "in_review", "resolved", "rejected", "all"]]
                         = "pending") -> list[dict[str, Any]]:
    return await _sealed_rows(principal, runtime, await queue(runtime.pool, STATUS_SETS.get(status, [status]), None,
                                                              limit))


async def _sealed_rows(principal: Any, runtime: Any, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A dispute's reason and position may name cards: sealed for a reader who plays in the
    match or its tournament until it is over and public (`Visibility.seal_queue`)."""
    return await runtime.visibility.seal_queue(principal, rows, ("reason", "position"), runtime.matches.find)


REPLAY_EXAMPLE = {"match_id": MATCH_ID, "game": "belote", "options": {"variant": "classic", "deals": 2}, "deal": 0,
                  "dealer": "N", "finished": True, "replay_of": None,
                  "seats": {"N": {"kind": "player", "player_id": PLAYER_ID, "level": None},
                            "E": {"kind": "bot", "player_id": None, "level": "basic"}, "S": None, "W": None},
                  "rulings": [], "deck": ["7S", "…"], "illegal": [], "verification": VERIFY_EXAMPLE,
                  "recorded_result": {"scores": {"NS": 162, "EW": 0}}, "rescored_result": None,
                  "steps": [{"version": 9, "at": "2025-05-01T18:00:02+00:00", "type": "card_played",
                             "mark": "clock_expiry", "event": {"type": "card_played", "seat": "N", "card": "AS"},
                             "flag": None, "seen": {"type": "card_played", "seat": "N", "card": "AS"},
                             "view": VIEW_EXAMPLE["table"], "hands": {"N": ["KS", "…"], "E": [], "S": [], "W": []}}],
                  "chat": [{"version": 4, "type": "chat_message", "message_id": "2c9a…", "channel": "spectators",
                            "player_id": PLAYER_ID, "name": "Ada", "seat": None, "preset": None, "text": "…",
                            "phase": "playing", "match_version": 9, "at": "2025-05-01T18:00:03+00:00"}]}


@get("/v1/admin/matches/{match_id:str}/deals/{deal:int}/replay", guards=REVIEWER, tags=TAGS, security=BEARER,
     exception_handlers=PATH_HANDLERS, summary="Replay a deal with every card (admin, or the tournament's organiser)",
     description="Every event of the deal with the time it was recorded; after each, the table's view and every "
                 "seat's cards — or with `?seat=N` only what that seat saw. Automatic plays, clock expiries and bot "
                 "takeovers are marked; every action is re-checked against the current rules (`illegal`); the "
                 "deal is verified; `chat` is every table-chat message of both channels sent during the deal "
                 "(`GET /v1/admin/matches/{id}/chat` pages the whole chat). The read is recorded in the audit log; "
                 "`?dispute=ID` also puts that dispute in review. Not for someone who holds a seat in the match or an entry in its tournament, whatever "
                 "his role, while the deal is hidden from his seat (not over; another table of his tournament "
                 "before its round has closed; a sealed board before the match is over and its round closed): 403 "
                 "`privileged_while_playing`, the refusal recorded in the audit log.",
     responses=responses(200, DealReplay, [ex("the table", REPLAY_EXAMPLE)], "The replay", 400, 401, 403, 404, 429))
async def replay(match_id: PathStr, deal: FromPath[int], principal: Caller, runtime: Runtime,
                 seat: FromQuery[str | None] = None, dispute: FromQuery[str | None] = None) -> dict[str, Any]:
    from services.matches.routes.play import ensure_readable

    svc = service(runtime)
    state = await runtime.matches.load(match_id)  # 404 before 403 tells nothing: the ids are unguessable
    await ensure_readable(runtime, principal, state, "replay", deal, route="replay")
    return await svc.replay(match_id, deal, principal, None if seat is None else parse_seat(seat), dispute)


@post("/v1/admin/disputes/{dispute_id:str}/rulings", guards=ADMIN, status_code=200, tags=TAGS, security=BEARER,
      exception_handlers=HANDLERS, summary="Rule on a dispute (admin)",
      description="`reject` closes it; `adjust` adds `score` (side -> points) after the deal; `void` takes the "
                  "deal out of the match score; `replay` voids it and deals the same deck again as the next deal. "
                  "Adjust, void and replay are events of the match, so its score and winner follow (a finished "
                  "match can change winner or reopen). The game decides when a ruling is allowed (422 with its "
                  "code); a dispute already ruled is 409 dispute_closed.",
      responses=responses(200, DisputeOut, [ex("voided", RULED_EXAMPLE)], "The dispute",
                          400, 401, 403, 404, 409, 422, 429))
async def rule(dispute_id: PathStr, data: Annotated[RulingIn, Body(examples=[
        ex("void", {"ruling": "void", "reason": "a revoke went unnoticed"}),
        ex("adjust", {"ruling": "adjust", "reason": "a claim was misapplied", "score": {"NS": -20, "EW": 20}})])],
        principal: Caller, runtime: Runtime) -> dict[str, Any]:
    dispute = await service(runtime).rule(dispute_id, principal, data.ruling, data.reason.strip(), data.score,
                                          data.command_id)
    return dispute_out(dispute)


AUDIT_EXAMPLE = [{"at": "2025-05-01T18:10:00+00:00", "type": "audit_entry", "actor": PLAYER_ID, "role": "admin",
                  "action": "replay", "match_id": MATCH_ID, "deal": 0, "seat": None, "dispute_id": None, "detail": {}}]


def _day(value: str | None, default: date) -> date:
    if value is None:
        return default
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ApiError(400, "invalid_field", f"bad date {value!r}: use YYYY-MM-DD", {"field": "date"}) from None


@get("/v1/admin/audit", guards=ADMIN, tags=TAGS, security=BEARER, summary="Who saw or changed what (admin)",
     description="Every replay read (hidden cards seen), review and ruling, oldest first, for the days `since`.."
                 f"`until` (UTC, default today; at most {MAX_AUDIT_DAYS} days), optionally for one match or actor.",
     responses=responses(200, list[AuditRow], [ex("a read", AUDIT_EXAMPLE)], "Audit entries", 400, 401, 403, 429))
async def audit(runtime: Runtime, since: FromQuery[str | None] = None, until: FromQuery[str | None] = None,
                match_id: FromQuery[str | None] = None, actor: FromQuery[str | None] = None) -> list[dict[str, Any]]:
    today = datetime.now(timezone.utc).date()
    first, last = _day(since, today), _day(until, today)
    if not 0 <= (last - first).days < MAX_AUDIT_DAYS:
        raise ApiError(400, "invalid_field", f"since..until spans 1 to {MAX_AUDIT_DAYS} days", {"field": "since"})
    return await service(runtime).audit_log(first, last, match_id, actor)


ROUTES = [disputes_queue, replay, rule, audit]
