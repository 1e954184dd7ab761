"""The Celery tasks. Each is a thin shell: run the matching function of `turns` (or the
sweeper) on this process's runtime, guarded (`turns.guarded`): database trouble is retried
with backoff, any other failure suspends the match; nothing ever waits on a task's result."""

from __future__ import annotations

import logging
import time
from typing import Any

from celery.signals import worker_process_shutdown, worker_ready

from services.workers import runtime, turns
from services.workers.app import app

log = logging.getLogger(__name__)

RETRY_ON = turns.TRANSIENT
RETRY = {"autoretry_for": RETRY_ON, "retry_backoff": 0.5, "retry_backoff_max": 30, "retry_jitter": True,
         "max_retries": 12, "acks_late": True}


@app.task(name="bots.play_turn", **RETRY)
def play_turn(match_id: str, seat: str, version: int, clock: bool = False, takeover_at: float | None = None) -> str:
    if takeover_at is not None and takeover_at - time.time() > 0.05:
        from services.workers.reactor import takeover_at as again

        again(app, match_id, seat, version, takeover_at)   # the next hop of a long grace
        return "waiting"
    return runtime.run(lambda rt: turns.guarded(rt.matches, match_id, version, "bots.play_turn", lambda: turns.play_turn(
        rt.matches, match_id, seat, version, clock=clock, takeover=takeover_at is not None,
        grace=rt.settings.disconnect_grace)))


@app.task(name="clock.expire", **RETRY)
def expire(match_id: str, version: int, due: float | None = None) -> list[str]:
    if due is not None and due - time.time() > 0.05:
        from services.workers.reactor import expire_at

        expire_at(app, match_id, version, due)          # the next hop of a long clock
        return ["waiting"]
    return runtime.run(lambda rt: turns.guarded(rt.matches, match_id, version, "clock.expire",
                                                lambda: turns.expire(rt.matches, match_id, version)))


@app.task(name="sweeper.sweep", **RETRY)
def sweep() -> int:
    from services.workers import reactor

    return runtime.run(lambda rt: reactor.sweep(rt.pool, app, matches=rt.matches,
                                                abandon_after=rt.settings.abandon_after))


@worker_ready.connect
def _sweep_on_start(sender: Any = None, **_: Any) -> None:
    """A restarted worker first re-schedules whatever was lost with the one before."""
    app.send_task("sweeper.sweep")


@worker_process_shutdown.connect
def _close(**_: Any) -> None:
    runtime.close()
