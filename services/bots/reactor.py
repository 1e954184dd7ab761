"""Scheduling: the `bot_turns` projection's `schedule`, and the sweeper.

`projection(settings)` is the `bot_turns` projection with Celery scheduling on the settings'
broker; the bots feature (`services/bots/tasks.py`) declares it, so the projector — its
own process or the one beside the embedded API — runs it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from celery import Celery

from domain.game import RuleViolation
from infra.projections.bot_turns import BotTurns, Turn, idle_matches, overdue_turns
from infra.projections.lobby import full_matches
from infra.settings import Settings
from infra.store import CommandConflictError, ConcurrencyError
from services.matches.service import UnknownMatch
from services.matches.tables import command_id_for
from services.workers.app import make_app
from services.workers.claims import TurnClaims
from services.workers.sends import Sends

log = logging.getLogger(__name__)

OVERDUE_AFTER = Settings().bot_overdue   # the default of ATOUT_BOT_OVERDUE (the sweep task passes the setting)


def scheduler(app: Celery, claims: TurnClaims | None = None) -> Callable[[Sequence[Turn]], None]:
    """`schedule(turns)`: a `play_turn` per seat due, a `clock.expire` at each deadline, sent
    on the spot (a worker, the sweeper). With `claims`, a seat's `play_turn` goes only if this
    process claims it first (`services.workers.claims`); the sweeper's scheduler has none, so
    it always re-sends."""
    send = sender(app)

    def schedule(turns: Sequence[Turn]) -> None:
        seats = seats_of(turns)
        send(turns, claims.first(seats) if claims is not None else [True] * len(seats))

    return schedule


def scheduler_off_loop(app: Celery, claims: TurnClaims, sends: Sends) -> Callable[[Sequence[Turn]], Awaitable[None]]:
    """`await schedule(turns)`, for an event loop that serves others (the API, the projector):
    the claims on the asyncio client, and what there is to send handed to `sends`' thread
    (`services.workers.sends`); a batch whose turns another scheduler claimed wakes nothing."""
    send = sender(app)

    async def schedule(turns: Sequence[Turn]) -> None:
        turns = list(turns)
        seats = seats_of(turns)
        won = await claims.first_async(seats)
        if any(won) or any(turn.takeovers or (turn.humans and turn.due_in is not None) for turn in turns):
            sends.submit(send, turns, won)

    return schedule


def on_the_spot(schedule: Callable[[Sequence[Turn]], None]) -> Callable[[Sequence[Turn]], Awaitable[None]]:
    """A `scheduler` for code that awaits one, still sending on the spot: a worker's loop runs
    its one task, and its next bot goes sooner without a thread between."""

    async def run(turns: Sequence[Turn]) -> None:
        schedule(turns)

    return run


def seats_of(turns: Sequence[Turn]) -> list[tuple[str, int, str]]:
    """The (match, version, seat) a batch of turns claims, in `sender`'s order."""
    return [(turn.match_id, turn.version, seat) for turn in turns for seat in (*turn.bots, *turn.humans)]


def sender(app: Celery) -> Callable[[Sequence[Turn], list[bool]], None]:
    """`send(turns, won)`: the tasks of `turns`, a seat's `play_turn` only where `won` (one
    flag per `seats_of(turns)`) says this process claimed it."""

    def send(turns: Sequence[Turn], won: list[bool]) -> None:
        claimed = dict(zip(seats_of(turns), won))
        for turn in turns:
            for seat in turn.bots:
                if claimed[turn.match_id, turn.version, seat]:
                    app.send_task("bots.play_turn", args=[turn.match_id, seat, turn.version])
            for seat in turn.humans:
                if claimed[turn.match_id, turn.version, seat]:
                    app.send_task("bots.play_turn", args=[turn.match_id, seat, turn.version], kwargs={"clock": True})
            if turn.humans and turn.due_in is not None:
                expire_at(app, turn.match_id, turn.version, time.time() + turn.due_in)
            for seat in turn.takeovers:
                takeover_at(app, turn.match_id, seat, turn.version, time.time() + (turn.takeover_in or 0.0))

    return send


MAX_COUNTDOWN = 45.0


