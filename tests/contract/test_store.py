"""The event store contract (tests/store_contract.py) run against Postgres, and what only the
Postgres adapter does (the versions it has seen, which spare it a probe; appends that queue
behind busy lanes and share a statement)."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from infra.store import (
    CommandConflictError,
    ConcurrencyError,
    PostgresEventStore,
    create_pool,
)
from tests.store_contract import StoreContract, ev, stream

pytestmark = [pytest.mark.db]


@pytest.fixture(scope="module")
async def pg_store(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=8)
    yield PostgresEventStore(pool)
    await pool.close()


class TestPostgresStore(StoreContract):
    @pytest.fixture
    def store(self, pg_store):
        return pg_store


class TestKnownVersions:
    """The Postgres store skips the "previous version exists" probe for versions it has
    seen exist (sql.PREVIOUS_EXISTS). These pin that the shortcut never lets a stale or
    invented version through, even when another process moved the stream on."""

    async def test_a_version_known_here_but_stale_elsewhere_is_still_refused(self, pg_store) -> None:
        here, elsewhere, sid = pg_store, PostgresEventStore(pg_store.pool), stream()
        await here.append(sid, 0, [ev(1), ev(2)], command_id=uuid.uuid4())  # here knows 2
        await elsewhere.append(sid, 2, [ev(3)], command_id=uuid.uuid4())  # the stream is at 3
        with pytest.raises(ConcurrencyError) as raised:
            await here.append(sid, 2, [ev(4)], command_id=uuid.uuid4())
        assert raised.value.current_version == 3
        assert [e.stream_version for e in await elsewhere.read_stream(sid)] == [1, 2, 3]

    async def test_a_version_beyond_what_is_known_is_probed(self, pg_store) -> None:
        store, sid = PostgresEventStore(pg_store.pool), stream()
        await store.append(sid, 0, [ev(1), ev(2), ev(3)], command_id=uuid.uuid4())
        for invented in (4, 9):
            with pytest.raises(ConcurrencyError):
                await store.append(sid, invented, [ev(5)], command_id=uuid.uuid4())
            with pytest.raises(ConcurrencyError):
                await store.append(sid, invented, [ev(5), ev(6)], command_id=uuid.uuid4())
        assert await store.stream_version(sid) == 3

    async def test_reading_a_stream_teaches_its_versions(self, pg_store) -> None:
        writer, reader, sid = PostgresEventStore(pg_store.pool), PostgresEventStore(pg_store.pool), stream()
        await writer.append(sid, 0, [ev(1), ev(2)], command_id=uuid.uuid4())
        await reader.read_stream(sid)
        assert reader._known[sid] == 2
        result = await reader.append(sid, 2, [ev(3)], command_id=uuid.uuid4())
        assert result.first_version == 3 and reader._known[sid] == 3


class TestBatchedAppends:
    """Appends that queue behind the store's busy lanes go to the server in one statement
    (infra/store/batch.py). With one lane, the first of a burst goes alone and the rest
    queue behind it, so these bursts are batches every time."""

    @pytest.fixture
    def one_lane(self, pg_store):
        return PostgresEventStore(pg_store.pool, append_lanes=1)

    async def test_queued_appends_commit_together_each_whole(self, one_lane) -> None:
        sids = [stream() for _ in range(6)]
        results = await asyncio.gather(*(
            one_lane.append(sid, 0, [ev(n) for n in range(1 + i % 3)], command_id=uuid.uuid4())
            for i, sid in enumerate(sids)
        ))
        assert [(r.first_version, r.last_version) for r in results] == [(1, 1 + i % 3) for i in range(6)]
        assert len({e.tx_id for r in results[1:] for e in r.events}) == 1  # one batch
        for sid, result in zip(sids, results):
            assert await one_lane.read_stream(sid) == result.events

    async def test_a_refused_command_in_a_batch_leaves_the_others_applied(self, one_lane) -> None:
        stale, retried, conflicting, fresh = stream(), stream(), stream(), stream()
        elsewhere = PostgresEventStore(one_lane.pool)
        await one_lane.append(stale, 0, [ev(1)], command_id=uuid.uuid4())
        await elsewhere.append(stale, 1, [ev(2)], command_id=uuid.uuid4())  # one_lane still knows 1
        command, other = uuid.uuid4(), uuid.uuid4()
        first = await one_lane.append(retried, 0, [ev(1), ev(2)], command_id=command)
        await one_lane.append(conflicting, 0, [ev(1)], command_id=other)
        outcomes = await asyncio.gather(
            one_lane.append(stream(), 0, [ev(1)], command_id=uuid.uuid4()),  # holds the lane
            one_lane.append(stale, 1, [ev(3)], command_id=uuid.uuid4()),
            one_lane.append(retried, 0, [ev(1), ev(2)], command_id=command),
            one_lane.append(conflicting, 1, [ev(9)], command_id=other),
            one_lane.append(fresh, 0, [ev(1), ev(2)], command_id=uuid.uuid4()),
            return_exceptions=True,
        )
        assert isinstance(outcomes[1], ConcurrencyError) and outcomes[1].current_version == 2
        assert outcomes[2].replayed and outcomes[2].events == first.events
        assert isinstance(outcomes[3], CommandConflictError)
        assert (outcomes[4].first_version, outcomes[4].last_version, outcomes[4].replayed) == (1, 2, False)
        assert [await one_lane.stream_version(s) for s in (stale, retried, conflicting, fresh)] == [2, 2, 1, 2]

    async def test_an_append_cancelled_while_queued_is_not_applied(self, one_lane) -> None:
        busy, dropped = stream(), stream()
        first = asyncio.ensure_future(one_lane.append(busy, 0, [ev(1)], command_id=uuid.uuid4()))
        queued = asyncio.ensure_future(one_lane.append(dropped, 0, [ev(1)], command_id=uuid.uuid4()))
        await asyncio.sleep(0)  # the first holds the only lane, the second waits behind it
        queued.cancel()
        await first
        with pytest.raises(asyncio.CancelledError):
            await queued
        assert await one_lane.stream_version(dropped) == 0
