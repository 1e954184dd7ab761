"""Tail the log into a projection: each batch and its checkpoint in one transaction.

Exactly-once without any bookkeeping per event: the handler's writes and the new
checkpoint commit together, so after a crash (or a handler that raises) the batch is
simply read again from the old checkpoint; nothing was applied, nothing is skipped.

Each batch first takes a transaction-scoped advisory lock named after the projection.
Two runners of one projection then never interleave (the second waits and re-reads the
checkpoint the first wrote), and a rebuild takes the same lock to swap its tables in
between two batches. The lock is taken before the checkpoint is read, and the read is a
fresh statement, so a waiting runner always sees the swap's checkpoint.
"""

from __future__ import annotations

import asyncio

from collections.abc import Mapping, Sequence
from typing import Any

from infra.projections.base import Projection
from infra.serialization import EventRegistry, default_registry
from infra.store.model import LogPosition
from infra.store.postgres import Connection, PostgresEventStore

# Advisory lock classes ('proj', 'rbld'): the second key is hashtext(projection name).
PROJECTION_LOCK = 0x70726F6A
REBUILD_LOCK = 0x72626C64

LOCK_BATCH = "SELECT pg_advisory_xact_lock($1, hashtext($2))"
CHECKPOINT = "SELECT tx_id, position, version FROM projection_checkpoints WHERE name = $1"
SAVE_CHECKPOINT = """
UPDATE projection_checkpoints SET tx_id = $2, position = $3, updated_at = now() WHERE name = $1
"""
CREATE_CHECKPOINT = """
INSERT INTO projection_checkpoints (name, version) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING
"""


def live_names(projection: Projection) -> dict[str, str]:
    return {table: table for table in projection.tables}


class ProjectionRunner:
    """Applies the log to projections, batch by batch; see the module docstring."""

    def __init__(
        self,
        store: PostgresEventStore,
        *,
        registry: EventRegistry = default_registry,
        batch_size: int = 1000,
    ) -> None:
        self.store = store
        self.registry = registry
        self.batch_size = batch_size

    async def ensure(self, projection: Projection) -> None:
        """Create the projection's tables and checkpoint row if they are missing."""
        async with self.store.pool.acquire() as conn, conn.transaction():
            await conn.execute(LOCK_BATCH, PROJECTION_LOCK, projection.name)
            for ddl in projection.create(live_names(projection)):
                await conn.execute(ddl)
            await conn.execute(CREATE_CHECKPOINT, projection.name, projection.version)

    async def stored_version(self, projection: Projection) -> int | None:
        row = await self.store.pool.fetchrow(CHECKPOINT, projection.name)
        return row["version"] if row else None

    async def run_batch(self, projection: Projection) -> int:
        """Apply the next batch; return how many events it read (0: caught up)."""
        async with self.store.pool.acquire() as conn, conn.transaction():
            await conn.execute(LOCK_BATCH, PROJECTION_LOCK, projection.name)
            return await self.apply_batch(conn, projection, live_names(projection), projection.name)

    async def catch_up(self, projection: Projection, stop: asyncio.Event | None = None) -> int:
        """Run batches until the log below the horizon is exhausted, or `stop` is set (checked
        between batches, so a projector far behind still stops promptly on SIGTERM, each
        batch whole and checkpointed); return the count."""
        total = 0
        while stop is None or not stop.is_set():
            count = await self.run_batch(projection)
            total += count
            if count < self.batch_size:
                break
        return total

    async def apply_batch(
        self, conn: Connection, projection: Projection, names: Mapping[str, str], checkpoint: str
    ) -> int:
        """Read, apply and checkpoint one batch in the caller's transaction."""
        row = await conn.fetchrow(CHECKPOINT, checkpoint)
        if row is None:
            raise LookupError(f"no checkpoint {checkpoint!r}: run ensure() first")
        events = await self.store.read_log(
            LogPosition(row["tx_id"], row["position"]),
            self.batch_size,
            payload_types=None if projection.event_types is None else sorted(projection.event_types),
            conn=conn,
        )
        if not events:
            return 0
        if projection.sees_stream_heads:
            last = {e.stream_id: e for e in events}
            changes = [(e, {} if e.data is None else self.registry.payload(e)) for e in events
                       if e.data is not None or last[e.stream_id] is e]
        else:
            changes = [(e, self.registry.payload(e)) for e in events if e.data is not None]
        if changes:
            await projection.apply(conn, changes, names)
        last = events[-1]
        await conn.execute(SAVE_CHECKPOINT, checkpoint, last.tx_id, last.position)
        return len(events)

    async def status(self, projections: Sequence[Projection]) -> dict[str, Any]:
        """Each projection's checkpoint, version and lag, plus the log's head."""
        head = await self.store.head()
        rows = {
            r["name"]: r
            for r in await self.store.pool.fetch(
                "SELECT name, tx_id, position, version, updated_at FROM projection_checkpoints"
            )
        }
        report: dict[str, Any] = {}
        for projection in projections:
            row = rows.get(projection.name)
            entry: dict[str, Any] = {"code_version": projection.version}
            if row is None:
                entry.update(state="not_started")
            else:
                at = LogPosition(row["tx_id"], row["position"])
                lag, lag_seconds = await self.store.backlog(at)
                entry.update(
                    state="stale_version" if row["version"] != projection.version else "ok",
                    tx_id=at.tx_id,
                    position=at.position,
                    version=row["version"],
                    lag=lag,
                    lag_seconds=round(lag_seconds, 3) if lag_seconds is not None else 0.0,
                    updated_at=row["updated_at"].isoformat(),
                )
                shadow = rows.get(shadow_checkpoint(projection))
                if shadow is not None:
                    entry["rebuilding"] = {"tx_id": shadow["tx_id"], "position": shadow["position"]}
            report[projection.name] = entry
        return {"head": {"tx_id": head.tx_id, "position": head.position}, "projections": report}


def shadow_checkpoint(projection: Projection) -> str:
    return f"{projection.name}~shadow"
