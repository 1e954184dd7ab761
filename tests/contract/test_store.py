"""The event store contract (tests/store_contract.py) run against Postgres, and what only the
Postgres adapter does (the versions it has seen, which spare it a probe)."""

from __future__ import annotations

import uuid

import pytest

from infra.store import ConcurrencyError, PostgresEventStore, create_pool
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
