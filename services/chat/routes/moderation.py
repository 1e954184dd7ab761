"""Moderation routes: report a chat message or a player; the admins' queue, mutes and bans,
and the whole chat of a match for an admin reviewing it (docs/chat.md, "Moderation").

Declared with the chat feature (`services.chat.routes.chat.FEATURE`), with the `chat_reports` read
model the queue pages through. Every admin action is an event and an audit entry
(`services.chat.moderation`).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

import msgspec
from litestar import Request, Response, get, post
from litestar.params import Body

from domain import moderation as rules
from infra import streams
from infra.projections.reports import queue
from services.audit import append_audit
from services.chat.moderation import ModerationService, sanctions_out
from services.chat.routes.answers import (
    ChatMessageOut,
    QueuedReportOut,
    ReportDismissedOut,
    ReportOut,
    SanctionsOut,
)
from services.chat.service import ChatService
from services.http import paging
from services.http.auth import authenticated, requires
from services.http.errors import malformed
from services.http.examples import ex
from services.http.ratelimit import rate_limited
from services.http.schemas import (
    BEARER,
    MATCH_ID,
    PLAYER_ID,
    SAYS_SOMETHING,
    Caller,
    FromQuery,
    Limit,
    PathStr,
    Runtime,
    responses,
)
from services.refusals import Forbidden, NotFound
from services.visibility import PLAYING, seat_of

TAGS = ["moderation"]
PLAYER = [authenticated, rate_limited]
ADMIN = [authenticated, rate_limited, requires("admin")]
Reason = Annotated[str, msgspec.Meta(min_length=1, max_length=rules.MAX_REASON, pattern=SAYS_SOMETHING)]
Id = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=r"^[!-$&-~]+$")]
STATUSES = {"open": ["open"], "muted": ["muted"], "banned": ["banned"], "dismissed": ["dismissed"],
            "closed": ["muted", "banned", "dismissed"], "all": None}


class ReportIn(msgspec.Struct, forbid_unknown_fields=True):
    """A `player_id`, or a `match_id` with a `message_id` (services/http/contract.py says so in
    the document). Absent and null are not the same here: a null id is refused, as the schema says."""

    reason: Reason
    player_id: Id | msgspec.UnsetType = msgspec.UNSET
    match_id: Id | msgspec.UnsetType = msgspec.UNSET
    message_id: Id | msgspec.UnsetType = msgspec.UNSET
    command_id: uuid.UUID | msgspec.UnsetType = msgspec.UNSET


REPORT_BODY = Body(
    title="ReportIn", description="A player (`player_id`), or a chat message (`match_id` and `message_id`: its "
                                  "sender is the one reported), and why. A retried `command_id` files once.",
    examples=[ex("a message", {"match_id": MATCH_ID, "message_id": "2c9a6f1e-…", "reason": "insults"}),
              ex("a player", {"player_id": PLAYER_ID, "reason": "spams every table"})])

REPORT_EXAMPLE = {"report_id": "9e1d…", "player_id": PLAYER_ID, "reporter": "3b7c…", "match_id": MATCH_ID,
                  "message_id": "2c9a6f1e-…", "message": {"player_id": PLAYER_ID, "channel": "spectators",
                                                          "seat": None, "preset": None, "text": "…", "phase":
                                                              "playing", "version": 4, "at": "2026-12-01T14:03:10+00:00"},
                  "reason": "insults", "status": "open", "resolution": None, "created_at": "2026-12-01T14:05:00+00:00"}
QUEUE_EXAMPLE = [
    {**REPORT_EXAMPLE, "status": "muted", "player_name": "Ada", "reporter_name": "Bruno",
     "resolution": {"admin": "7e2f…", "action": "muted", "reason": "insults", "at": "2026-12-01T14:20:00+00:00"}},
    {**REPORT_EXAMPLE, "report_id": "4a0c…", "message": None, "reason": None, "player_name": "Ada",
     "reporter_name": "Chloé", "sealed": True},     # about a match the admin plays in
    {**REPORT_EXAMPLE, "report_id": "5d3b…", "match_id": None, "message_id": None, "message": None,
     "reason": "spams every table", "player_name": "Ada", "reporter_name": "Bruno"}]
ADMIN_CHAT_EXAMPLE = [  # both channels, whoever could read them
    {"version": 4, "type": "chat_message", "message_id": "2c9a6f1e-…", "channel": "spectators", "player_id": PLAYER_ID,
     "name": "Ada", "seat": None, "preset": None, "text": "…", "phase": "playing", "match_version": 41,
     "at": "2026-12-01T14:03:10.120+00:00"},
    {"version": 3, "type": "chat_message", "message_id": "8b0e4d2a-…", "channel": "table", "player_id": "3b7c…",
     "name": None, "seat": "N", "preset": "good_luck", "text": None, "phase": "playing", "match_version": 12,
     "at": "2026-12-01T14:01:02.410+00:00"}]
SANCTIONS_EXAMPLE = {"player_id": PLAYER_ID, "muted_until": "2026-12-01T15:05:00+00:00", "mute_reason": "insults",
                     "banned": False, "ban_reason": None, "version": 1}


@post("/v1/reports", guards=PLAYER, status_code=201, tags=TAGS, security=BEARER,
      summary="Report a chat message or a player",
      description="Reports go to the admins' queue. A message is reported as the reporter may read it (403 if he "
                  "may not watch the match, 404 `unknown_message`); reporting oneself is 422 `cannot_report_self`; "
                  "a banned player reports nothing (403 `player_banned`).",
      responses=responses(201, ReportOut, [ex("filed", REPORT_EXAMPLE)], "The report", 400, 401, 403, 404, 409, 422,
                          429))
async def report(data: Annotated[ReportIn, REPORT_BODY], principal: Caller, runtime: Runtime) -> dict[str, Any]:
    player_id, match_id, message_id, command_id = (None if v is msgspec.UNSET else v for v in (
        data.player_id, data.match_id, data.message_id, data.command_id))
    if (match_id is None) != (message_id is None):
        raise malformed("$.message_id", "a message is named by its match_id and its message_id together")
    if player_id is None and message_id is None:
        raise malformed("$.player_id", "name a player_id, or a message (match_id and message_id)")
    return await ModerationService(runtime).report(principal, reason=data.reason.strip(), player_id=player_id,
                                                   match_id=match_id, message_id=message_id, command_id=command_id)


@get("/v1/admin/reports", guards=ADMIN, tags=["admin", *TAGS], security=BEARER, summary="The reports queue (admin)",
     description="`status`: open (the default), muted, banned, dismissed, closed (any of the three), all. Newest "
                 "first, paged (`limit`, a `Link` to the next page). Names are the players' now (null once erased). "
                 "A report about a message of a match the admin plays in — a seat, or an entry of its tournament — "
                 "keeps its place without its message and reason (`sealed: true`) until the match is over and "
                 "public to him.",
     responses=responses(200, list[QueuedReportOut], [ex("the queue", [{**REPORT_EXAMPLE, "player_name": "Ada",
                                                                          "reporter_name": None}]),
                                                     ex("closed and sealed", QUEUE_EXAMPLE)],
                         "Reports", 400, 401, 403, 429))
async def reports_queue(request: Request, principal: Caller, runtime: Runtime, limit: Limit = 50,
                        cursor: paging.Cursor = None,
                        status: FromQuery[Literal["open", "muted", "banned", "dismissed", "closed", "all"]] = "open"
                        ) -> Response:
    rows = await queue(runtime.pool, STATUSES[status], limit, paging.decode(cursor))
    rows = await runtime.visibility.seal_queue(principal, rows, ("message", "reason"), runtime.matches.find)
    names = await runtime.players.names(sorted({r["player_id"] for r in rows} | {r["reporter"] for r in rows}))
    rows = [{**r, "player_name": names.get(r["player_id"]), "reporter_name": names.get(r["reporter"])} for r in rows]
    return paging.page(request, rows, limit, "created_at", "report_id")


class Dismissal(msgspec.Struct, forbid_unknown_fields=True):
    reason: Reason


@post("/v1/admin/reports/{report_id:str}/dismiss", guards=ADMIN, status_code=200, tags=["admin", *TAGS],
      security=BEARER, summary="Dismiss a report (admin)",
      description="Closes it without a sanction; recorded in the report's stream and the audit. A report already "
                  "dealt with is 422 `report_closed`.",
      responses=responses(200, ReportDismissedOut, [ex("dismissed", {"report_id": "9e1d…", "status": "dismissed"})],
                          "The report's new status", 400, 401, 403, 404, 422, 429))
async def dismiss(report_id: PathStr, data: Annotated[Dismissal, Body(examples=[ex("nothing wrong", {
        "reason": "a friendly joke"})])], principal: Caller, runtime: Runtime) -> dict[str, Any]:
    service = ModerationService(runtime)
    if not await runtime.store.read_stream(streams.report_stream(report_id), 0, 1):
        raise NotFound("unknown_report", f"no report {report_id!r}", {"report_id": report_id})
    return await service.dismiss(principal, report_id, data.reason.strip())


class Sanction(msgspec.Struct, forbid_unknown_fields=True):
    reason: Reason
    report_id: Id | None = None
    command_id: uuid.UUID | None = None


class Mute(msgspec.Struct, forbid_unknown_fields=True):
    minutes: Annotated[int, msgspec.Meta(ge=1, le=rules.MAX_MUTE_MINUTES)]
    reason: Reason
    report_id: Id | None = None
    command_id: uuid.UUID | None = None


def _spec(action: str, summary: str, description: str) -> dict[str, Any]:
    return dict(guards=ADMIN, status_code=200, tags=["admin", *TAGS], security=BEARER, summary=summary,
                description=description, operation_id=f"AdminPlayer{action.title()}",
                responses=responses(200, SanctionsOut, [ex(action, SANCTIONS_EXAMPLE)], "The player's sanctions now",
                                    400, 401, 403, 404, 409, 422, 429))


@post("/v1/admin/players/{player_id:str}/mute", **_spec(
    "mute", "Mute a player's chat for a time (admin)",
    f"For `minutes` (1..{rules.MAX_MUTE_MINUTES}) from now, replacing a running mute; his messages are refused "
    "with 403 `chat_muted` and `until`. `report_id` closes that report as `muted`."))
async def mute(player_id: PathStr, principal: Caller, runtime: Runtime, data: Annotated[Mute, Body(examples=[
        ex("an hour", {"minutes": 60, "reason": "insults", "report_id": "9e1d…"})])]) -> dict[str, Any]:
    return await ModerationService(runtime).sanction(principal, player_id, "mute", reason=data.reason.strip(),
                                                     minutes=data.minutes, report_id=data.report_id,
                                                     command_id=data.command_id)


SANCTION_BODY = Body(examples=[ex("a ban", {"reason": "repeated insults after two mutes", "report_id": "9e1d…"}),
                               ex("a lift", {"reason": "appeal granted"})])


def _sanction_route(action: Literal["unmute", "ban", "unban"], summary: str, description: str) -> Any:
    @post(f"/v1/admin/players/{{player_id:str}}/{action}", **_spec(action, summary, description))
    async def handler(player_id: PathStr, principal: Caller, runtime: Runtime,
                      data: Annotated[Sanction, SANCTION_BODY]) -> dict[str, Any]:
        return await ModerationService(runtime).sanction(principal, player_id, action, reason=data.reason.strip(),
                                                         report_id=data.report_id, command_id=data.command_id)

    handler.__name__ = f"{action}_player"
    return handler


unmute = _sanction_route("unmute", "Lift a player's mute (admin)", "422 `not_muted` when he is not muted.")
ban = _sanction_route("ban", "Ban a player (admin)",
                      "Until lifted: no chat, no report, no new table (creating a match, taking a seat, a rematch): "
                      "403 `player_banned` with the reason. What he plays already goes on. 422 `already_banned`. "
                      "`report_id` closes that report as `banned`.")
unban = _sanction_route("unban", "Lift a player's ban (admin)", "422 `not_banned` when he is not banned.")


@get("/v1/admin/players/{player_id:str}/sanctions", guards=ADMIN, tags=["admin", *TAGS], security=BEARER,
     summary="A player's mute and ban (admin)",
     responses=responses(200, SanctionsOut, [ex("muted", SANCTIONS_EXAMPLE)], "The player's sanctions", 401, 403, 404,
                         429))
async def sanctions(player_id: PathStr, runtime: Runtime) -> dict[str, Any]:
    if await runtime.players.get(player_id) is None:
        raise NotFound("unknown_player", f"no player {player_id!r}", {"player_id": player_id})
    return sanctions_out(player_id, await ModerationService(runtime).sanctions(player_id))


@get("/v1/admin/matches/{match_id:str}/chat", guards=ADMIN, tags=["admin", *TAGS], security=BEARER,
     summary="A match's whole chat, both channels (admin)",
     description="Every message, whoever could read it, newest first and paged as `GET /v1/matches/{id}/chat`: "
                 "what an admin reviewing a dispute or a report reads beside the replay. The read is recorded in "
                 "the audit. Not for an admin who holds a seat in the match (403 `privileged_while_playing`).",
     responses=responses(200, list[ChatMessageOut], [ex("messages", ADMIN_CHAT_EXAMPLE)], "Messages, newest first", 400,
                         401, 403, 404, 429))
async def admin_chat(request: Request, match_id: PathStr, principal: Caller, runtime: Runtime, limit: Limit = 50,
                     cursor: paging.Cursor = None) -> Response:
    before = paging.version_before(cursor)
    state = await runtime.matches.load(match_id)
    refused = PLAYING if seat_of(state, principal.player_id) is not None else await runtime.visibility.check(
        principal, state, "view")
    if refused is not None:                   # he plays here, or in its tournament while it is sealed
        await append_audit(runtime.store, principal, "refused", match_id=match_id,
                           detail={"code": refused.code, "read": "chat", "route": "admin_chat"})
        raise Forbidden(refused.code, refused.message, {"match_id": match_id})
    await append_audit(runtime.store, principal, "chat_read", match_id=match_id)
    rows = await ChatService(runtime).history(state, None, before, limit)
    return paging.page(request, rows, limit, "at", "version")


ROUTES = [report, reports_queue, dismiss, mute, unmute, ban, unban, sanctions, admin_chat]
