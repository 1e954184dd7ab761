"""The global log under concurrency: no event skipped, none twice, each stream in order.

These are the Postgres-specific proofs of `READ_LOG`'s argument: a deterministic late
commit, then 16 and 32 concurrent writers while a reader tails the log (at 32, most
appends queue and share a statement: `infra/store/batch.py`).
"""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

from infra.store import ConcurrencyError, NewEvent, PostgresEventStore, create_pool
from infra.store.connection import connect

pytestmark = [pytest.mark.db]

WRITERS = 16
APPENDS_PER_WRITER = 1000
STREAMS_PER_WRITER = 4


@pytest.fixture(scope="module")
async def store(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, min_size=WRITERS + 2, max_size=WRITERS + 4)
    yield PostgresEventStore(pool)
    await pool.close()


async def test_an_event_that_commits_late_is_not_skipped(store, database_url: str) -> None:
    """A draws a position first and commits last; the reader must not move past it."""
    start = await store.head()
    late, early = f"late-{uuid.uuid4()}", f"early-{uuid.uuid4()}"
    slow = await connect(database_url)
    try:
        tx = slow.transaction()
        await tx.start()
        await slow.execute(
            "INSERT INTO events (stream_id, stream_version, event_id, type, data) VALUES ($1, 1, $2, 'x', '{}')",
            late, uuid.uuid4(),
        )
        appended = await store.append(early, 0, [NewEvent("x", b"{}")], command_id=uuid.uuid4())
        late_position = await slow.fetchval("SELECT position FROM events WHERE stream_id = $1", late)
        assert late_position < appended.events[0].position  # drawn first...

        page = await store.read_log(start, 100)
        # ...so following positions would return `early` and step over `late` for good.
        assert [e.stream_id for e in page if e.stream_id in (late, early)] == []
        assert await store.held_back()  # `early` is committed, and waits for `late`'s transaction
        await tx.commit()
    finally:
        await slow.close()
    await store.settle()
    assert not await store.held_back()
    page = await store.read_log(start, 100)
    assert [e.stream_id for e in page if e.stream_id in (late, early)] == [late, early]


async def test_concurrent_writers_and_a_tailing_reader(store) -> None:
    await writers_and_a_tailing_reader(store, WRITERS, APPENDS_PER_WRITER)


async def test_32_writers_with_retries_and_races_and_a_tailing_reader(migrated_database_url: str) -> None:
    """32 writers queue behind the store's append lanes, so most of their appends share a
    statement with others: a retried command and a lost race inside such a batch must still
    be answered one by one, and the reader must see exactly what committed, in order."""
    pool = await create_pool(migrated_database_url, min_size=4, max_size=36)
    try:
        await writers_and_a_tailing_reader(PostgresEventStore(pool), 32, 100, contested=8)
    finally:
        await pool.close()


async def writers_and_a_tailing_reader(store, writers: int, appends: int, contested: int = 0) -> None:
    """`writers` tasks append `appends` commands each (1 or 2 events) to streams of their own;
    every tenth command is sent twice (the retry must be answered, not applied). With
    `contested`, every tenth command goes instead to one of a few streams all writers share,
    at the version the writer last read, so writers lose races and read again."""
    run = uuid.uuid4().hex[:8]
    streams = {w: [f"load-{run}-{w}-{s}" for s in range(STREAMS_PER_WRITER)] for w in range(writers)}
    shared = [f"shared-{run}-{s}" for s in range(contested)]
    mine = {sid for sids in streams.values() for sid in sids} | set(shared)
    start = await store.head()
    done = asyncio.Event()
    appended = 0
    lost_races = 0

    async def writer(w: int) -> None:
        nonlocal appended, lost_races
        versions = dict.fromkeys(streams[w], 0)
        for i in range(appends):
            batch = [NewEvent("load", b'{"w": %d, "i": %d}' % (w, i))] * (1 + (i + w) % 2)
            if contested and i % 10 == 5:
                sid = shared[(i + w) % contested]
                while True:
                    try:
                        await store.append(sid, await store.stream_version(sid), batch, command_id=uuid.uuid4())
                        break
                    except ConcurrencyError:
                        lost_races += 1
            else:
                sid = streams[w][i % STREAMS_PER_WRITER]
                command = uuid.uuid4()
                result = await store.append(sid, versions[sid], batch, command_id=command)
                assert not result.replayed
                if i % 10 == 3:
                    again = await store.append(sid, versions[sid], batch, command_id=command)
                    assert again.replayed
                    assert [e.event_id for e in again.events] == [e.event_id for e in result.events]
                versions[sid] = result.last_version
            appended += len(batch)

    seen: list = []

    async def reader() -> None:
        after = start
        while True:
            finished = done.is_set()  # read once more after the writers are done
            page = await store.read_log(after, 1000)
            if page:
                seen.extend(e for e in page if e.stream_id in mine)
                after = page[-1].log_position
            elif finished:
                return
            else:
                await asyncio.sleep(0.002)

    began = time.perf_counter()
    tail = asyncio.create_task(reader())
    await asyncio.gather(*(writer(w) for w in range(writers)))
    await store.settle()  # then one last read sees everything
    done.set()
    await asyncio.wait_for(tail, 30)
    elapsed = time.perf_counter() - began

    assert len(seen) == appended
    assert len({e.event_id for e in seen}) == appended  # exactly once
    positions = [e.log_position for e in seen]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)  # the log order
    last = dict.fromkeys(mine, 0)
    for event in seen:  # each stream gap-free and in order
        assert event.stream_version == last[event.stream_id] + 1, event
        last[event.stream_id] = event.stream_version
    stored = await store.pool.fetchval("SELECT count(*) FROM events WHERE stream_id = ANY($1)", list(mine))
    assert stored == appended
    print(f"\n{writers}x{appends} appends ({appended} events, {lost_races} lost races) tailed in {elapsed:.1f}s")
