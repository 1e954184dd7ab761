"""The projector process: killed mid-batch and restarted, woken by Redis, one at a time."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import msgspec
import pytest
import redis.asyncio as aioredis

from infra.projections import (
    Lobby,
    MatchSummaries,
    Projection,
    ProjectionRunner,
    WakePublisher,
    run_projector,
)
from infra.store import NewEvent, PostgresEventStore, connect, create_pool, migrate

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
async def store(database_url: str):
    conn = await connect(database_url)
    await migrate(conn)
    await conn.close()
    pool = await create_pool(database_url, max_size=6)
    yield PostgresEventStore(pool)
    await pool.close()


def named(cls: type[Projection], prefix: str, version: int = 1) -> Projection:
    name = f"{prefix}_{secrets.token_hex(3)}"
    return type(name, (cls,), {"name": name, "table": name, "version": version})()


async def write_match(store, deals: int = 3) -> None:
    """One synthetic match, one event per command (see test_projections for the shapes)."""
    sid = f"tm-{uuid.uuid4()}"
    script = [("match_created", {"match_id": sid, "game": "belote", "options": {}, "seats": dict.fromkeys("NESW")})]
    script += [("seat_taken", {"seat": s, "holder": {"kind": "player", "player_id": f"{sid}-{s}"}}) for s in "NESW"]
    script.append(("match_started", {"first_dealer": "N"}))
    script += [("deal_finished", {"deal": d, "match_score": {"NS": 10 * (d + 1), "EW": 7 * d}}) for d in range(deals)]
    for version, (kind, data) in enumerate(script):
        await store.append(sid, version, [NewEvent(kind, msgspec.json.encode(data))], command_id=uuid.uuid4())


async def checkpoint(store, name: str) -> tuple[int, int]:
    row = await store.pool.fetchrow("SELECT tx_id, position FROM projection_checkpoints WHERE name = $1", name)
    return (row["tx_id"], row["position"]) if row else (0, 0)


async def wait_for(predicate, timeout: float, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def rows(store, table: str) -> list[tuple]:
    return [tuple(r) for r in await store.pool.fetch(f"SELECT * FROM {table} ORDER BY 1")]


def start_projector(database_url: str, redis_url: str, prefix: str, *extra: str) -> subprocess.Popen:
    env = {**os.environ, "ATOUT_REDIS_URL": redis_url, "ATOUT_REDIS_PREFIX": prefix, "ATOUT_LOG_LEVEL": "warning"}
    return subprocess.Popen(
        [sys.executable, "-m", "services.cli", "projector", "--database-url", database_url,
         "--only", "match_summaries,lobby", *extra],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


async def test_projector_killed_mid_batch_then_restarted_misses_nothing(
    store, database_url: str, redis_url: str, redis_prefix: str
) -> None:
    for _ in range(120):
        await write_match(store)
    await store.settle()
    runner = ProjectionRunner(store)
    live = [MatchSummaries(), Lobby()]

    async def lag() -> int:
        report = await runner.status(live)
        return max(entry.get("lag", 1) for entry in report["projections"].values())

    before = await checkpoint(store, "match_summaries")
    first = start_projector(database_url, redis_url, redis_prefix, "--batch-size", "7", "--poll-interval", "0.1")
    try:
        async def moved() -> bool:
            return await checkpoint(store, "match_summaries") > before

        await wait_for(moved, 60, "the first projector to make progress")
        await asyncio.sleep(0.1)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    assert await lag() > 0, "killed too late: nothing left to resume"

    second = start_projector(database_url, redis_url, redis_prefix, "--poll-interval", "30")
    try:
        async def caught_up() -> bool:
            return await lag() == 0

        await wait_for(caught_up, 60, "the restarted projector to catch up")
        # Woken by Redis: with a 30 s poll, only the wake-up can explain a quick update.
        client = aioredis.from_url(redis_url)
        woken = PostgresEventStore(store.pool, after_append=WakePublisher(client, redis_prefix))
        try:
            await write_match(woken, deals=1)
            await store.settle()  # its events final, so "caught up" includes them
            await wait_for(caught_up, 10, "a Redis wake-up")
        finally:
            await client.aclose()
    finally:
        second.send_signal(signal.SIGTERM)
        _, err = second.communicate(timeout=20)
    assert second.returncode == 0, err

    for cls in (MatchSummaries, Lobby):  # each event applied once: as a fresh fold does
        reference = named(cls, "ref")
        await runner.ensure(reference)
        await runner.catch_up(reference)
        assert await rows(store, cls.table) == await rows(store, reference.table)


async def test_a_second_projector_waits_then_takes_over(store, database_url: str) -> None:
    projection = named(Lobby, "pair")
    other_pool = await create_pool(database_url, max_size=4)
    stop_a, stop_b = asyncio.Event(), asyncio.Event()
    runner_a = ProjectionRunner(store)
    runner_b = ProjectionRunner(PostgresEventStore(other_pool))
    a = asyncio.create_task(run_projector(runner_a, [projection], poll_interval=0.05, stop=stop_a))
    try:
        await write_match(store, deals=0)
        await store.settle()
        head = await store.head()

        async def at_head() -> bool:
            return await checkpoint(store, projection.name) >= head

        await wait_for(at_head, 20, "the first projector")
        b = asyncio.create_task(run_projector(runner_b, [projection], poll_interval=0.05, stop=stop_b))

        async def b_waits() -> bool:
            return await store.pool.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND objid::int = hashtext($1)", projection.name
            ) > 0

        await wait_for(b_waits, 20, "the second projector to wait on the lock")
        stop_a.set()
        await asyncio.wait_for(a, 20)
        await write_match(store, deals=0)
        await store.settle()
        head = await store.head()
        await wait_for(at_head, 20, "the second projector to take over")
        stop_b.set()
        await asyncio.wait_for(b, 20)
    finally:
        stop_a.set()
        stop_b.set()
        await other_pool.close()


async def test_the_projector_rebuilds_a_projection_whose_version_changed(store) -> None:
    old = named(MatchSummaries, "ver")
    runner = ProjectionRunner(store)
    await runner.ensure(old)
    await write_match(store)
    await store.settle()
    await runner.catch_up(old)
    before = await rows(store, old.table)
    new = type(old.name, (MatchSummaries,), {"name": old.name, "table": old.table, "version": 2})()
    stop = asyncio.Event()
    task = asyncio.create_task(run_projector(runner, [new], poll_interval=0.05, stop=stop))

    async def rebuilt() -> bool:
        return await runner.stored_version(new) == 2

    await wait_for(rebuilt, 30, "the rebuild for version 2")
    stop.set()
    await asyncio.wait_for(task, 20)
    assert await rows(store, new.table) == before


def test_cli_status_and_rebuild(migrated_database_url: str) -> None:
    def atout(*args: str) -> tuple[int, dict]:
        done = subprocess.run([sys.executable, "-m", "services.cli", *args, "--database-url", migrated_database_url],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        return done.returncode, json.loads(done.stdout)

    code, result = atout("projections", "rebuild", "lobby")
    assert code == 0 and result["ok"] and result["name"] == "lobby"
    code, status = atout("projections", "status")
    assert code == 0 and status["projections"]["lobby"]["state"] == "ok"
    assert {"tx_id", "position"} <= set(status["head"])
    assert {"position", "lag", "lag_seconds"} <= set(status["projections"]["lobby"])
    code, result = atout("projections", "rebuild", "no_such_thing")
    assert code == 1 and not result["ok"]


class Batches(Projection):
    """Records which of a stream's events each batch held, and when."""

    version = 1
    tables = ()
    event_types = None

    def __init__(self, stream: str) -> None:
        self.stream, self.batches = stream, []

    def create(self, names):
        return []

    async def apply(self, conn, changes, names) -> None:
        mine = [recorded.stream_version for recorded, _ in changes if recorded.stream_id == self.stream]
        if mine:
            self.batches.append((asyncio.get_running_loop().time(), mine))


