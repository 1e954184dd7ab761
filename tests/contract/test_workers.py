"""Bots and clocks on a real Celery worker (a subprocess of the test, `atout worker`), a real
Redis broker under the session's prefix and a real Postgres, with the `bot_turns`
projection scheduling turns from the committed log as in production."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import msgspec
import pytest
import redis.asyncio as aioredis

from domain import match as rules
from domain.cards import Seat
from domain.game import RuleViolation
from infra import presence
from infra.projections import Lobby, MatchSummaries, ProjectionRunner, WakePublisher, run_projector
from infra.projections.bot_turns import BotTurns
from infra.settings import Settings
from infra.store import PostgresEventStore, create_pool, migrate
from infra.store.connection import connect
from infra.vault import Vault
from services.matches.service import MatchService
from services.bots import turns
from services.workers.app import make_app
from services.matches.clocks import set_clock
from services.bots import reactor
from services.bots.reactor import scheduler

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
GRACE = 1.0          # ATOUT_DISCONNECT_GRACE of this module's projector and worker
GAMES = [("belote", {"variant": "classic", "deals": 1}), ("belote", {"variant": "coinche", "deals": 1}),
         ("cinch", {"deals": 1}), ("five_hundred", {"deals": 1})]


class Worker:
    """`atout worker` in its own process group, so SIGKILL takes its pool children too."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env, self.proc = env, None

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "services.cli", "worker", "--concurrency", "1"],
                                     cwd=ROOT, env=self.env, start_new_session=True,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="module")
async def system(database_url: str, redis_url: str, redis_prefix: str):
    conn = await connect(database_url)
    await migrate(conn)
    await conn.close()
    prefix = f"{redis_prefix}w"
    settings = Settings(database_url=database_url, redis_url=redis_url, redis_prefix=prefix)
    pool = await create_pool(database_url, max_size=4)
    redis = aioredis.from_url(redis_url)
    svc = MatchService(PostgresEventStore(pool, after_append=WakePublisher(redis, prefix)), Vault(pool),
                       chain_length=20)
    app = make_app(settings)
    stop = asyncio.Event()
    projector = asyncio.create_task(run_projector(
        ProjectionRunner(PostgresEventStore(pool)), [BotTurns(reactor.on_the_spot(scheduler(app)), grace=GRACE)], redis_url=redis_url,
        redis_prefix=prefix, poll_interval=0.1, stop=stop))
    env = {**os.environ, "ATOUT_DATABASE_URL": database_url, "ATOUT_REDIS_URL": redis_url,
           "ATOUT_REDIS_PREFIX": prefix, "ATOUT_LOG_LEVEL": "warning", "ATOUT_BOT_OVERDUE": "1",
           "ATOUT_DISCONNECT_GRACE": str(GRACE)}
    worker = Worker(env)
    worker.start()
    try:
        yield svc, worker, app
    finally:
        worker.stop()
        stop.set()
        await asyncio.wait_for(projector, 10)
        app.close()
        await redis.aclose()
        await pool.close()


async def new_match(svc: MatchService, game: str, options: dict, seats: dict[str, str],
                    clock: dict | None = None) -> str:
    player = f"p-{uuid.uuid4().hex[:8]}" if "me" in seats.values() else None
    created = await svc.create_match(game, options, seats, player_id=player)
    if clock:
        await set_clock(svc.store, created.match_id, clock)
    await svc.start(created.match_id)
    return created.match_id


async def finished(svc: MatchService, match_id: str, timeout: float = 90.0) -> rules.MatchState:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = await svc.load(match_id)
        if state.status == "finished":
            return state
        await asyncio.sleep(0.2)
    raise AssertionError(f"match {match_id} did not finish (version {state.version})")


async def actions(svc: MatchService, match_id: str) -> list[tuple[int, rules.ActionTaken, dict]]:
    out = []
    for version, event, recorded in await svc.events(match_id):
        if isinstance(event, rules.ActionTaken):
            out.append((version, event, msgspec.json.decode(recorded.metadata or b"{}")))
    return out


async def test_four_bots_finish_a_match_of_each_game(system) -> None:
    svc, _, _ = system
    seats = {"N": "bot:basic", "E": "bot:random", "S": "bot:expert", "W": "bot:basic"}
    ids = [await new_match(svc, game, options, seats) for game, options in GAMES]
    for match_id in ids:
        state = await finished(svc, match_id)
        taken = await actions(svc, match_id)
        assert taken and all(e.by == "bot" for _, e, _ in taken)
        assert len({m["command_id"] for _, _, m in taken}) == len(taken)
        assert state == await MatchService(svc.store, svc.vault).load(match_id)


