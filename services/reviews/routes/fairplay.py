"""`GET /v1/admin/fairplay`: who plays as only seeing hidden cards would explain.

For admins only, paged, and every read written to the audit log (what the admin asked for:
the window, the grouping, the filter). A flag is a reason to look, never a sanction.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from litestar import Request, Response, get
from litestar.params import QueryParameter

from domain import fairplay as rules
from services.audit import append_audit
from services.http import paging
from services.http.auth import authenticated, requires
from services.http.ratelimit import rate_limited
from services.http.schemas import BEARER, Caller, FromQuery, Limit, Runtime, ex, responses
from services.reviews import fairplay

ROW = {"kind": "player", "who": "9a1f…", "players": ["9a1f…"], "deals": 212, "decisions": 1317, "z": 3.84,
       "flagged": True, "games": ["belote"], "last_at": "2026-12-01T21:04:11+00:00"}
Days = Annotated[int, QueryParameter(ge=1, le=fairplay.MAX_DAYS, description="the window: the last `days` days")]


@get("/v1/admin/fairplay", guards=[authenticated, rate_limited, requires("admin")], tags=["admin"], security=BEARER,
     summary="Fair-play signals per player or partnership (admin)",
     description="Over the last `days` days of public deals (a match over; a tournament table once its round has "
                 "closed): how much better each player's (`by=player`) or partnership's (`by=partnership`) cards "
                 "scored against the true deal than against the worlds they could see, as a z-score against the "
                 f"same signal measured on bot seats. `flagged`: at least {rules.MIN_DECISIONS} cards with a choice "
                 f"and z ≥ {rules.FLAG_Z} — a reason to look (the admin replay), never a sanction. `z` is null "
                 "while no null is measured for the player's games. Newest activity first, paged (`limit`, a "
                 "`Link` to the next page). Every read is in the audit log. docs/review.md, \"Fair play\".",
     responses=responses(200, list[fairplay.FairplayRow], [ex("one flagged player", [ROW])], "The rows",
                         400, 401, 403, 429))
async def fairplay_table(request: Request, principal: Caller, runtime: Runtime, limit: Limit = 50,
                         cursor: paging.Cursor = None, days: Days = 30,
                         by: FromQuery[Literal["player", "partnership"]] = "player",
                         flagged: FromQuery[bool] = False) -> Response:
    after = paging.decode(cursor)
    await append_audit(runtime.store, principal, "fairplay_read",
                       detail={"days": days, "by": by, "flagged": flagged})
    rows = await fairplay.table(runtime.pool, runtime.visibility.is_public, kind=by, days=days, flagged_only=flagged)
    if after is not None:
        rows = [r for r in rows if (r.last_at, r.who) < after]
    return paging.page(request, [msgspec.to_builtins(r) for r in rows[:limit]], limit, "last_at", "who")


ROUTES = [fairplay_table]
