"""The fast path of scheduling: from the process that has just committed.

The `bot_turns` projection is the reliable path (it sees every commit, resumes from its
checkpoint, feeds the sweeper), but it reads the log below the cluster's transaction
horizon after the other read models, which costs tens of milliseconds and more while any
transaction on the server is slow, and nothing at all while no projector runs. So every
process that appends to a match (the API for a human's card, a worker for a bot's, a CLI
command) also schedules the bots now due right after its own commit, from the state it
holds: an after-commit hook of its runtime (`after_commit`, declared by the bots feature),
never inside the append's transaction. Both paths schedule the same turn with the same
(match, version, seat), and only the first to claim it in Redis sends it
(`services.workers.claims`); a second task, should both send, finds the match moved on and
does nothing. Clocks (countdowns) stay with the projection, which knows the clock settings.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import TYPE_CHECKING

from celery import Celery

from infra.projections.bot_turns import turn_of
from infra.store import AppendResult
from infra.streams import match_id_of
from services.features import AfterCommit
from services.matches import MatchService
from services.workers.app import make_app
from services.workers.claims import TurnClaims
from services.workers.reactor import scheduler

if TYPE_CHECKING:
    from services.runtime import Runtime

log = logging.getLogger(__name__)


def hook(matches: MatchService, app: Celery, claims: TurnClaims | None = None) -> AfterCommit:
    """The after-commit hook scheduling, through `app`'s broker, the bots due after a commit."""
    schedule = scheduler(app, claims)

    async def after_commit(result: AppendResult) -> None:
        match_id = match_id_of(result.stream_id)
        if match_id is None or result.replayed:
            return
        state = matches.advance_cache(match_id, result) or await matches.load(match_id)
        if state.version != result.last_version:
            return                          # someone appended since: their hook schedules
        now = dt.datetime.now(dt.timezone.utc)
        turn, _ = turn_of(state, None, now, now)
        if turn is not None and turn.bots:
            schedule([turn])

    return after_commit


def after_commit(runtime: Runtime) -> AfterCommit | None:
    """The fast path of one runtime (None without a broker: the projection alone schedules)."""
    if not runtime.settings.redis_url:
        return None
    app = make_app(runtime.settings)
    runtime.closing.callback(app.close)
    claims = TurnClaims.connect(runtime.settings.redis_url, runtime.settings.redis_prefix)
    runtime.closing.callback(claims.close)
    return hook(runtime.matches, app, claims)
