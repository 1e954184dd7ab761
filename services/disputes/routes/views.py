"""What the player-facing dispute routes and the admin ones share: the service of a runtime,
the error mapping, the dispute as a body, the queue's rows and the examples."""

from __future__ import annotations

from typing import Annotated, Any

import asyncpg
import msgspec
from litestar import Request, Response

from domain import disputes as cases
from domain.game import RuleViolation
from infra.projections import disputes as queue_table
from services.disputes.service import DisputeService, UnknownDispute
from services.http.errors import error_body
from services.http.schemas import MATCH_ID, PLAYER_ID
from services.runtime import Runtime

Reason = Annotated[str, msgspec.Meta(min_length=1, max_length=cases.MAX_REASON)]
NOT_FOUND = {"unknown_deal"}
CONFLICTS = {"dispute_closed"}


def service(runtime: Runtime) -> DisputeService:
    return DisputeService(runtime.store, runtime.matches, runtime.visibility)


def dispute_out(dispute: cases.Dispute) -> dict[str, Any]:
    return msgspec.to_builtins(dispute)


async def queue(pool: asyncpg.Pool, statuses: list[str] | None, filed_by: str | None, limit: int) -> list[dict]:
    """Rows of the `disputes` read model (it lags the log by a poll interval)."""
    return await queue_table.queue(pool, statuses, filed_by, limit)


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
QUEUE_EXAMPLE = {"dispute_id": "3f1c…", "match_id": MATCH_ID, "deal": 0, "filed_by": PLAYER_ID, "role": "player",
                 "reason": "W played a heart on a spade lead at trick 3",
                 "position": {"deal": 0, "trick": 2, "card": "7H"}, "status": "open", "ruling": None,
                 "filed_at": "2025-05-01T18:05:00+00:00", "updated_at": "2025-05-01T18:05:00+00:00", "version": 1}
SEALED_EXAMPLE = {**QUEUE_EXAMPLE, "reason": None, "position": None, "sealed": True}
RULED_EXAMPLE = {**DISPUTE_EXAMPLE, "status": "resolved", "version": 3, "ruling": {
    "type": "dispute_ruled", "dispute_id": "3f1c…", "ruling": "void", "admin": PLAYER_ID,
    "reason": "a revoke went unnoticed", "score": None, "match_version": 41}}
PENDING_EXAMPLE = {"deal": 1, "replay_of": None, "tip": "9f2c…", "commitment": "5d1e…", "status": "pending",
                   "checks": {}, "problems": []}
RECORD_EXAMPLE = {"match_id": MATCH_ID, "game": "belote", "options": {"variant": "classic", "deals": 2},
                  "deals": [{"dealer": "N", "deck": ["7S", "…"], "actions": [{"seat": "E", "action": "pass"}],
                             "fair": {"seed": "4be1…", "commitment": "77a0…", "context": f"match:{MATCH_ID}:deal:1",
                                      "entropy": {"N": "north"}}}],
                  "rulings": [{"deal": 0, "ruling": "void", "reason": "…", "admin": PLAYER_ID}],
                  "tip": "9f2c…", "chain_length": 1000, "renewals": [],
                  "result": {"match_score": {"NS": 0, "EW": 0}, "winner": None, "finished": False},
                  "signature": {"alg": "ed25519", "key_id": "3c9d…", "value": "…"}}
