"""The Postgres event store (asyncpg).

Two promises are hard, and both live in the SQL (`infra/store/sql.py`), not in Python locks:

* An append is one statement, hence one implicit transaction: the events, their
  idempotency record and the optimistic-concurrency check (the primary key on
  `(stream_id, stream_version)`) commit together or not at all. Nothing else happens in
  that transaction: no NOTIFY, no Redis, no table lock. Appends that find the store's
  statements busy share one (`infra/store/batch.py`), each command still whole; if the
  server refuses such a statement, each of its commands is sent again alone, so a
  command's answer never depends on its neighbours.
* The global log can be tailed without ever skipping an event that commits late, even
  though appends are not serialised: see `READ_LOG` in `infra/store/sql.py`.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import uuid
from collections.abc import Awaitable, Callable, Sequence

import asyncpg

from infra.store.batch import ALONE, AppendBatcher
from infra.store.model import (
    LOG_START,
    AppendResult,
    CommandConflictError,
    ConcurrencyError,
    LogPosition,
    NewEvent,
    RecordedEvent,
    event_ids,
    request_hash,
)
from infra.store.pool import Pool
from infra.store.sql import (  # noqa: F401  (re-exported: READ_STREAM, READ_LOG, ...)
    APPEND,
    APPEND_KNOWN,
    APPEND_ONE,
    APPEND_ONE_KNOWN,
    BACKLOG,
    COLUMNS,
    COMMAND,
    HEAD,
    HELD_BACK,
    READ_LOG,
    READ_STREAM,
    READ_STREAM_BACK,
    STREAM_VERSION,
)

log = logging.getLogger(__name__)

Connection = asyncpg.Connection
AfterAppend = Callable[[AppendResult], Awaitable[None]]

# How many streams `_known` remembers: a match's stream is written for an hour or so, so
# this covers every live match of a busy process; forgetting one only costs a probe.
KNOWN_STREAMS = 65_536
# How many append statements one store keeps in flight before appends queue and go
# together (`infra/store/batch.py`); None sends every append alone. One is the best
# measured: every writer waiting then rides the next statement, and the server's group
# commit already overlaps this process's commits with other processes'. With two, the
# writers split into two batches that never rebalance: one lane ends up carrying one
# writer per statement (8 writers: batches of 1 and 7 in turn, 25% fewer appends/s).
APPEND_LANES = 1


class PostgresEventStore:
    """The store over a pool made by `infra.store.connection.create_pool`.

    `after_append` runs after the commit (never inside it) of every new append, e.g. to
    publish a wake-up to Redis; its failure is logged, never raised, since the events
    are already durable and pollers will find them anyway.
    """

    def __init__(self, pool: Pool, *, after_append: AfterAppend | None = None,
                 append_lanes: int | None = APPEND_LANES) -> None:
        self.pool = pool
        self.after_append = after_append
        self.batcher = AppendBatcher(pool, lanes=append_lanes) if append_lanes else None
        # The highest version this store has seen exist, per stream: an append at or
        # below it cannot open a gap, so it skips the PREVIOUS_EXISTS probe (sql.py).
        # Sound across processes because events are never deleted and versions are
        # dense; a stale entry only means a lower bound, never a wrong one.
        self._known: dict[str, int] = {}

    def _saw(self, stream_id: str, version: int) -> None:
        known = self._known
        if version <= known.get(stream_id, 0):
            return
        if len(known) >= KNOWN_STREAMS:
            for stale in list(itertools.islice(known, KNOWN_STREAMS // 2)):
                del known[stale]  # the least recently advanced half
        known.pop(stream_id, None)
        known[stream_id] = version

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        command_id: uuid.UUID,
        request_hash: bytes | None = None,
    ) -> AppendResult:
        """Append `events` after `expected_version`, once per `command_id`.

        A retry of a command already recorded on this stream returns the first answer
        (`replayed=True`) and writes nothing, whatever the stream's version is now.
        """
        if not events:
            raise ValueError("an append needs at least one event")
        fingerprint = request_hash or _default_hash(stream_id, expected_version, events)
        ids = event_ids(command_id, stream_id, len(events))
        known = 0 < expected_version <= self._known.get(stream_id, 0)

        def alone() -> Awaitable[list]:
            return self._insert(stream_id, command_id, expected_version, known, ids, events, fingerprint)

        try:
            # Only an append the store knows needs no probe can share a statement (sql.py).
            if self.batcher is not None and (known or expected_version == 0):
                rows = await self.batcher.append(alone, stream_id, expected_version, command_id, ids,
                                                  events, fingerprint)
                if rows is ALONE:
                    rows = await alone()
            else:
                rows = await alone()
        except asyncpg.UniqueViolationError:
            rows = []
        if not rows:
            return await self._refused(stream_id, expected_version, command_id, fingerprint)
        self._saw(stream_id, rows[-1][1])
        recorded = [
            RecordedEvent(
                stream_id, row[1], row[0], row[2], event_id, e.type, e.schema_version,
                e.data, e.metadata, row[3],
            )
            for row, event_id, e in zip(rows, ids, events)
        ]
        result = AppendResult(stream_id, rows[0][1], rows[-1][1], recorded)
        if self.after_append is not None:
            try:
                await self.after_append(result)
            except Exception:
                log.exception("after_append hook failed for %s", stream_id)
        return result

    def _insert(self, stream_id: str, command_id: uuid.UUID, expected_version: int, known: bool,
                ids: list[uuid.UUID], events: Sequence[NewEvent], fingerprint: bytes) -> Awaitable[list]:
        if len(events) == 1:
            e = events[0]
            return self.pool.fetch(
                APPEND_ONE_KNOWN if known else APPEND_ONE, stream_id, command_id,
                expected_version, ids[0], e.type, e.schema_version, e.data, e.metadata, fingerprint,
            )
        return self.pool.fetch(
            APPEND_KNOWN if known else APPEND, stream_id, command_id, expected_version,
            ids, [e.type for e in events], [e.schema_version for e in events],
            [e.data for e in events], [e.metadata for e in events], fingerprint,
        )

    async def _refused(
        self, stream_id: str, expected_version: int, command_id: uuid.UUID, fingerprint: bytes
    ) -> AppendResult:
        """Say why nothing was appended: a retry, a reused command id, or a stale version.

        The command is looked up first: a retry of a command that succeeded is naturally
        "stale" (its own events moved the stream on) but must still get its first answer.
        Any conflicting row we collided with has committed by now (Postgres made us wait
        for it), so these fresh reads see it.
        """
        first_answer = await self.command_result(stream_id, command_id, fingerprint)
        if first_answer is not None:
            return first_answer
        current = await self.stream_version(stream_id)
        raise ConcurrencyError(stream_id, expected_version, current)

    async def command_result(
        self, stream_id: str, command_id: uuid.UUID, fingerprint: bytes
    ) -> AppendResult | None:
        """The first answer to a command already recorded on this stream, or None.

        For callers that decide before appending: a retried command may no longer be
        decidable (its own events moved the match on), yet must get its first answer, so
        they ask here when deciding fails. A different body raises CommandConflictError.
        """
        async with self.pool.acquire() as conn:
            command = await conn.fetchrow(COMMAND, stream_id, command_id)
            if command is None:
                return None
            if command["request_hash"] != fingerprint:
                raise CommandConflictError(stream_id, command_id)
            first, last = command["first_version"], command["last_version"]
            events = await self.read_stream(stream_id, first - 1, last, conn=conn)
        return AppendResult(stream_id, first, last, events, replayed=True)

    async def stream_version(self, stream_id: str) -> int:
        """The stream's last version; 0 for a stream with no events."""
        version = await self.pool.fetchval(STREAM_VERSION, stream_id) or 0
        self._saw(stream_id, version)
        return version

    async def read_stream(
        self,
        stream_id: str,
        after_version: int = 0,
        up_to_version: int | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[RecordedEvent]:
        """The stream's events with `after_version < version <= up_to_version`, in order.

        `after_version` is the version the caller already holds (0: from the start),
        which is what a cache or a reconnecting client knows.
        """
        upper = up_to_version if up_to_version is not None else 2**62
        rows = await (conn or self.pool).fetch(READ_STREAM, stream_id, after_version, upper)
        if rows:
            self._saw(stream_id, rows[-1][1])
        return [RecordedEvent(*row) for row in rows]

    async def read_stream_back(self, stream_id: str, before_version: int, limit: int, *,
                               conn: Connection | None = None) -> list[RecordedEvent]:
        """Up to `limit` of the stream's events older than `before_version`, newest first."""
        rows = await (conn or self.pool).fetch(READ_STREAM_BACK, stream_id, before_version, limit)
        return [RecordedEvent(*row) for row in rows]

    async def read_log(
        self,
        after: LogPosition = LOG_START,
        limit: int = 1000,
        *,
        payload_types: Sequence[str] | None = None,
        conn: Connection | None = None,
    ) -> list[RecordedEvent]:
        """Up to `limit` final events after `after`, in log order (see `READ_LOG`).

        Call again from the last event's `log_position` to tail the log; an empty answer
        means caught up for now. `payload_types`, when given, limits which events carry
        their `data`; every event still comes back so checkpoints move over all of them.
        """
        types = list(payload_types) if payload_types is not None else None
        rows = await (conn or self.pool).fetch(READ_LOG, after[0], after[1], types, limit)
        return [RecordedEvent(*row) for row in rows]

    async def settle(self, timeout: float = 30.0) -> None:
        """Wait until every transaction begun before this call has ended (in any database
        of the cluster), so `read_log` shows every append that had returned by then.

        Tailing readers never need this (they get such events in a later batch); it is for
        tests and tools that want "everything so far", on a server that others also use.
        """
        target = await self.pool.fetchval("SELECT pg_snapshot_xmax(pg_current_snapshot())")
        deadline = asyncio.get_running_loop().time() + timeout
        while await self.pool.fetchval("SELECT pg_snapshot_xmin(pg_current_snapshot())") < target:
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError("a transaction older than the call is still open")
            await asyncio.sleep(0.005)

    async def head(self, *, conn: Connection | None = None) -> LogPosition:
        """The last final position of the log (LOG_START for an empty log)."""
        row = await (conn or self.pool).fetchrow(HEAD)
        return LogPosition(row[0], row[1]) if row else LOG_START

    async def held_back(self, *, conn: Connection | None = None) -> bool:
        """Whether committed events wait behind a transaction still open (see `HELD_BACK`)."""
        return await (conn or self.pool).fetchval(HELD_BACK)

    async def backlog(
        self, after: LogPosition, *, conn: Connection | None = None
    ) -> tuple[int, float | None]:
        """How many final events follow `after`, and the age in seconds of the oldest."""
        row = await (conn or self.pool).fetchrow(BACKLOG, after[0], after[1])
        return row[0], row[1]


def _default_hash(stream_id: str, expected_version: int, events: Sequence[NewEvent]) -> bytes:
    return request_hash(stream_id, expected_version, events)
