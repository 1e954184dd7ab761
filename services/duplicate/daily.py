"""The daily robot duplicate event: beat opens the UTC day's event from `ATOUT_ROBOT_DAILY`
(docs/settings.md) at every tournament tick until it exists; exactly once a day, since its
creation's command id is derived from the day and the setting."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import uuid
from typing import Any

from celery import Celery

from services.runtime import Runtime
from services.tournaments.service import NS, TournamentService
from services.workers import runtime

log = logging.getLogger(__name__)
SYSTEM = "system"                  # the organiser of the events the schedule opens


def spec_of(raw: str) -> dict[str, Any]:
    spec = json.loads(raw)
    return {"game": spec["game"], "options": dict(spec.get("options") or {}), "deals": int(spec.get("deals", 8)),
            "level": str(spec.get("level", "basic")), "scoring": str(spec.get("scoring", "neuberg")),
            "hours": float(spec.get("hours", 24)), "name": str(spec.get("name") or f"Daily {spec['game']}")}


async def open_today(service: TournamentService, raw: str, now: dt.datetime) -> str:
    """The day's event, created if it is not there yet; its id."""
    spec = spec_of(raw)
    day = now.astimezone(dt.timezone.utc).date()
    start = dt.datetime.combine(day, dt.time(), dt.timezone.utc)
    closes = start + dt.timedelta(hours=spec["hours"])
    digest = hashlib.sha256(raw.encode()).hexdigest()[:16]
    command_id = uuid.uuid5(NS, f"robot-daily/{day.isoformat()}/{digest}")
    return await service.create(SYSTEM, f"{spec['name']} {day.isoformat()}", spec["game"],
                                {**spec["options"], "deals": spec["deals"]}, "robot",
                                bots={"level": spec["level"]}, command_id=command_id, scoring=spec["scoring"],
                                closes_at=closes.isoformat(), rated=False)


def register_tasks(app: Celery) -> None:
    """`duplicate.daily` on the workers' app, and its beat entry when the setting is there."""
    if "duplicate.daily" in app.tasks:
        return

    @app.task(name="duplicate.daily", shared=False, acks_late=True)
    def daily_task() -> str | None:
        raw = app.conf.atout_settings.robot_daily
        if not raw:
            return None

        async def run(rt: Runtime) -> str:
            return await open_today(TournamentService(rt.store, rt.matches), raw, dt.datetime.now(dt.timezone.utc))

        return runtime.run(app, run)

    if app.conf.atout_settings.robot_daily:
        app.conf.beat_schedule = {**(app.conf.beat_schedule or {}),
                                  "duplicate-daily": {"task": "duplicate.daily",
                                                      "schedule": app.conf.atout_settings.tournament_tick}}
