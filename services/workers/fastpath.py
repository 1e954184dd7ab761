"""The fast path of scheduling: from the process that has just committed.

The `bot_turns` projection is the reliable path (it sees every commit, resumes from its
checkpoint, feeds the sweeper), but it reads the log below the cluster's transaction
horizon after the other read models, which costs tens of milliseconds and more while any
transaction on the server is slow. So every process that appends to a match (the API for
a human's card, a worker for a bot's) also schedules the bots now due right after its own
commit, from the state it holds: the store's after-commit hook (`AFTER_COMMIT_HOOKS`),
never inside the append's transaction. Both paths schedule the same turn with the same
(match, version, seat); whichever task comes second finds the match moved on and does
nothing. Clocks (countdowns) stay with the projection, which knows the clock settings.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import AsyncIterator
from typing import Any

from infra.projections.bot_turns import turn_of
from infra.projections.publisher import STREAM_PREFIX

log = logging.getLogger(__name__)

_bound: dict[str, Any] = {}


def bind(matches: Any, settings: Any) -> None:
    """Schedule from this process with its game service and broker (none: stay unbound)."""
    if not getattr(settings, "redis_url", None):
        return
    from services.workers.app import make_app

    _bound.update(matches=matches, app=make_app(settings))


def unbind() -> None:
    app = _bound.pop("app", None)
    _bound.pop("matches", None)
    if app is not None:
        app.close()


async def after_commit(result: Any) -> None:
    matches, app = _bound.get("matches"), _bound.get("app")
    if matches is None or result.replayed or not result.stream_id.startswith(STREAM_PREFIX):
        return
    match_id = result.stream_id[len(STREAM_PREFIX):]
    state = matches.advance_cache(match_id, result) or await matches.load(match_id)
    if state.version != result.last_version:
        return                          # someone appended since: their hook schedules
    now = dt.datetime.now(dt.timezone.utc)
    turn, _ = turn_of(state, None, now, now)
    if turn is not None and turn.bots:
        from services.workers.reactor import scheduler

        scheduler(app)([turn])


@contextlib.asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[None]:
    """A Litestar lifespan hook: bind to the API's runtime while the app runs."""
    runtime = getattr(app.state, "runtime", None)
    if runtime is not None:
        bind(runtime.matches, runtime.settings)
    try:
        yield
    finally:
        unbind()


def register() -> None:
    from services import bootstrap

    if after_commit not in bootstrap.AFTER_COMMIT_HOOKS:
        bootstrap.AFTER_COMMIT_HOOKS.append(after_commit)
    if lifespan not in bootstrap.LIFESPAN_HOOKS:
        bootstrap.LIFESPAN_HOOKS.append(lifespan)