async def test_a_read_model_lags_a_wake_up_by_its_delay_and_takes_what_came_in_one_batch(store) -> None:
    """`catch_up_delay`: the live projection follows every poll, the delayed one batches."""
    sid = f"lag-{uuid.uuid4()}"
    live = type(f"live_{secrets.token_hex(3)}", (Batches,), {"name": f"live_{secrets.token_hex(3)}"})(sid)
    lagging = type("lagging", (Batches,), {"name": f"lag_{secrets.token_hex(3)}", "catch_up_delay": 2.0})(sid)
    await store.append(sid, 0, [NewEvent("x", b"{}")], command_id=uuid.uuid4())
    stop = asyncio.Event()
    task = asyncio.create_task(run_projector(ProjectionRunner(store), [live, lagging], poll_interval=0.05, stop=stop))
    try:
        async def first_run() -> bool:
            return bool(lagging.batches)

        await wait_for(first_run, 30, "the first catch-up")
        for version in (1, 2, 3):
            await asyncio.sleep(0.15)  # three polls of the live projection apart
            await store.append(sid, version, [NewEvent("x", b"{}")], command_id=uuid.uuid4())
        appended_at = asyncio.get_running_loop().time()

        async def lagging_has_them() -> bool:
            return sum(len(b) for _, b in lagging.batches) == 4

        await wait_for(lagging_has_them, 30, "the delayed projection")
        assert lagging.batches[1][1] == [2, 3, 4] and len(lagging.batches) == 2
        assert len(live.batches) >= 3  # the live one did not wait
        assert live.batches[-1][0] < lagging.batches[1][0] and lagging.batches[1][0] > appended_at - 0.5
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


