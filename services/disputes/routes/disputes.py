"""Player-facing dispute routes: file a dispute, my disputes, verify a deal, export a match.

`FEATURE` declares the disputes feature: these routes, the admin routes of
`services.disputes.routes.admin` and the `disputes` projection. Who may see what is
decided in `services.disputes.service` (players of the match, its tournament's organiser, admins;
finished deals to anyone once the match is over).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

import msgspec
from litestar import Response, get, post
from litestar.params import Body, FromPath

from domain import disputes as cases
from services.disputes.routes.answers import DealVerification, DisputeOut, DisputeRow
from services.disputes.routes.record_answers import MatchRecordOut
from services.disputes.routes.views import (
    DISPUTE_EXAMPLE,
    HANDLERS,
    PATH_HANDLERS,
    PENDING_EXAMPLE,
    QUEUE_EXAMPLE,
    RECORD_EXAMPLE,
    VERIFY_EXAMPLE,
    Reason,
    dispute_out,
    queue,
    service,
)
from services.disputes.service import DisputeService
from services.http.auth import authenticated

from services.http.ratelimit import rate_limited
from services.http.schemas import (
    BEARER,
    Caller,
    FromQuery,
    Limit,
    PathStr,
    Runtime,
    ex,
    responses,
)
from services.matches.routes import records

TAGS = ["disputes"]
PLAYER = [authenticated, rate_limited]


class PositionIn(msgspec.Struct, forbid_unknown_fields=True):
    deal: int | None = None
    trick: Annotated[int, msgspec.Meta(ge=0)] | None = None
    card: str | None = None


class FileDispute(msgspec.Struct, forbid_unknown_fields=True):
    deal: Annotated[int, msgspec.Meta(ge=0)]
    reason: Reason
    position: PositionIn | None = None
    command_id: uuid.UUID | None = None


@post("/v1/matches/{match_id:str}/disputes", guards=PLAYER, tags=TAGS, security=BEARER, exception_handlers=HANDLERS,
      summary="File a dispute on a deal",
      description="For a player of the match (or its tournament's organiser, or an admin): the deal (0-based), a "
                  "reason, and optionally where: `position: {trick, card}`. A retried `command_id` files once.",
      responses=responses(201, DisputeOut, [ex("filed", DISPUTE_EXAMPLE)], "The dispute", 400, 401, 403, 404, 422,
                          429))
async def file_dispute(match_id: PathStr, data: Annotated[FileDispute, Body(examples=[ex("a revoke", {
        "deal": 0, "reason": "W played a heart on a spade lead", "position": {"trick": 2, "card": "7H"}})])],
        principal: Caller, runtime: Runtime) -> Response:
    position = None
    if data.position is not None:
        p = data.position
        position = cases.Position(deal=data.deal if p.deal is None else p.deal, trick=p.trick, card=p.card)
    dispute = await service(runtime).file(match_id, principal, data.deal, data.reason, position, data.command_id)
    return Response(dispute_out(dispute), status_code=201,
                    headers={"Location": f"/v1/disputes/{dispute.dispute_id}"})


@get("/v1/disputes/mine", guards=PLAYER, tags=TAGS, security=BEARER, summary="The disputes I filed, newest first",
     responses=responses(200, list[DisputeRow], [ex("mine", [QUEUE_EXAMPLE])], "My disputes with their status",
                         401, 429))
async def my_disputes(principal: Caller, runtime: Runtime, limit: Limit = 50) -> list[dict[str, Any]]:
    return await queue(runtime.pool, None, principal.player_id, limit)


async def _readable_match(runtime: Runtime, match_id: str, principal: Any, route: str) -> DisputeService:
    """A deal's record, seed and verification: `services.visibility`'s `deals` read."""
    from services.matches.routes.play import ensure_readable

    state = await runtime.matches.load(match_id)
    await ensure_readable(runtime, principal, state, "deals", route=route)
    return service(runtime)


@get("/v1/matches/{match_id:str}/deals/{deal:int}/verify", guards=PLAYER, tags=TAGS, security=BEARER,
     exception_handlers=PATH_HANDLERS, summary="Verify a finished deal's shuffle",
     description="The revealed seed against the commitment chain (the previous element and the published tip), "
                 "the deck it gives against the deck and the hands dealt. `status`: verified, failed, pending (the "
                 "deal is not over), predefined (an imported deck). For the match's players, and anyone once the "
                 "match is over; a sealed tournament board: no one until the match is over and its round has "
                 "closed (403 `board_sealed`); a role that plays in the match or its tournament reads no more "
                 "than its seat (403 `privileged_while_playing`). See docs/api.md, \"Who may read what\".",
     responses=responses(200, DealVerification, [ex("verified", VERIFY_EXAMPLE), ex("not over", PENDING_EXAMPLE)],
                         "The verification", 401, 403, 404, 429))
async def verify_deal(match_id: PathStr, deal: FromPath[int], principal: Caller, runtime: Runtime) -> dict[str, Any]:
    svc = await _readable_match(runtime, match_id, principal, "verify")
    return await svc.verify(match_id, deal)


@get("/v1/matches/{match_id:str}/export", guards=PLAYER, tags=TAGS, security=BEARER, exception_handlers=PATH_HANDLERS,
     summary="The match (or one finished deal) as a match record, with seeds, commitments and rulings",
     description="`atout record play` (or `POST /v1/records/play`) on it gives back `result`; signed by the "
                 "server as `…/record` is (`signature`, docs/fair-deal.md \"Signed records\"). `?deal=d` exports "
                 "one finished deal alone. Who may read it: as for `…/verify` (a sealed board's seats too get "
                 "403 `board_sealed` until its round has closed at every table).",
     responses=responses(200, MatchRecordOut, [ex("a record", RECORD_EXAMPLE)],
                         "The record", 401, 403, 404, 429))
async def export(match_id: PathStr, principal: Caller, runtime: Runtime,
                 deal: FromQuery[int | None] = None) -> dict[str, Any]:
    svc = await _readable_match(runtime, match_id, principal, "export")
    return await records.sign(runtime, await svc.export(match_id, deal))


ROUTES = [file_dispute, my_disputes, verify_deal, export]

