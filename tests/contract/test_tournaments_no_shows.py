"""No-show forfeits on the real store, and through a real Celery worker: an entry that has not
acted at its table in person when the grace runs out forfeits it (its match is stopped), a
double no-show is a double forfeit, an entry that acted never forfeits, and racing workers
record a forfeit exactly once. Standings follow."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import random
import subprocess
import sys
import time
import uuid

import msgspec

from domain import match as match_rules
from domain import tournaments as t
from domain.cards import Seat
from domain.playout import concrete
from domain.tournaments import events as ev
from domain.tournaments import scoring
from infra.settings import Settings
from infra.store import PostgresEventStore
from infra.vault import Vault
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from services.tournaments import scheduling as tasks
from services.workers.app import make_app
from tests.contract.match_support import play_out
from tests.contract.test_tournaments import pool, standings_row  # noqa: F401  (fixture)
from tests.contract.test_workers import ROOT, Worker
import pytest

pytestmark = [pytest.mark.db, pytest.mark.redis]

T0 = dt.datetime(2026, 3, 1, 18, 0, tzinfo=dt.timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> dt.datetime:
        return self.now


def service(pool, clock: Clock | None = None) -> TournamentService:
    store = PostgresEventStore(pool)
    return TournamentService(store, MatchService(store, Vault(pool)), clock=clock)


async def tournament(svc: TournamentService, people: list[list[str]], tables: list[list[str]], grace: int) -> str:
    """Entries e0, e1, … (each a list of players; [] for a pair of house bots), paired by hand."""
    tid = await svc.create("org", "No-shows", "belote", {"deals": 1}, "swiss", rounds=1, no_show_grace=grace)
    for i, players in enumerate(people):
        await svc.execute(tid, ev.Register(entry_id=f"e{i}", players=players or ["bot:random", "bot:random"]))
    await svc.execute(tid, ev.SubmitPairing(round=1, tables=tables))
    await svc.start(tid)
    return tid


def results(events) -> list[ev.ResultRecorded]:
    return [e for _, e in events if isinstance(e, ev.ResultRecorded)]


async def test_an_absent_entry_forfeits_after_the_grace_and_its_match_stops(pool) -> None:
    clock = Clock()
    svc = service(pool, clock)
    alice, bob, carol = "p-alice", "p-bob", "p-carol"
    tid = await tournament(svc, [[alice], [], [bob], [carol]], [["e0", "e1"], ["e2", "e3"]], grace=60)
    state = await svc.load(tid)
    first, second = state.current.matches[1], state.current.matches[2]
    assert state.no_show_grace == 60 and set(state.current.opened) == {1, 2}
    # Table 2 plays (every seat acts in person) and finishes: its real result counts.
    await play_out(svc.matches, second, random.Random(2))
    clock.now = T0 + dt.timedelta(seconds=59)
    state = await svc.advance(tid)
    assert list(state.current.results) == [2] and state.current.results[2].forfeit is None
    # Alice never acted at table 1: one second after the grace, her entry forfeits.
    clock.now = T0 + dt.timedelta(seconds=61)
    state = await svc.advance(tid)
    result = state.current.results[1]
    assert result.forfeit == "e0" and state.status == "closed"
    assert (await svc.matches.load(first)).status == "abandoned"          # nobody plays on for nothing
    table = scoring.standings(t.lines(state, closed_only=True), list(state.entries))
    assert {line["entry"]: line["points"] for line in table}["e1"] == 2
    assert {line["entry"]: line["points"] for line in table}["e0"] == 0
    row = await standings_row(pool, tid, lambda row: row["status"] == "closed")    # the projection agrees
    assert json.loads(row["overall"]) == table


async def test_a_double_no_show_is_recorded_once_by_racing_workers(pool) -> None:
    clock = Clock()
    tid = await tournament(service(pool, clock), [["p-dora"], ["p-eve"]], [["e0", "e1"]], grace=30)
    clock.now = T0 + dt.timedelta(seconds=31)
    workers = [service(pool, clock) for _ in range(4)]
    await asyncio.gather(*(w.advance(tid) for w in workers))
    recorded = results(await workers[0].events(tid))
    assert len(recorded) == 1 and recorded[0].forfeit == ev.BOTH
    state = await workers[0].load(tid)
    assert state.status == "closed"
    assert all(line.points == 0 for line in t.lines(state, closed_only=True).values())


async def test_an_entry_that_acted_in_person_never_forfeits(pool) -> None:
    clock = Clock()
    svc = service(pool, clock)
    tid = await tournament(svc, [["p-fay"], []], [["e0", "e1"]], grace=30)
    match_id = (await svc.load(tid)).current.matches[1]
    # Play on (other seats as bots would) until Fay's seat has acted once, herself.
    match = await svc.matches.load(match_id)
    fay_seat = next(s for s, h in match.seats.items() if h is not None and h.player_id == "p-fay")
    rng = random.Random(1)
    for _ in range(40):
        match = await svc.matches.load(match_id)
        to_act = [str(s) for s in match.game.status(match.game_state).to_act]
        seat = to_act[0]
        legal = msgspec.to_builtins(match_rules.view(match, Seat(seat)).table)["legal"]
        holder = match.seats[seat]
        await svc.matches.act(match_id, {"seat": seat, **concrete(rng.choice(legal), rng)}, player_id=holder.player_id,
                              expected_version=match.version, command_id=uuid.uuid4(),
                              by="player" if seat == fay_seat else "bot")
        if seat == fay_seat:
            break
    clock.now = T0 + dt.timedelta(hours=1)
    state = await svc.advance(tid)
    assert state.current.results == {} and (await svc.matches.load(match_id)).status == "playing"


async def test_the_celery_worker_forfeits_exactly_once(pool, database_url, redis_url, redis_prefix) -> None:
    prefix = f"{redis_prefix}ns"
    env = {**os.environ, "ATOUT_DATABASE_URL": database_url, "ATOUT_REDIS_URL": redis_url,
           "ATOUT_REDIS_PREFIX": prefix, "ATOUT_LOG_LEVEL": "warning"}
    svc = service(pool)                                                    # the real clock
    tid = await tournament(svc, [["p-gus"], []], [["e0", "e1"]], grace=1)
    assert await standings_row(pool, tid, lambda row: row["status"] == "running")  # the tick reads the standings
    app = make_app(Settings(database_url=database_url, redis_url=redis_url, redis_prefix=prefix))
    tasks.register_tasks(app)
    worker = Worker(env)                                                   # stop(): SIGTERM to its group
    worker.proc = subprocess.Popen([sys.executable, "-m", "services.cli", "worker", "--concurrency", "3"], cwd=ROOT,
                                   env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
    try:
        await asyncio.sleep(1.2)                                           # the grace runs out
        for _ in range(3):
            app.send_task("tournaments.advance", args=[tid])
        app.send_task("tournaments.tick")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (await svc.load(tid)).status != "closed":
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.0)                                           # let the other tasks run too
        recorded = results(await svc.events(tid))
        assert len(recorded) == 1 and recorded[0].forfeit == "e0"
        assert (await svc.load(tid)).status == "closed"
    finally:
        worker.stop()
        app.close()