async def test_events_held_behind_an_open_transaction_are_read_soon_after_it_ends(store, database_url: str,
                                                                               redis_url: str, redis_prefix: str) -> None:
    """Their wake-up comes while they cannot be read yet (a transaction begun before them is
    open): a projector polling only every 30 s still takes them moments after it ends."""
    sid, prefix = f"held-{uuid.uuid4()}", f"{redis_prefix}held"
    follower = type(f"held_{secrets.token_hex(3)}", (Batches,), {"name": f"held_{secrets.token_hex(3)}"})(sid)
    client = aioredis.from_url(redis_url)
    woken = PostgresEventStore(store.pool, after_append=WakePublisher(client, prefix))
    stop = asyncio.Event()
    task = asyncio.create_task(run_projector(ProjectionRunner(store), [follower], redis_url=redis_url,
                                             redis_prefix=prefix, poll_interval=30, stop=stop))
    other = await connect(database_url)
    loop = asyncio.get_running_loop()
    try:
        await woken.append(sid, 0, [NewEvent("x", b"{}")], command_id=uuid.uuid4())

        async def listening() -> bool:
            subscribed = dict(await client.pubsub_numsub(f"{prefix}:events"))
            return bool(follower.batches) and subscribed.get(f"{prefix}:events".encode(), 0) > 0

        await wait_for(listening, 30, "the projector's first batch and its wake-up channel")
        tx = other.transaction()
        await tx.start()
        await other.fetchval("SELECT pg_current_xact_id()")  # holds the horizon from here
        await woken.append(sid, 1, [NewEvent("x", b"{}")], command_id=uuid.uuid4())
        await asyncio.sleep(1.0)
        assert await store.held_back()
        assert [v for _, batch in follower.batches for v in batch] == [1]   # woken, but not final yet
        await tx.commit()
        ended = loop.time()

        async def read() -> bool:
            return [v for _, batch in follower.batches for v in batch] == [1, 2]

        await wait_for(read, 5, "the event held back")
        assert follower.batches[-1][0] - ended < 2.0                          # not the next 30 s poll
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)
        await other.close()
        await client.aclose()
