"""The global log under concurrency: no event skipped, none twice, each stream in order.

These are the Postgres-specific proofs of `READ_LOG`'s argument: a deterministic late
commit, then 16 concurrent writers while a reader tails the log.
"""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

from infra.store import NewEvent, PostgresEventStore, create_pool
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
        await tx.commit()
    finally:
        await slow.close()
    await store.settle()
    page = await store.read_log(start, 100)
    assert [e.stream_id for e in page if e.stream_id in (late, early)] == [late, early]


async def test_concurrent_writers_and_a_tailing_reader(store) -> None:
    run = uuid.uuid4().hex[:8]
    streams = {w: [f"load-{run}-{w}-{s}" for s in range(STREAMS_PER_WRITER)] for w in range(WRITERS)}
    mine = {sid for sids in streams.values() for sid in sids}
    start = await store.head()
    done = asyncio.Event()
    appended = 0

    async def writer(w: int) -> None:
        nonlocal appended
        versions = dict.fromkeys(streams[w], 0)
        for i in range(APPENDS_PER_WRITER):
            sid = streams[w][i % STREAMS_PER_WRITER]
            batch = [NewEvent("load", b'{"i": %d}' % i)] * (1 + (i + w) % 2)
            result = await store.append(sid, versions[sid], batch, command_id=uuid.uuid4())
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
    await asyncio.gather(*(writer(w) for w in range(WRITERS)))
    await store.settle()  # then one last read sees everything
    done.set()
    await asyncio.wait_for(tail, 30)
    elapsed = time.perf_counter() - began

    assert len(seen) == appended
    assert len({e.event_id for e in seen}) == appended  # exactly once
    last = dict.fromkeys(mine, 0)
    for event in seen:  # each stream gap-free and in order
        assert event.stream_version == last[event.stream_id] + 1, event
        last[event.stream_id] = event.stream_version
    stored = await store.pool.fetchval("SELECT count(*) FROM events WHERE stream_id = ANY($1)", list(mine))
    assert stored == appended
    print(f"\n{WRITERS}x{APPENDS_PER_WRITER} appends ({appended} events) tailed in {elapsed:.1f}s")