async def test_a_stale_play_turn_changes_nothing(system) -> None:
    svc, _, app = system
    created = await svc.create_match("cinch", {"deals": 1}, {s: "open" for s in "NESW"})
    match_id = created.match_id
    for seat in "NESW":
        await svc.take_seat(match_id, Seat(seat), player_id=f"p-{seat}-{match_id[:6]}")
    await svc.start(match_id)
    state = await svc.load(match_id)
    seat = str(state.game.status(state.game_state).to_act[0])
    assert await turns.play_turn(svc, match_id, seat, state.version - 1) == "stale"
    assert await turns.play_turn(svc, match_id, seat, state.version) == "human"      # no clock: never
    assert await turns.expire(svc, match_id, state.version - 1) == ["stale"]
    app.send_task("bots.play_turn", args=[match_id, seat, state.version - 1])
    app.send_task("clock.expire", args=[match_id, state.version - 1])
    await asyncio.sleep(1.5)
    assert (await MatchService(svc.store, svc.vault).load(match_id)).version == state.version


async def test_the_worker_killed_mid_match_and_restarted(system) -> None:
    svc, worker, _ = system
    seats = {s: "bot:basic" for s in "NESW"}
    match_id = await new_match(svc, "belote", {"variant": "classic", "deals": 2}, seats)
    deadline = time.monotonic() + 60
    while (await svc.load(match_id)).version < 25 and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    worker.kill()
    killed_at = (await svc.load(match_id)).version
    await asyncio.sleep(1.0)
    assert (await svc.load(match_id)).version == killed_at        # nobody plays while it is down
    worker.start()
    state = await finished(svc, match_id)
    taken = await actions(svc, match_id)
    ids = [m["command_id"] for _, _, m in taken]
    assert len(set(ids)) == len(ids)                               # no action applied twice
    assert state == await MatchService(svc.store, svc.vault).load(match_id)
    assert sum(isinstance(e, rules.DealFinished) for _, e, _ in await svc.events(match_id)) == 2


async def test_a_human_out_of_time_is_played_for(system) -> None:
    svc, _, _ = system
    seats = {"N": "me", "E": "bot:basic", "S": "bot:basic", "W": "bot:basic"}
    match_id = await new_match(svc, "cinch", {"deals": 1}, seats, clock={"bid": 0.4, "play": 0.3})
    state = await finished(svc, match_id)
    north = [(v, e) for v, e, _ in await actions(svc, match_id) if e.seat == Seat.N]
    assert north and {e.by for _, e in north} <= {"clock", "automatic"} and any(e.by == "clock" for _, e in north)
    for version, event in north:                # the mark is the seat's own: nobody else sees it
        for other in (Seat.E, Seat.S, Seat.W, None):
            assert rules.redact(state, event, other) is None


async def test_a_disconnected_player_is_replaced_after_the_grace_and_reclaims_the_seat(system) -> None:
    svc, _, _ = system
    seats = {"N": "me", "E": "bot:basic", "S": "bot:basic", "W": "bot:basic"}
    match_id = await new_match(svc, "cinch", {"deals": 1}, seats)        # no clock: only the takeover plays N
    await presence.record(svc.store, match_id, "N", presence.SEAT_DISCONNECTED)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        north = [e for _, e, _ in await actions(svc, match_id) if e.seat == Seat.N]
        if north:
            break
        await asyncio.sleep(0.1)
    assert north and all(e.by == "takeover" for e in north)
    await presence.record(svc.store, match_id, "N", presence.SEAT_CONNECTED)      # the player is back
    await asyncio.sleep(1.0)                  # a takeover already running may still land
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = await svc.load(match_id)
        if Seat.N in state.game.status(state.game_state).to_act:
            break
        await asyncio.sleep(0.1)
    assert state.status == "playing" and Seat.N in state.game.status(state.game_state).to_act
    await asyncio.sleep(GRACE + 2.0)
    assert (await svc.load(match_id)).version == state.version           # nobody plays the reclaimed seat


