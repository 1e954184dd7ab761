"""Tournament tasks on Celery: start scheduled tournaments (beat), and move a tournament on
when one of its matches finishes (pair the next round, create its tables).

Two paths, both idempotent (`TournamentService.advance` is):

* fast: an after-commit hook sees a `match_finished` event on a match stream, finds the
  match's tournament (`tournament_matches`) and sends `tournaments.advance(id)`;
* reliable: beat sends `tournaments.tick` every `ATOUT_TOURNAMENT_TICK` seconds, which starts
  every tournament whose scheduled time has passed (or closes one the rules will never let
  start, e.g. with too few entries: see `start_scheduled`) and advances every running one (a
  lost message or a crashed worker costs at most one tick).

The tournaments feature (`services/tournaments/routes/tournaments.py`) declares both: `register_tasks` adds
the tasks and the tick's beat entry to the workers' app, `after_commit` is the hook of every
runtime with a broker (see docs/tournaments.md, "Workers").
"""

from __future__ import annotations

import logging
import uuid

import asyncpg
from celery import Celery

from domain.game import RuleViolation
from domain.tournaments import events as ev
from infra.projections.standings import due_tournaments
from infra.store import AppendResult
from infra.streams import match_id_of
from services.features import AfterCommit
from services.runtime import Runtime
from services.tournaments.service import NS, TournamentService
from services.workers import runtime
from services.workers.app import make_app
from services.workers.sends import Sends

log = logging.getLogger(__name__)

# A scheduled start's refusals that waiting will not cure: the tournament closes with the code.
CANNOT_START = frozenset({"too_few_entries", "too_many_boards", "not_enough_boards"})


async def start_scheduled(service: TournamentService, tournament_id: str) -> str | None:
    """Start a tournament whose schedule has come. If the rules refuse the start for a reason
    time will not fix (`CANNOT_START`), the time the organiser announced is final: the
    tournament closes with that reason (`tournament_closed`, which its entrants' account
    streams say) rather than being tried, and failing, on every tick. Returns the reason it
    closed for, or None when it started (or someone else started or closed it meanwhile)."""
    try:
        await service.start(tournament_id, advance=False)
    except RuleViolation as violation:
        if violation.code not in CANNOT_START:
            raise
        try:
            await service.execute(tournament_id, ev.Cancel(reason=violation.code),
                                  command_id=uuid.uuid5(NS, f"{tournament_id}:cancel"))
        except RuleViolation as late:
            if late.code not in ("already_started", "tournament_closed"):
                raise
            return None
        log.info("tournament %s closed at its scheduled start: %s", tournament_id, violation.code)
        return violation.code
    await service.advance(tournament_id)
    return None


async def tick(service: TournamentService, limit: int = 200) -> dict[str, int]:
    """Start what is due (or close what cannot start), advance what runs; how many of each."""
    started = advanced = closed = 0
    for tournament_id, status in await due_tournaments(service.pool, limit):
        try:
            if status == "registering":
                if await start_scheduled(service, tournament_id) is None:
                    started += 1
                else:
                    closed += 1
            else:
                await service.advance(tournament_id)
                advanced += 1
        except Exception:
            log.exception("tournament %s could not move on", tournament_id)
    return {"started": started, "advanced": advanced, "closed": closed}


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
