"""Tournament tasks on Celery: start scheduled tournaments (beat), and move a tournament on
when one of its matches finishes (pair the next round, create its tables).

Two paths, both idempotent (`TournamentService.advance` is):

* fast: an after-commit hook sees a `match_finished` event on a match stream, finds the
  match's tournament (`tournament_matches`) and sends `tournaments.advance(id)`;
* reliable: beat sends `tournaments.tick` every `TICK_EVERY` seconds, which starts every
  tournament whose scheduled time has passed and advances every running one (a lost
  message or a crashed worker costs at most one tick).

Registration: importing this module adds its tasks to the workers' Celery app and the tick
to its beat schedule, and, in a worker process, its hook to `services.bootstrap.AFTER_COMMIT_HOOKS`. The worker
and beat commands must import this module: see docs/tournaments.md ("Workers").
"""

from __future__ import annotations

import logging
from typing import Any

import asyncpg

from infra.store import AppendResult
from infra.settings import load_settings
from services.tournaments import TournamentService

log = logging.getLogger(__name__)

TICK_EVERY = load_settings().tournament_tick

DUE = """
SELECT tournament_id, status FROM tournament_standings
WHERE (status = 'registering' AND schedule IS NOT NULL AND schedule <= now()) OR status = 'running'
ORDER BY schedule NULLS LAST LIMIT $1
"""


async def tick(service: TournamentService, limit: int = 200) -> dict[str, int]:
    """Start what is due, advance what runs; how many of each."""
    try:
        rows = await service.pool.fetch(DUE, limit)
    except asyncpg.UndefinedTableError:
        return {"started": 0, "advanced": 0}          # the projector has not created its table yet
    started = advanced = 0
    for row in rows:
        try:
            if row["status"] == "registering":
                await service.start(row["tournament_id"])
                started += 1
            else:
                await service.advance(row["tournament_id"])
                advanced += 1
        except Exception:
            log.exception("tournament %s could not move on", row["tournament_id"])
    return {"started": started, "advanced": advanced}


def finished_matches(result: AppendResult) -> list[str]:
    """The match this append finished, if it did (usually not)."""
    if result.stream_id.startswith("match-") and any(e.type == "match_finished" for e in result.events):
        return [result.stream_id.removeprefix("match-")]
    return []


async def match_finished(service: TournamentService, match_id: str) -> str | None:
    """Advance the tournament of a finished match, if it belongs to one."""
    try:
        tid = await service.tournament_of(match_id)
    except asyncpg.UndefinedTableError:
        return None
    if tid is not None:
        await service.advance(tid)
    return tid


def _service(rt: Any) -> TournamentService:
    return TournamentService(rt.store, rt.matches)


def register_tasks(app: Any) -> None:
    if "tournaments.tick" in app.tasks:
        return
    from services.workers import runtime

    @app.task(name="tournaments.advance", acks_late=True, autoretry_for=(OSError, asyncpg.PostgresConnectionError),
              retry_backoff=0.5, max_retries=12)
    def advance(tournament_id: str) -> str:
        return runtime.run(lambda rt: _service(rt).advance(tournament_id)).status

    @app.task(name="tournaments.match_finished", acks_late=True,
              autoretry_for=(OSError, asyncpg.PostgresConnectionError), retry_backoff=0.5, max_retries=12)
    def on_match_finished(match_id: str) -> str | None:
        return runtime.run(lambda rt: match_finished(_service(rt), match_id))

    @app.task(name="tournaments.tick", acks_late=True)
    def tick_task() -> dict[str, int]:
        return runtime.run(lambda rt: tick(_service(rt)))

    app.conf.beat_schedule = {**(app.conf.beat_schedule or {}),
                              "tournaments": {"task": "tournaments.tick", "schedule": TICK_EVERY}}
    routes = dict(app.conf.task_routes or {})
    routes.setdefault("tournaments.*", routes.get("clock.*") or {})
    app.conf.task_routes = routes


def after_commit(app: Any) -> Any:
    """The hook: on a finished match, send `tournaments.match_finished` (after the commit,
    never inside it; no database read here)."""

    async def hook(result: AppendResult) -> None:
        for match_id in finished_matches(result):
            app.send_task("tournaments.match_finished", args=[match_id])

    hook.__qualname__ = "tournaments_after_commit"
    return hook


def install_hook(app: Any) -> None:
    from services import bootstrap

    if not any(getattr(h, "__qualname__", "") == "tournaments_after_commit" for h in bootstrap.AFTER_COMMIT_HOOKS):
        bootstrap.AFTER_COMMIT_HOOKS.append(after_commit(app))


def register() -> None:
    """Tasks and beat entry now; the hook only inside a Celery worker process (where bots
    play the last card of most matches), so importing this module elsewhere (tests, the
    API) never sends tasks. A match a human finishes through the API is picked up by the tick."""
    from celery.signals import worker_process_init

    from services.workers.app import app

    register_tasks(app)
    worker_process_init.connect(lambda **_: install_hook(app), weak=False)


register()
