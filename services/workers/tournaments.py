"""Tournament tasks on Celery: start scheduled tournaments (beat), and move a tournament on
when one of its matches finishes (pair the next round, create its tables).

Two paths, both idempotent (`TournamentService.advance` is):

* fast: an after-commit hook sees a `match_finished` event on a match stream, finds the
  match's tournament (`tournament_matches`) and sends `tournaments.advance(id)`;
* reliable: beat sends `tournaments.tick` every `ATOUT_TOURNAMENT_TICK` seconds, which starts
  every tournament whose scheduled time has passed and advances every running one (a lost
  message or a crashed worker costs at most one tick).

The tournaments feature (`services/api/tournaments.py`) declares both: `register_tasks` adds
the tasks and the tick's beat entry to the workers' app, `after_commit` is the hook of every
runtime with a broker (see docs/tournaments.md, "Workers").
"""

from __future__ import annotations

import logging

import asyncpg

from celery import Celery

from infra.projections.standings import due_tournaments
from infra.store import AppendResult
from infra.streams import match_id_of
from services.features import AfterCommit
from services.runtime import Runtime
from services.tournaments import TournamentService
from services.workers import runtime
from services.workers.app import make_app
from services.workers.sends import Sends

log = logging.getLogger(__name__)

async def tick(service: TournamentService, limit: int = 200) -> dict[str, int]:
    """Start what is due, advance what runs; how many of each."""
    started = advanced = 0
    for tournament_id, status in await due_tournaments(service.pool, limit):
        try:
            if status == "registering":
                await service.start(tournament_id)
                started += 1
            else:
                await service.advance(tournament_id)
                advanced += 1
        except Exception:
            log.exception("tournament %s could not move on", tournament_id)
    return {"started": started, "advanced": advanced}


def finished_matches(result: AppendResult) -> list[str]:
    """The match this append finished, if it did (usually not)."""
    match_id = match_id_of(result.stream_id)
    if match_id is not None and any(e.type == "match_finished" for e in result.events):
        return [match_id]
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


def _service(rt: Runtime) -> TournamentService:
    return TournamentService(rt.store, rt.matches)


def register_tasks(app: Celery) -> None:
    """The tournaments' tasks and the tick's beat entry, on the workers' app."""
    if "tournaments.tick" in app.tasks:
        return

    @app.task(name="tournaments.advance", shared=False, acks_late=True,
              autoretry_for=(OSError, asyncpg.PostgresConnectionError), retry_backoff=0.5, max_retries=12)
    def advance(tournament_id: str) -> str:
        return runtime.run(app, lambda rt: _service(rt).advance(tournament_id)).status

    @app.task(name="tournaments.match_finished", shared=False, acks_late=True,
              autoretry_for=(OSError, asyncpg.PostgresConnectionError), retry_backoff=0.5, max_retries=12)
    def on_match_finished(match_id: str) -> str | None:
        return runtime.run(app, lambda rt: match_finished(_service(rt), match_id))

    @app.task(name="tournaments.tick", shared=False, acks_late=True)
    def tick_task() -> dict[str, int]:
        return runtime.run(app, lambda rt: tick(_service(rt)))

    app.conf.beat_schedule = {**(app.conf.beat_schedule or {}),
                              "tournaments": {"task": "tournaments.tick",
                                              "schedule": app.conf.atout_settings.tournament_tick}}


def hook(app: Celery, sends: Sends | None = None) -> AfterCommit:
    """On a finished match, send `tournaments.match_finished` (after the commit, never
    inside it; no database read here), from `sends`' thread (without one, on the spot)."""

    async def tournaments_after_commit(result: AppendResult) -> None:
        for match_id in finished_matches(result):
            if sends is not None:
                sends.submit(app.send_task, "tournaments.match_finished", args=[match_id])
            else:
                app.send_task("tournaments.match_finished", args=[match_id])

    return tournaments_after_commit


def after_commit(rt: Runtime) -> AfterCommit | None:
    """The hook of one runtime (None without a broker: the tick alone moves tournaments on)."""
    if not rt.settings.redis_url:
        return None
    app = make_app(rt.settings)
    rt.closing.callback(app.close)
    sends = Sends("tournaments") if rt.broker_thread else None
    if sends is not None:
        rt.closing.callback(sends.close)          # first: the waiting sends leave, then the app closes
    return hook(app, sends)
