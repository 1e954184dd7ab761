"""`GET /v1/matches/{id}/deals/{d}/analysis`: a finished deal's double-dummy review.

Visible exactly when the deal's record is (`record` read of the visibility policy: the
match's players at once, everyone who may watch the match, a sealed tournament board no one
until its round has closed); the review itself is read from what the workers computed.
"""

from __future__ import annotations

import msgspec
from litestar import get
from litestar.params import FromPath

from domain.review import CardReview, DealReview
from services.http.auth import authenticated
from services.http.ratelimit import rate_limited
from services.http.schemas import BEARER, Caller, PathStr, Runtime, ex, responses
from services.refusals import NotFound
from services.reviews.service import Analysis, ReviewService
from services.visibility import deal_over

TAGS = ["matches"]

CARD = CardReview(index=3, trick=0, seat="S", card="10H", choices=3, value=71, best=91, cost=20, fair_value=74.5,
                  fair_best=80.25, fair_cost=5.75, fair_spread=12.5, signal=-2.417, worlds=16)
READY = Analysis(match_id="5b0e…", deal=0, status="ready", review=DealReview(
    game="belote", unit="card_points", contract_table={"H": {"NS": 91, "EW": 71}, "S": {"NS": 102, "EW": 60}},
    par=91, par_side="NS", cards=[CARD], accuracy={"E": 88.0, "N": 93.5, "S": 54.0, "W": 100.0}))
PENDING = Analysis(match_id="5b0e…", deal=1, status="pending")


@get("/v1/matches/{match_id:str}/deals/{deal:int}/analysis", guards=[authenticated, rate_limited], tags=TAGS,
     security=BEARER, summary="A finished deal's review: each card's double-dummy value and cost, fair baseline",
     description="For each card played: its double-dummy value for the player's side (`value`), the best legal "
                 "card's (`best`), the cost (`best − value`), and the fair baseline — the same values averaged over "
                 "`worlds` deals consistent with what that seat could see (`fair_value`, `fair_best`, `fair_cost`); "
                 "`accuracy` per seat, `contract_table` (contract → declaring side → double-dummy result) and `par`. "
                 "Units: `unit` (docs/review.md). `status` is `pending` until the workers have reviewed the deal "
                 "(seconds after it ends). Visible exactly when the deal's record is (docs/api.md, \"Who may read "
                 "what\"); a deal not dealt or not over is 404 `unknown_deal`.",
     responses=responses(200, Analysis, [ex("reviewed", msgspec.to_builtins(READY)),
                                         ex("not reviewed yet", msgspec.to_builtins(PENDING))],
                         "The review", 401, 403, 404, 429))
async def analysis(match_id: PathStr, deal: FromPath[int], principal: Caller, runtime: Runtime) -> Analysis:
    from services.matches.routes.play import ensure_readable

    state = await runtime.matches.load(match_id)
    await ensure_readable(runtime, principal, state, "record", deal, route="analysis")
    if not deal_over(state, deal):
        raise NotFound("unknown_deal", f"deal {deal} is not a finished deal of this match", {"deal": deal})
    return await ReviewService(runtime.pool, runtime.settings.review_worlds).analysis(match_id, deal)


ROUTES = [analysis]
