"""Quick play's Celery task and its beat entry: `quickplay.tick` every `ATOUT_QUICKPLAY_TICK`
seconds (`services.quickplay.matcher`). A tick is short and idempotent; one lost costs a tick,
so it is neither retried nor acknowledged late."""

from __future__ import annotations

from celery import Celery

from services.quickplay import matcher
from services.workers import runtime


def install(app: Celery) -> None:
    if "quickplay.tick" in app.tasks:
        return

    @app.task(name="quickplay.tick", shared=False, ignore_result=True, expires=5.0)
    def tick() -> dict[str, int]:
        return runtime.run(app, lambda rt: matcher.tick(rt))

    app.conf.beat_schedule = {**(app.conf.beat_schedule or {}),
                              "quickplay": {"task": "quickplay.tick",
                                            "schedule": app.conf.atout_settings.quickplay_tick}}