async def test_an_idle_match_is_abandoned_by_the_sweeper_and_leaves_the_lobby(system) -> None:
    svc, _, app = system
    created = await svc.create_match("belote", {"variant": "classic", "deals": 1},
                                     {"N": "me", "E": "open", "S": "bot:basic", "W": "open"}, player_id="p-idle")
    match_id = created.match_id
    lobby = type("lobby_abandon", (Lobby,), {"name": "lobby_abandon", "table": "lobby_abandon"})()
    summaries = type("ms_abandon", (MatchSummaries,), {"name": "ms_abandon", "table": "ms_abandon"})()
    runner = ProjectionRunner(svc.store)
    for projection in (lobby, summaries):
        await runner.ensure(projection)
    row_of = "SELECT * FROM {} WHERE match_id = $1"

    async def caught_up() -> None:
        await svc.store.settle()
        for projection in (lobby, summaries):
            await runner.catch_up(projection)

    await caught_up()
    assert await svc.store.pool.fetchrow(row_of.format(lobby.table), match_id) is not None
    deadline = time.monotonic() + 10                 # the bot_turns projection has seen it
    while await svc.store.pool.fetchrow("SELECT 1 FROM bot_turns WHERE match_id = $1", match_id) is None:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.1)
    assert match_id not in await reactor.abandon_idle(svc.store.pool, svc, after=3600)   # not idle that long
    await asyncio.sleep(1.2)
    await reactor.sweep(svc.store.pool, app, matches=svc, abandon_after=1.0)
    state = await svc.load(match_id)
    assert state.status == "abandoned"
    abandoned = [e for _, e, _ in await svc.events(match_id) if isinstance(e, rules.MatchAbandoned)]
    assert len(abandoned) == 1
    await caught_up()
    assert await svc.store.pool.fetchrow(row_of.format(lobby.table), match_id) is None
    assert (await svc.store.pool.fetchrow(row_of.format(summaries.table), match_id))["status"] == "abandoned"
    with pytest.raises(RuleViolation) as refused:
        await svc.take_seat(match_id, Seat.E, player_id="p-late")
    assert refused.value.code == "match_not_open"


async def test_a_task_that_cannot_succeed_suspends_the_match_until_an_admin_resumes_it(system) -> None:
    from services.matches import suspensions

    svc, _, app = system
    match_id = await new_match(svc, "cinch", {"deals": 1}, {s: "bot:basic" for s in "NESW"})
    # The vault's chain no longer fits the match: the end of deal 0 cannot reveal its seed, on
    # every retry of the bot's task that plays the last card.
    await svc.store.pool.execute("UPDATE match_secrets SET chain_length = 0 WHERE match_id = $1", match_id)
    deadline = time.monotonic() + 60
    while (state := await MatchService(svc.store, svc.vault).load(match_id)).status == "playing":
        assert time.monotonic() < deadline, f"not suspended (version {state.version})"
        await asyncio.sleep(0.2)
    assert state.status == "suspended" and state.suspension["reason"] == "deal_failed"
    assert rules.view(state, None).details["reason"] == "deal_failed"
    deadline = time.monotonic() + 10               # the bot_turns read model lets it go: no sweep retries it
    while await svc.store.pool.fetchrow("SELECT 1 FROM bot_turns WHERE match_id = $1", match_id) is not None:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.2)                       # past ATOUT_BOT_OVERDUE
    await reactor.sweep(svc.store.pool, app, matches=svc, abandon_after=3600)
    seat = str(state.game.status(state.game_state).to_act[0])
    app.send_task("bots.play_turn", args=[match_id, seat, state.version - 1])   # the task that failed, again
    await asyncio.sleep(1.5)
    after = await MatchService(svc.store, svc.vault).load(match_id)
    assert after.version == state.version and after.status == "suspended"
    assert sum(isinstance(e, rules.MatchSuspended) for _, e, _ in await svc.events(match_id)) == 1

    await svc.store.pool.execute("UPDATE match_secrets SET chain_length = 20 WHERE match_id = $1", match_id)
    await suspensions.act_on(svc, match_id, "resume", "admin-1", "the vault was repaired")
    assert (await finished(svc, match_id)).status == "finished"


async def test_a_failure_is_logged_and_counted_once(system, caplog) -> None:
    from infra.observability import MATCHES_SUSPENDED
    from services.matches import suspensions

    svc, _, _ = system
    created = await svc.create_match("cinch", {"deals": 1}, {s: "open" for s in "NESW"})
    match_id = created.match_id
    for seat in "NESW":
        await svc.take_seat(match_id, Seat(seat), player_id=f"p-{seat}-{match_id[:6]}")
    await svc.start(match_id)
    version = (await svc.load(match_id)).version
    before = MATCHES_SUSPENDED.labels("task_failed")._value.get()

    async def broken() -> str:
        raise KeyError("a hidden card, 7S")        # its message is never logged

    with caplog.at_level("ERROR", logger="services.matches.suspensions"):
        assert await turns.guarded(svc, match_id, version, "bots.play_turn", broken) == "suspended"
        assert await turns.guarded(svc, match_id, version, "bots.play_turn", broken) == "suspended"  # a retry
    assert MATCHES_SUSPENDED.labels("task_failed")._value.get() == before + 1
    lines = [r.getMessage() for r in caplog.records if r.name == "services.matches.suspensions"]
    assert len(lines) == 1 and "KeyError" in lines[0] and "7S" not in lines[0]

    async def away() -> str:
        raise ConnectionRefusedError("the database restarts")

    with pytest.raises(ConnectionRefusedError):     # transient: the Celery task retries it
        await turns.guarded(svc, match_id, version + 1, "bots.play_turn", away)


