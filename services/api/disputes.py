"""Player-facing dispute routes: file a dispute, my disputes, verify a deal, export a match.

Importing this module registers the disputes feature with `services.bootstrap` (these
routes, the admin routes of `services.api.admin` and the `disputes` projection), as the
live streams do, so the feature plugs in without the app knowing it. Who may see what is
decided in `services.disputes` (players of the match, its tournament's organiser, admins;
finished deals to anyone once the match is over).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

import asyncpg
import msgspec
from litestar import Request, Response, get, post
from litestar.params import Body, FromPath

from domain import disputes as cases
from domain.game import RuleViolation
from infra.projections.disputes import DisputesQueue
from services.api.auth import authenticated
from services.api.errors import ApiError, error_body
from services.api.ratelimit import rate_limited
from services.api.schemas import BEARER, MATCH_ID, PLAYER_ID, Caller, FromQuery, Limit, PathStr, Runtime, ex, responses
from services.disputes import DisputeService, UnknownDispute

TAGS = ["disputes"]
PLAYER = [authenticated, rate_limited]
Reason = Annotated[str, msgspec.Meta(min_length=1, max_length=cases.MAX_REASON)]
NOT_FOUND = {"unknown_deal"}
CONFLICTS = {"dispute_closed"}
_json = msgspec.json.Decoder()


class PositionIn(msgspec.Struct, forbid_unknown_fields=True):
    deal: int | None = None
    trick: Annotated[int, msgspec.Meta(ge=0)] | None = None
    card: str | None = None


class FileDispute(msgspec.Struct, forbid_unknown_fields=True):
    deal: Annotated[int, msgspec.Meta(ge=0)]
    reason: Reason
    position: PositionIn | None = None
    command_id: uuid.UUID | None = None


def service(runtime: Any) -> DisputeService:
    return DisputeService(runtime.store, runtime.matches)


def dispute_out(dispute: cases.Dispute) -> dict[str, Any]:
    return msgspec.to_builtins(dispute)


def _violation(_: Request, exc: RuleViolation) -> Response:
    return Response(error_body(exc.code, exc.message, exc.details), status_code=409 if exc.code in CONFLICTS else 422)


def _path_violation(request: Request, exc: RuleViolation) -> Response:
    """A deal named in the path that does not exist is a missing resource, not a refusal."""
    if exc.code in NOT_FOUND:
        return Response(error_body(exc.code, exc.message, exc.details), status_code=404)
    return _violation(request, exc)


def _unknown(_: Request, exc: UnknownDispute) -> Response:
    return Response(error_body("unknown_dispute", f"no dispute {exc.dispute_id!r}", {"dispute_id": exc.dispute_id}),
                    status_code=404)


def _forbidden(_: Request, exc: PermissionError) -> Response:
    return Response(error_body("forbidden", str(exc)), status_code=403)


HANDLERS = {RuleViolation: _violation, UnknownDispute: _unknown, PermissionError: _forbidden}
PATH_HANDLERS = {**HANDLERS, RuleViolation: _path_violation}

DISPUTE_EXAMPLE = {"dispute_id": "3f1c…", "match_id": MATCH_ID, "deal": 0, "by": PLAYER_ID, "role": "player",
                   "reason": "W played a heart on a spade lead at trick 3",
                   "position": {"deal": 0, "trick": 2, "card": "7H"}, "status": "open", "ruling": None, "version": 1}
VERIFY_EXAMPLE = {"deal": 0, "replay_of": None, "tip": "9f2c…", "seed": "4be1…", "commitment": "77a0…",
                  "context": f"match:{MATCH_ID}:deal:1", "entropy": {"N": "…"}, "chain_index": 1,
                  "status": "verified", "checks": {"context": True, "seed_matches_commitment": True,
                                                   "seed_in_published_chain": True, "deck": True, "hands": True},
                  "problems": []}


@post("/v1/matches/{match_id:str}/disputes", guards=PLAYER, tags=TAGS, security=BEARER, exception_handlers=HANDLERS,
      summary="File a dispute on a deal",
      description="For a player of the match (or its tournament's organiser, or an admin): the deal (0-based), a "
                  "reason, and optionally where: `position: {trick, card}`. A retried `command_id` files once.",
      responses=responses(201, dict, [ex("filed", DISPUTE_EXAMPLE)], "The dispute", 400, 401, 403, 404, 422, 429))
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


QUEUE = """
SELECT dispute_id, match_id, deal, filed_by, role, reason, position, status, ruling, filed_at, updated_at, version
FROM disputes WHERE ($1::text[] IS NULL OR status = ANY($1::text[])) AND ($2::text IS NULL OR filed_by = $2)
ORDER BY filed_at DESC LIMIT $3
"""


async def queue(pool: asyncpg.Pool, statuses: list[str] | None, filed_by: str | None, limit: int) -> list[dict]:
    """Rows of the `disputes` read model (it lags the log by a poll interval)."""
    try:
        rows = await pool.fetch(QUEUE, statuses, filed_by, limit)
    except asyncpg.UndefinedTableError:
        return []
    out = []
    for r in rows:
        row = dict(r)
        for col in ("position", "ruling"):
            row[col] = _json.decode(row[col]) if row[col] is not None else None
        for col in ("filed_at", "updated_at"):
            row[col] = row[col].isoformat() if row[col] else None
        out.append(row)
    return out


@get("/v1/disputes/mine", guards=PLAYER, tags=TAGS, security=BEARER, summary="The disputes I filed, newest first",
     responses=responses(200, list, [ex("mine", [DISPUTE_EXAMPLE])], "My disputes with their status", 401, 429))
async def my_disputes(principal: Caller, runtime: Runtime, limit: Limit = 50) -> list[dict[str, Any]]:
    return await queue(runtime.pool, None, principal.player_id, limit)


async def _readable_match(runtime: Any, match_id: str, principal: Any, route: str) -> DisputeService:
    """A deal's record, seed and verification: `services.visibility`'s `deals` read."""
    from services.api.play import ensure_readable

    state = await runtime.matches.load(match_id)
    await ensure_readable(runtime.store, principal, state, "deals", route=route)
    return service(runtime)


@get("/v1/matches/{match_id:str}/deals/{deal:int}/verify", guards=PLAYER, tags=TAGS, security=BEARER,
     exception_handlers=PATH_HANDLERS, summary="Verify a finished deal's shuffle",
     description="The revealed seed against the commitment chain (the previous element and the published tip), "
                 "the deck it gives against the deck and the hands dealt. `status`: verified, failed, pending (the "
                 "deal is not over), predefined (an imported deck).",
     responses=responses(200, dict, [ex("verified", VERIFY_EXAMPLE)], "The verification", 401, 403, 404, 429))
async def verify_deal(match_id: PathStr, deal: FromPath[int], principal: Caller, runtime: Runtime) -> dict[str, Any]:
    svc = await _readable_match(runtime, match_id, principal, "verify")
    return await svc.verify(match_id, deal)


@get("/v1/matches/{match_id:str}/export", guards=PLAYER, tags=TAGS, security=BEARER, exception_handlers=PATH_HANDLERS,
     summary="The match (or one finished deal) as a match record, with seeds, commitments and rulings",
     description="`atout record play` (or `POST /v1/records/play`) on it gives back `result`. `?deal=d` exports "
                 "one finished deal alone.",
     responses=responses(200, dict, [ex("a record", {"game": "belote", "options": {"deals": 2}, "deals": [],
                                                     "rulings": [{"deal": 0, "ruling": "void", "reason": "…"}],
                                                     "result": {"match_score": {"NS": 0, "EW": 0}}})],
                         "The record", 401, 403, 404, 429))
async def export(match_id: PathStr, principal: Caller, runtime: Runtime,
                 deal: FromQuery[int | None] = None) -> dict[str, Any]:
    svc = await _readable_match(runtime, match_id, principal, "export")
    return await svc.export(match_id, deal)


ROUTES = [file_dispute, my_disputes, verify_deal, export]


def register() -> None:
    """Mount the feature: these routes and the admin ones, and the queue projection."""
    from services import bootstrap
    from services.api import admin

    for route in (*ROUTES, *admin.ROUTES):
        if route not in bootstrap.EXTRA_ROUTES:
            bootstrap.EXTRA_ROUTES.append(route)
    if DisputesQueue not in bootstrap.EXTRA_PROJECTIONS:
        bootstrap.EXTRA_PROJECTIONS.append(DisputesQueue)


register()
