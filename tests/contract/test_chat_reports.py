"""The reports queue reads a ban recorded as "band" (by an earlier server) as "banned", so
such reports appear under the queue's banned filter after the projection's rebuild."""

from __future__ import annotations

import uuid

import msgspec
import pytest

from infra import streams
from infra.projections import ProjectionRunner
from infra.projections.reports import ChatReports
from infra.store import NewEvent, PostgresEventStore, create_pool

pytestmark = [pytest.mark.db]


@pytest.fixture(scope="module")
async def store(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=4)
    yield PostgresEventStore(pool)
    await pool.close()


async def test_a_report_closed_by_a_ban_recorded_as_band_is_banned(store) -> None:
    report_id = str(uuid.uuid4())
    filed = {"report_id": report_id, "player_id": "p-reported", "reporter": "p-reporter", "reason": "insults"}
    closed = {"report_id": report_id, "admin": "p-admin", "action": "band", "reason": "again"}
    for version, (kind, data) in enumerate((("report_filed", filed), ("report_resolved", closed))):
        await store.append(streams.REPORT + report_id, version, [NewEvent(kind, msgspec.json.encode(data))],
                           command_id=uuid.uuid4())
    await store.settle()
    projection = type("ChatReportsUnderTest", (ChatReports,), {"name": f"chat_reports_{uuid.uuid4().hex[:6]}"})()
    runner = ProjectionRunner(store, batch_size=500)
    await runner.ensure(projection)
    await runner.catch_up(projection)
    row = await store.pool.fetchrow("SELECT status, resolution FROM chat_reports WHERE report_id = $1", report_id)
    assert row["status"] == "banned"
    assert msgspec.json.decode(row["resolution"])["action"] == "banned"