async def test_a_match_wedged_by_too_long_entropy_starts_after_the_migration_by_the_sweeper(system) -> None:
    import hashlib

    from domain import fair
    from infra.projections import Lobby

    svc, _, app = system
    created = await svc.create_match("cinch", {"deals": 1}, {"N": "me", "E": "bot:basic", "S": "bot:basic",
                                                             "W": "open"}, player_id="p-long")
    match_id = created.match_id
    await svc.vault.give_entropy(match_id, "N", "é" * 600)     # kept at creation before the limit
    await svc.take_seat(match_id, Seat.W, player_id="p-west")    # full: its auto-start failed with a 500
    with pytest.raises(fair.FairDealError):
        await svc.start(match_id)
    sql = (ROOT / "infra/migrations/0057_chain_renewals.sql").read_text()
    await svc.store.pool.execute(sql[sql.index("UPDATE seat_entropy"):])         # the upgrade's repair
    runner = ProjectionRunner(svc.store)
    await runner.ensure(Lobby())
    deadline = time.monotonic() + 10
    while await svc.store.pool.fetchrow("SELECT 1 FROM bot_turns WHERE match_id = $1", match_id) is None:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.1)
    await svc.store.settle()
    await runner.catch_up(Lobby())
    await asyncio.sleep(1.2)
    await reactor.sweep(svc.store.pool, app, overdue=1.0, matches=svc)
    state = await svc.load(match_id)
    assert state.status == "playing"                            # it moves again, nobody pressed start
    dealt = [e for _, e, _ in await svc.events(match_id) if isinstance(e, rules.DealDealt)]
    assert dealt[0].fair["entropy"]["N"] == hashlib.sha256(("é" * 600).encode()).hexdigest()


async def test_a_rated_side_that_stalls_is_away_and_loses_rated(system) -> None:
    """E and W never act nor connect (REST only, stalling); N and S play at once. Each of E
    and W is away from its third timeout in a row (`reason: "clock"`), and the side all away
    ends the match abandoned: a rated loss for E-W, a win for N-S, by the ratings fold."""
    import random

    from domain.bots import policy_for
    from infra.projections.ratings import Ratings
    from infra.store import CommandConflictError, ConcurrencyError

    svc, _, _ = system
    players = {s: f"stall-{s}-{uuid.uuid4().hex[:6]}" for s in "NESW"}
    # Played to its target, so a deal thrown in (all pass) does not end it before the stall counts.
    created = await svc.create_match("belote", {}, {"N": "me", "E": "open", "S": "open", "W": "open"},
                                     player_id=players["N"], rated=True)
    match_id = created.match_id
    for seat in "ESW":
        await svc.take_seat(match_id, Seat(seat), player_id=players[seat])
    await set_clock(svc.store, match_id, {"bid": 1.0, "play": 1.0})
    await svc.start(match_id)
    rng, deadline = random.Random(3), time.monotonic() + 90
    while (state := await svc.load(match_id)).status == "playing":
        assert time.monotonic() < deadline, f"still playing at version {state.version}"
        for seat in state.game.status(state.game_state).to_act:
            if str(seat) in "NS":
                action = policy_for("belote", "basic")(rules.view(state, seat), rng)
                with contextlib.suppress(ConcurrencyError, CommandConflictError, RuleViolation):
                    await svc.act(match_id, action, player_id=players[str(seat)], expected_version=state.version,
                                  command_id=uuid.uuid4())
        await asyncio.sleep(0.05)
    assert state.status == "abandoned", state.status
    [abandoned] = [e for _, e, _ in await svc.events(match_id) if isinstance(e, rules.MatchAbandoned)]
    assert abandoned.reason == "timeouts"
    gone = [msgspec.json.decode(e.data) for e in await svc.store.read_stream(presence.PRESENCE_PREFIX + match_id)]
    assert sorted(d["seat"] for d in gone) == ["E", "W"] and {d["reason"] for d in gone} == {"clock"}
    for seat in "EW":
        taken = [e.by for _, e, _ in await svc.events(match_id) if isinstance(e, rules.ActionTaken) and e.seat == seat]
        assert "player" not in taken and taken.count("clock") >= 3

    runner, ratings = ProjectionRunner(svc.store), Ratings()
    await runner.ensure(ratings)
    await svc.store.settle()
    await runner.catch_up(ratings)
    rows = {r["player_id"]: r for r in await svc.store.pool.fetch(
        "SELECT player_id, mu, games, wins FROM ratings WHERE player_id = ANY($1::text[])", list(players.values()))}
    assert {rows[players[s]]["wins"] for s in "NS"} == {1} and {rows[players[s]]["wins"] for s in "EW"} == {0}
    assert all(rows[p]["games"] == 1 for p in players.values())
    assert max(rows[players[s]]["mu"] for s in "EW") < 25.0 < min(rows[players[s]]["mu"] for s in "NS")