def expire_at(app: Celery, match_id: str, version: int, due: float) -> None:
    """`clock.expire` at the epoch time `due`. A countdown longer than the broker's
    visibility timeout would be delivered again and again while it waits, so a long
    clock goes in hops of at most MAX_COUNTDOWN seconds (the task sends the next hop)."""
    wait = max(0.0, due - time.time())
    app.send_task("clock.expire", args=[match_id, version], kwargs={"due": due}, countdown=min(wait, MAX_COUNTDOWN))


def takeover_at(app: Celery, match_id: str, seat: str, version: int, due: float) -> None:
    """`play_turn` for a disconnected player's seat once its grace is over (in hops, as
    `expire_at`); the task plays it with the `basic` bot unless the player is back."""
    wait = max(0.0, due - time.time())
    app.send_task("bots.play_turn", args=[match_id, seat, version], kwargs={"takeover_at": due},
                  countdown=min(wait, MAX_COUNTDOWN))


async def sweep(pool: Any, app: Celery, overdue: float = OVERDUE_AFTER, limit: int = 1000, *,
                matches: Any = None, abandon_after: float | None = None) -> int:
    """Re-schedule the turn of every match whose bot, clock or takeover is overdue, and
    (given the game service) start the full matches that did not start and abandon the
    matches idle for `abandon_after`; how many."""
    turns = await overdue_turns(pool, overdue, limit)
    if turns:
        log.info("sweeper: re-scheduling %d overdue turns", len(turns))
        scheduler(app)(turns)
    abandoned = started = 0
    if matches is not None:
        started = len(await start_full(pool, matches, overdue, limit))
    if matches is not None and abandon_after is not None:
        abandoned = len(await abandon_idle(pool, matches, abandon_after, limit))
    return len(turns) + started + abandoned


async def abandon_idle(pool: Any, matches: Any, after: float, limit: int = 1000) -> list[str]:
    """`match_abandoned` in every open or playing match with no event for `after` seconds
    (by the `bot_turns` read model; a match that moved on since is left alone)."""
    out = []
    for match_id, version in await idle_matches(pool, after, limit):
        try:
            await matches.abandon(match_id, expected_version=version, idle_seconds=after)
        except (ConcurrencyError, CommandConflictError, RuleViolation, UnknownMatch):
            continue
        out.append(match_id)
    if out:
        log.info("sweeper: abandoned %d idle matches", len(out))
    return out


async def start_full(pool: Any, matches: Any, after: float, limit: int = 1000) -> list[str]:
    """Start every open match whose seats have all been taken for `after` seconds: its
    auto-start was interrupted (a crash) or failed (a match repaired since). The command id is
    the one the API's auto-start uses, so racing it makes one start."""
    out = []
    for match_id in await full_matches(pool, after, limit):
        try:
            await matches.start(match_id, command_id=command_id_for(match_id, "start"))
        except (ConcurrencyError, CommandConflictError, RuleViolation):
            continue                   # started, or a seat left, meanwhile
        except Exception as error:     # the next sweep tries again; say so without the message
            log.warning("sweeper: match %s could not start: %s", match_id, type(error).__name__)
            continue
        out.append(match_id)
    if out:
        log.info("sweeper: started %d full matches", len(out))
    return out


def projection(settings: Settings) -> BotTurns:
    """The `bot_turns` projection, scheduling on the settings' broker (none: it keeps the
    table and schedules nothing) from a thread of its own (`services.workers.sends`): the
    projector's event loop, and its transaction, never wait on the broker. Closing it lets
    the thread, the broker's connections and the claims' client go."""
    if not settings.redis_url:
        return BotTurns(None, grace=settings.disconnect_grace)
    claims, app, sends = TurnClaims.connect_async(settings.redis_url, settings.redis_prefix), make_app(settings), \
        Sends("bot_turns")

    async def closing() -> None:
        await asyncio.to_thread(sends.close)       # the sends made leave first, for a moment at most
        app.pool.force_close_all()                 # the broker's connections (app.close only forgets them)
        app.close()
        await claims.aclose()

    return BotTurns(scheduler_off_loop(app, claims, sends), grace=settings.disconnect_grace, closing=closing)
