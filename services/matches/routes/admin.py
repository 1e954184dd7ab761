"""Admin routes for suspended matches: the list, and resume, void or abandon.

A match the server could not move on (a task failed for a reason retrying cannot fix) is
`suspended` with `details.reason` (services/matches/suspensions.py). These routes, for admins only,
list such matches and act on one: `resume` gives it back its status and schedules its turn
again (once the cause is fixed), `void` ends it without a result, `abandon` ends it as
abandoned. Each is an event of the match naming the admin and the reason. Mounted with the
admin routes (`services.disputes.routes.admin.ROUTES`).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

import msgspec
from litestar import get, post
from litestar.params import Body

from domain.disputes import MAX_REASON
from infra.projections import match_queries as queries
from services.http.auth import authenticated, requires

from services.http.ratelimit import rate_limited
from services.http.schemas import (
    BEARER,
    COMMAND_ID,
    MATCH_ID,
    SAYS_SOMETHING,
    Caller,
    Limit,
    PathStr,
    Runtime,
    ex,
    responses,
)
from services.matches import suspensions

TAGS = ["admin"]
ADMIN = [authenticated, rate_limited, requires("admin")]


Reason = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_REASON, pattern=SAYS_SOMETHING)]


class AdminAction(msgspec.Struct, forbid_unknown_fields=True):
    reason: Reason
    command_id: uuid.UUID | None = None


class Suspension(msgspec.Struct):
    """Why the server suspended the match: `reason` (`action_refused`, `deal_failed`,
    `task_failed`) and `message` (what failed, where); null when the suspension said none."""

    reason: str | None
    message: str | None


class SuspendedMatch(msgspec.Struct):
    """A suspended match as the list shows it (`updated_at`: its summary's last change)."""

    match_id: str
    game: str
    status: Literal["suspended"]
    version: int
    details: Suspension
    updated_at: str | None


class MatchActed(msgspec.Struct):
    """The match after an admin's act: the version of the act's event and the match's status."""

    match_id: str
    version: int
    status: str


SUSPENDED_EXAMPLE = [{"match_id": MATCH_ID, "game": "cinch", "status": "suspended", "version": 412,
                      "details": {"reason": "deal_failed",
                                  "message": "bots.play_turn raised FairDealError at fair.py:78"},
                      "updated_at": "2025-05-01T18:09:00+00:00"}]
ACTED_EXAMPLE = {"match_id": MATCH_ID, "version": 413, "status": "playing"}
ACTION_EXAMPLES = [ex("resume once fixed", {"reason": "the deal service was fixed in 1.4.2"}),
                   ex("with a command id", {"reason": "a bot kept failing", "command_id": COMMAND_ID})]


@get("/v1/admin/matches/suspended", guards=ADMIN, tags=TAGS, security=BEARER,
     summary="Suspended matches (admin)",
     description="Matches the server suspended because a task failed for a reason retrying cannot fix, newest "
                 "first, each with `details.reason` (`action_refused`, `deal_failed`, `task_failed`) and "
                 "`details.message` (what failed, where). Read from the match summaries, which follow the log.",
     responses=responses(200, list[SuspendedMatch], [ex("one suspended match", SUSPENDED_EXAMPLE)],
                         "Suspended matches", 400, 401, 403, 429))
async def suspended(runtime: Runtime, limit: Limit = 50) -> list[dict[str, Any]]:
    out = []
    for row in await queries.matches_by_status(runtime.pool, "suspended", limit):
        state = await runtime.matches.load(row["match_id"])
        if state.status == "suspended":
            out.append({"match_id": row["match_id"], "game": row["game"], "status": state.status,
                        "version": state.version,
                        "details": {k: (state.suspension or {}).get(k) for k in ("reason", "message")},
                        "updated_at": row["updated_at"]})
    return out


def _route(action: Literal["resume", "void", "abandon"], summary: str, description: str) -> Any:
    @post(f"/v1/admin/matches/{{match_id:str}}/{action}", guards=ADMIN, status_code=200, tags=TAGS,
          security=BEARER, summary=summary, description=description, operation_id=f"AdminMatch{action.title()}",
          responses=responses(200, MatchActed, [ex(action, {**ACTED_EXAMPLE, "status": {
              "resume": "playing", "void": "void", "abandon": "abandoned"}[action]})],
              "The match's new version and status", 400, 401, 403, 404, 422, 429))
    async def handler(match_id: PathStr, principal: Caller, runtime: Runtime,
                      data: Annotated[AdminAction, Body(examples=ACTION_EXAMPLES)]) -> dict[str, Any]:
        outcome = await suspensions.act_on(runtime.matches, match_id, action, principal.player_id,
                                           data.reason.strip(), data.command_id)
        state = await runtime.matches.load(match_id)
        return {"match_id": match_id, "version": outcome.version, "status": state.status}

    handler.__name__ = handler.__qualname__ = f"admin_{action}_match"
    return handler


resume = _route("resume", "Resume a suspended match (admin)",
                "Gives the match back the status it had; its turn is scheduled again. If the cause is still "
                "there, the next task suspends it again. 422 `match_not_suspended` unless suspended.")
void = _route("void", "Void a suspended match (admin)",
              "Ends the match with status `void`: no winner, and its result counts nowhere; its finished deals "
              "stay in its record. 422 `match_not_suspended` unless suspended.")
abandon = _route("abandon", "Abandon a match (admin)",
                 "Ends a suspended, open or playing match as `abandoned` (`match_abandoned` names the admin and "
                 "the reason). 422 `match_over` once it is over.")

ROUTES = [suspended, resume, void, abandon]
