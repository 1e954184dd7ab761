"""Scheduling: the `bot_turns` projection's `schedule`, the sweeper, and their wiring.

Importing this module registers the `bot_turns` projection (with Celery scheduling) in
`services.bootstrap.EXTRA_PROJECTIONS`, the way the live publisher registers itself, so the
projector — its own process or the one beside the embedded API — runs it; and the fast
path (`fastpath.py`) in `AFTER_COMMIT_HOOKS` / `LIFESPAN_HOOKS`.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from typing import Any

from celery import Celery

from infra.projections.bot_turns import BotTurns, Turn

log = logging.getLogger(__name__)

OVERDUE_AFTER = float(os.environ.get("ATOUT_BOT_OVERDUE", "5"))   # seconds a bot's turn may wait before a sweep re-schedules it


def scheduler(app: Celery) -> Any:
    """`schedule(turns)`: a `play_turn` per seat due, a `clock.expire` at each deadline."""

    def schedule(turns: Sequence[Turn]) -> None:
        for turn in turns:
            for seat in turn.bots:
                app.send_task("bots.play_turn", args=[turn.match_id, seat, turn.version])
            for seat in turn.humans:
                app.send_task("bots.play_turn", args=[turn.match_id, seat, turn.version], kwargs={"clock": True})
            if turn.humans and turn.due_in is not None:
                expire_at(app, turn.match_id, turn.version, time.time() + turn.due_in)

    return schedule


MAX_COUNTDOWN = 45.0


def expire_at(app: Celery, match_id: str, version: int, due: float) -> None:
    """`clock.expire` at the epoch time `due`. A countdown longer than the broker's
    visibility timeout would be delivered again and again while it waits, so a long
    clock goes in hops of at most MAX_COUNTDOWN seconds (the task sends the next hop)."""
    wait = max(0.0, due - time.time())
    app.send_task("clock.expire", args=[match_id, version], kwargs={"due": due}, countdown=min(wait, MAX_COUNTDOWN))


SWEEP = """
SELECT match_id, version, bots, humans, due_at, extract(epoch FROM due_at - now()) AS due_in
FROM bot_turns
WHERE (cardinality(bots) > 0 AND updated_at < now() - make_interval(secs => $1))
   OR (cardinality(humans) > 0 AND due_at IS NOT NULL AND due_at < now() - make_interval(secs => 1))
ORDER BY updated_at LIMIT $2
"""


async def sweep(pool: Any, app: Celery, overdue: float = OVERDUE_AFTER, limit: int = 1000) -> int:
    """Re-schedule the turn of every match whose bot or clock is overdue; how many."""
    import asyncpg

    try:
        rows = await pool.fetch(SWEEP, overdue, limit)
    except asyncpg.UndefinedTableError:
        return 0                       # the projector has not created its table yet
    turns = [Turn(r["match_id"], r["version"], tuple(r["bots"]), tuple(r["humans"]),
                  None if r["due_in"] is None else max(0.0, float(r["due_in"]))) for r in rows]
    if turns:
        log.info("sweeper: re-scheduling %d overdue turns", len(turns))
        scheduler(app)(turns)
    return len(turns)


_settings: Any = None   # the process's resolved settings (embedded URLs included), see `configure`


def configure(settings: Any) -> None:
    """Use these settings (not the environment's) for the broker the projection sends to:
    `atout serve` calls it with the embedded servers' URLs."""
    global _settings
    _settings = settings


def projection() -> BotTurns:
    from infra.settings import load_settings
    from services.workers.app import make_app

    settings = _settings or load_settings()
    if not settings.redis_url:
        return BotTurns(None)          # no broker known: keep the table, schedule nothing
    return BotTurns(scheduler(make_app(settings)))


def register() -> None:
    from services import bootstrap
    from services.workers import fastpath

    if projection not in bootstrap.EXTRA_PROJECTIONS:
        bootstrap.EXTRA_PROJECTIONS.append(projection)
    fastpath.register()


register()
