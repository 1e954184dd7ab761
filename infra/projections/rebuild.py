"""Rebuild a projection from the whole log while the live one keeps serving.

The new copy is built in shadow tables (`<table>__shadow`) with its own checkpoint row
(`<name>~shadow`), in many short transactions. One long transaction would be simpler and
wrong: its transaction id would pin the xmin horizon for its whole duration, and every
tailing reader of the log (the live projections, the publisher) would stall behind it.

When the shadow has caught up, one short transaction swaps it in: it takes the
projection's batch lock (so the live runner is between two batches), applies the few
events that arrived meanwhile to the shadow, renames the tables and hands the shadow's
checkpoint to the live row. The live runner's next batch waits on that lock, then reads
the new checkpoint and continues on the new tables, which are now the live names.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from infra.projections.base import Projection
from infra.projections.runner import (
    CREATE_CHECKPOINT,
    LOCK_BATCH,
    PROJECTION_LOCK,
    REBUILD_LOCK,
    ProjectionRunner,
    shadow_checkpoint,
)


class RebuildBusy(RuntimeError):
    """Another rebuild of this projection is running."""


@dataclass(frozen=True)
class RebuildReport:
    name: str
    events: int
    seconds: float
    batches: int

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0


def shadow_names(projection: Projection) -> dict[str, str]:
    return {table: f"{table}__shadow" for table in projection.tables}


async def rebuild(runner: ProjectionRunner, projection: Projection) -> RebuildReport:
    """Rebuild `projection` from the start of the log and swap it in."""
    pool = runner.store.pool
    started = time.perf_counter()
    names = shadow_names(projection)
    checkpoint = shadow_checkpoint(projection)
    async with pool.acquire() as guard:
        if not await guard.fetchval("SELECT pg_try_advisory_lock($1, hashtext($2))", REBUILD_LOCK, projection.name):
            raise RebuildBusy(f"a rebuild of {projection.name} is already running")
        try:
            await runner.ensure(projection)
            async with pool.acquire() as conn:
                async with conn.transaction():
                    for shadow in names.values():
                        await conn.execute(f"DROP TABLE IF EXISTS {shadow}")
                    for ddl in projection.create(names):
                        await conn.execute(ddl)
                    await conn.execute("DELETE FROM projection_checkpoints WHERE name = $1", checkpoint)
                    await conn.execute(CREATE_CHECKPOINT, checkpoint, projection.version)
                events = batches = 0
                while True:  # many short transactions
                    async with conn.transaction():
                        count = await runner.apply_batch(conn, projection, names, checkpoint)
                    events, batches = events + count, batches + 1
                    if count < runner.batch_size:
                        break
                async with conn.transaction():  # the swap
                    await conn.execute(LOCK_BATCH, PROJECTION_LOCK, projection.name)
                    while (count := await runner.apply_batch(conn, projection, names, checkpoint)) > 0:
                        events, batches = events + count, batches + 1
                    for live, shadow in names.items():
                        await conn.execute(f"DROP TABLE IF EXISTS {live}__old")
                        await conn.execute(f"ALTER TABLE IF EXISTS {live} RENAME TO {live}__old")
                        await conn.execute(f"ALTER TABLE {shadow} RENAME TO {live}")
                        await conn.execute(f"DROP TABLE IF EXISTS {live}__old")
                        await _rename_indexes(conn, live, shadow)
                    await conn.execute(
                        """
                        UPDATE projection_checkpoints AS live
                        SET tx_id = s.tx_id, position = s.position, version = s.version, updated_at = now()
                        FROM projection_checkpoints AS s WHERE live.name = $1 AND s.name = $2
                        """,
                        projection.name, checkpoint,
                    )
                    await conn.execute("DELETE FROM projection_checkpoints WHERE name = $1", checkpoint)
        finally:
            await guard.execute("SELECT pg_advisory_unlock($1, hashtext($2))", REBUILD_LOCK, projection.name)
    return RebuildReport(projection.name, events, time.perf_counter() - started, batches)


async def _rename_indexes(conn, live: str, shadow: str) -> None:
    """Give the swapped-in table's indexes (and so its constraints) their live names.

    Otherwise the next rebuild's `CREATE INDEX IF NOT EXISTS <shadow>_...` would find the
    name taken by the live table and silently leave the new shadow without that index.
    """
    rows = await conn.fetch(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1", live
    )
    for row in rows:
        name = row["indexname"]
        if name.startswith(shadow):
            await conn.execute(f"ALTER INDEX {name} RENAME TO {live}{name[len(shadow):]}")
