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
Where the runtime's event loop serves others (`Runtime.broker_thread`: the API, a CLI), the
claims go through its asyncio Redis client and the sends leave from a thread of their own
(`services.workers.sends`), so no request waits on Redis; a worker's loop runs its one task,
and claims and sends on the spot.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from infra.projections.bot_turns import Turn, turn_of
from infra.store import AppendResult
from infra.streams import match_id_of
from services.bots.reactor import on_the_spot, scheduler, scheduler_off_loop
from services.features import AfterCommit
from services.matches.service import MatchService
from services.workers.app import make_app
from services.workers.claims import TurnClaims
from services.workers.sends import Sends

if TYPE_CHECKING:
    from services.runtime import Runtime

log = logging.getLogger(__name__)


def hook(matches: MatchService, schedule: Callable[[Sequence[Turn]], Awaitable[None]]) -> AfterCommit:
    """The after-commit hook scheduling the bots due after a commit (`reactor.scheduler_off_loop`,
    or `reactor.on_the_spot`)."""

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
            await schedule([turn])

    return after_commit


def after_commit(runtime: Runtime) -> AfterCommit | None:
    """The fast path of one runtime (None without a broker: the projection alone schedules)."""
    if not runtime.settings.redis_url:
        return None
    settings = runtime.settings
    app = make_app(settings)
    runtime.closing.callback(app.close)
    if runtime.broker_thread and runtime.redis is not None:
        sends = Sends("fast_path")
        runtime.closing.callback(sends.close)     # first: the waiting sends leave, then the app closes
        return hook(runtime.matches, scheduler_off_loop(app, TurnClaims(runtime.redis, settings.redis_prefix), sends))
    claims = TurnClaims.connect(settings.redis_url, settings.redis_prefix)
    runtime.closing.callback(claims.close)
    return hook(runtime.matches, on_the_spot(scheduler(app, claims)))
