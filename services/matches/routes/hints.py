"""`GET /v1/matches/{id}/hint`: the master bot's choice for the caller's seat, with its reason.

Thin: load the match, name the caller's seat, ask `services.matches.hints`, map its refusals to
`{code, message, details}`. The hint is computed from the caller's seat's view only and
shown to that caller only; the match view shows everyone how many each seat has used.
"""

from __future__ import annotations

from typing import Any

from litestar import get
from litestar.openapi.datastructures import ResponseSpec

from services.http.auth import authenticated
from services.http.errors import error_body
from services.http.ratelimit import rate_limited
from services.http.schemas import (
    BEARER,
    MATCH_ID,
    Caller,
    ErrorOut,
    PathStr,
    Runtime,
    ex,
    responses,
)
from services.matches.routes.answers import HintOut
from services.matches import tables
from services.matches.hints import HintService
from services.matches.routes.play import ensure_readable

TAGS = ["play"]
PLAYER = [authenticated, rate_limited]

HINT_EXAMPLE = {"match_id": MATCH_ID, "seat": "N", "version": 21, "action": {"action": "play", "card": "TH"},
                "reason": {"code": "feed_partner", "words": "Partner is winning the trick: give him points.",
                           "params": {}},
                "used": 3, "limit": 10, "replayed": False}
HINT_FH_EXAMPLE = {"match_id": MATCH_ID, "seat": "E", "version": 40, "action": {"action": "play", "card": "AS"},
                   "reason": {"code": "win_trick",
                              "words": "This card wins the trick. The contract needs two more tricks.",
                              "params": {"needs": "contract_needs", "tricks_needed": 2}},
                   "used": 1, "limit": 10, "replayed": False}


def _error(summary: str, code: str, message: str, details: dict[str, Any]) -> Any:
    return ex(summary, error_body(code, message, details))


ERRORS = {
    403: ResponseSpec(data_container=ErrorOut, generate_examples=False,
                      description="No seat: a hint is for the caller's own seat (`no_seat`); a tournament table "
                                  "read from outside before its round has closed (`board_sealed`)",
                      examples=[_error("no seat", "no_seat", "a hint is for a seat's own decision: you hold no seat "
                                       "in this match", {"match_id": MATCH_ID}),
                                _error("sealed board", "board_sealed", "a tournament table is shown only to its "
                                       "seats until its round has closed at every table", {"match_id": MATCH_ID})]),
    409: ResponseSpec(data_container=ErrorOut, generate_examples=False,
                      description="Other hints kept being recorded meanwhile (`hint_busy`): ask again",
                      examples=[_error("busy", "hint_busy", "hints for this match kept changing while this one "
                                       "was recorded; ask again", {})]),
    422: ResponseSpec(data_container=ErrorOut, generate_examples=False,
                      description="Hints are off in this match (`hints_off_tournament`, `hints_off_rated`), or "
                                  "there is no decision "
                                  "of the caller's to help with (`not_your_turn`, `match_not_playing`)",
                      examples=[_error("a tournament table", "hints_off_tournament",
                                       "hints are off in tournament matches", {"match_id": MATCH_ID}),
                                _error("a rated match", "hints_off_rated", "hints are off in rated matches",
                                       {"match_id": MATCH_ID}),
                                _error("not your turn", "not_your_turn",
                                       "a hint is for a decision of yours: it is not your turn", {"to_act": ["E"]}),
                                _error("not playing", "match_not_playing",
                                       "the match is finished: there is nothing to decide", {"status": "finished"})]),
    429: ResponseSpec(data_container=ErrorOut, generate_examples=False,
                      description="Every hint of the seat's allowance for this match is used (`hint_limit`; no "
                                  "Retry-After: it does not come back), or the token's rate limit (`rate_limited`)",
                      examples=[_error("no hints left", "hint_limit", "each seat has 10 hints per match, all used",
                                       {"limit": 10, "used": 10}),
                                _error("rate limited", "rate_limited", "too many requests; retry in 12s",
                                       {"retry_after": 12})]),
}


def service(runtime: Any) -> HintService:
    return HintService(runtime.store, runtime.matches, runtime.settings.hints_per_match)


@get("/v1/matches/{match_id:str}/hint", guards=PLAYER, tags=TAGS, security=BEARER,
     summary="A hint for my seat's decision: the master bot's choice and why",
     description="From my seat's view only. At most one hint per decision (asking again before the match moves on "
                 "answers the same hint, `replayed: true`, not counted again) and `limit` per seat per match "
                 "(`ATOUT_HINTS_PER_MATCH`, default 10). `action` is in the action vocabulary, ready to send to "
                 "`POST …/actions` with `expected_version: version` (null: nothing to do now). `reason.code` is "
                 "stable (docs/bots.md, \"Hints\"), `reason.words` its English text. Off in tournament matches. "
                 "The match view's `hints_used` shows every seat's count, never what a hint said.",
     responses={**responses(200, HintOut, [ex("a card to play", HINT_EXAMPLE), ex("Five Hundred", HINT_FH_EXAMPLE)],
                            "The hint", 401, 404), **ERRORS})
async def hint(match_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    state = await runtime.matches.load(match_id)
    await ensure_readable(runtime, principal, state, "view", route="hint")  # services/visibility.py
    seat = tables.seat_of(state, principal.player_id)
    return await service(runtime).give(state, seat, principal.player_id)


async def counts(runtime: Any, match_id: str) -> dict[str, Any]:
    """For the match view: every seat's count of hints used (never what they said), and
    each seat's allowance in this match (`hints_limit`, 0 where hints are off)."""
    hints = service(runtime)
    return {"hints_used": await hints.used(match_id), "hints_limit": await hints.limit(match_id)}


ROUTES = [hint]
# The hint route. Its stream (`hints-<match id>`) needs no projection: the match view reads
# the counts straight from it (`counts`), and nothing else reads it.
