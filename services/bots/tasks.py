"""The bots-and-clocks feature: its Celery tasks, its read model and its fast path.

Each task is a thin shell: run the matching function of `turns` (or the sweeper) on this
process's runtime (`services.workers.runtime`), guarded (`turns.guarded`): database trouble
is retried with backoff, any other failure suspends the match; nothing ever waits on a
task's result. `install(app)` adds the tasks, the sweeper's beat entry and the worker's
signals to the workers' Celery app; `FEATURE` declares all of it, with the `bot_turns`
projection and the fast path, to the composition root.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import Celery
from celery.signals import worker_process_shutdown, worker_ready

from services.bots import reactor, turns
from services.workers import runtime

log = logging.getLogger(__name__)

RETRY_ON = turns.TRANSIENT
RETRY = {"autoretry_for": RETRY_ON, "retry_backoff": 0.5, "retry_backoff_max": 30, "retry_jitter": True,
         "max_retries": 12, "acks_late": True}


def install(app: Celery) -> None:
    """The bots' and clocks' tasks, the sweeper and its beat entry, on `app`."""
    if "bots.play_turn" in app.tasks:
        return
    settings = app.conf.atout_settings

    @app.task(name="bots.play_turn", shared=False, **RETRY)
    def play_turn(match_id: str, seat: str, version: int, clock: bool = False,
                  takeover_at: float | None = None) -> str:
        if takeover_at is not None and takeover_at - time.time() > 0.05:
            reactor.takeover_at(app, match_id, seat, version, takeover_at)   # the next hop of a long grace
            return "waiting"
        return runtime.run(app, lambda rt: turns.guarded(
            rt.matches, match_id, version, "bots.play_turn", lambda: turns.play_turn(
                rt.matches, match_id, seat, version, clock=clock, takeover=takeover_at is not None,
                grace=rt.settings.disconnect_grace)))

    @app.task(name="clock.expire", shared=False, **RETRY)
    def expire(match_id: str, version: int, due: float | None = None) -> list[str]:
        if due is not None and due - time.time() > 0.05:
            reactor.expire_at(app, match_id, version, due)          # the next hop of a long clock
            return ["waiting"]
        return runtime.run(app, lambda rt: turns.guarded(rt.matches, match_id, version, "clock.expire",
                                                         lambda: turns.expire(rt.matches, match_id, version)))

    @app.task(name="sweeper.sweep", shared=False, **RETRY)
    def sweep() -> int:
        return runtime.run(app, lambda rt: reactor.sweep(rt.pool, app, rt.settings.bot_overdue, matches=rt.matches,
                                                         abandon_after=rt.settings.abandon_after))

    app.conf.beat_schedule = {**(app.conf.beat_schedule or {}),
                              "sweep": {"task": "sweeper.sweep", "schedule": settings.sweep_every}}

    def sweep_on_start(sender: Any = None, **_: Any) -> None:
        """A restarted worker first re-schedules whatever was lost with the one before."""
        app.send_task("sweeper.sweep")

    def close(**_: Any) -> None:
        if app.conf.get("atout_runtime") is not None:
            runtime.of(app).close()

    worker_ready.connect(sweep_on_start, weak=False)
    worker_process_shutdown.connect(close, weak=False)
