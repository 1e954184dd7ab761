"""Appends that arrive while the store's statements are busy go to the server together.

On a few shared cores the store is bound by CPU, and most of an append's CPU is not its
rows but its statement: the client's round trip and bookkeeping, the server's bind and
execute, its transaction id, its commit record and its wait for the WAL flush. With many
streams writing at once each append paid all of that alone, so appends/s fell as writers
grew while the server's own commit rate stayed flat (`docs/event-store.md`, "Throughput").

So the store keeps at most `lanes` append statements in flight. An append that finds a
lane free sends its own statement at once, exactly as before: nothing waits for company,
and a lone writer sees no change. An append that finds every lane busy queues; when a lane
frees, everything queued (one command per stream, up to `max_batch`) goes in one statement
(`sql.APPEND_BATCH`), one transaction. Each command stays whole: the statement commits all
of its commands or none. When the server refuses the batch (a stale version, a retried
command, a bad payload: any error it reports, after which nothing of the batch exists),
every command of it is sent again on its own, which answers each one exactly as if it
had never been batched.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import asyncpg

from infra.store.model import NewEvent
from infra.store.pool import Pool
from infra.store.sql import APPEND_BATCH

# What a queued append gets when its batch was refused: "send yourself alone".
ALONE: Any = object()


class Pending:
    __slots__ = ("command_id", "events", "expected", "fingerprint", "future", "ids", "stream_id")

    def __init__(self, stream_id: str, expected: int, command_id: uuid.UUID, ids: list[uuid.UUID],
                 events: Sequence[NewEvent], fingerprint: bytes, future: asyncio.Future) -> None:
        self.stream_id, self.expected, self.command_id = stream_id, expected, command_id
        self.ids, self.events, self.fingerprint, self.future = ids, events, fingerprint, future


class AppendBatcher:
    def __init__(self, pool: Pool, *, lanes: int, max_batch: int = 64) -> None:
        if lanes < 1 or max_batch < 1:
            raise ValueError("need lanes >= 1 and max_batch >= 1")
        self._pool, self._lanes, self._max = pool, lanes, max_batch
        self._busy = 0
        # Statements sent, alone and batched, and the appends the batches carried: what
        # the benchmark reports as appends per statement.
        self.alone = self.batches = self.batched = 0
        self._queue: list[Pending] = []
        self._flushing: set[asyncio.Task] = set()

    async def append(self, alone: Callable[[], Awaitable[list]], stream_id: str, expected: int,
                     command_id: uuid.UUID, ids: list[uuid.UUID], events: Sequence[NewEvent],
                     fingerprint: bytes) -> list:
        """The rows of this append, or ALONE when the caller must send `alone()` itself.

        `alone()` is the append's own statement; its errors reach the caller unchanged.
        """
        if self._busy < self._lanes:
            self._busy += 1
            self.alone += 1
            try:
                return await alone()
            finally:
                self._busy -= 1
                self._drain()
        future = asyncio.get_running_loop().create_future()
        self._queue.append(Pending(stream_id, expected, command_id, ids, events, fingerprint, future))
        return await future

    def _drain(self) -> None:
        while self._queue and self._busy < self._lanes:
            batch: list[Pending] = []
            later: list[Pending] = []
            streams: set[str] = set()
            for pending in self._queue:
                if pending.future.done():  # its caller was cancelled before it was sent
                    continue
                # A second command of a stream needs the first one committed (its version
                # exists only then), so it waits for the next batch. That also keeps one
                # command per stream in a transaction, which readers rely on: the account
                # projection takes a match's events of one tx_id for one whole command.
                if pending.stream_id in streams or len(batch) >= self._max:
                    later.append(pending)
                else:
                    streams.add(pending.stream_id)
                    batch.append(pending)
            self._queue = later
            if batch:
                self._busy += 1
                task = asyncio.get_running_loop().create_task(self._flush(batch))
                self._flushing.add(task)
                task.add_done_callback(self._flushing.discard)

    async def _flush(self, batch: list[Pending]) -> None:
        try:
            rows = await self._send(batch)
        except asyncpg.PostgresError:
            for pending in batch:
                if not pending.future.done():
                    pending.future.set_result(ALONE)
        except BaseException as error:
            for pending in batch:
                if not pending.future.done():
                    if isinstance(error, asyncio.CancelledError):
                        pending.future.cancel()
                    else:
                        pending.future.set_exception(error)
            if not isinstance(error, Exception):
                raise
        else:
            at = 0
            for pending in batch:
                mine = rows[at:at + len(pending.events)]
                at += len(mine)
                if not pending.future.done():
                    pending.future.set_result(mine)
        finally:
            # The callers just answered come back with their next command within a turn
            # of the loop; the lane waits that turn so that they go out together now,
            # rather than one alone and the rest a whole statement later.
            try:
                await asyncio.sleep(0)
            finally:  # even cancelled (the loop closing), the lane must come back
                self._busy -= 1
                self._drain()

    async def _send(self, batch: list[Pending]) -> list[asyncpg.Record]:
        self.batches += 1
        self.batched += len(batch)
        batch.sort(key=_stream)
        streams: list[str] = []
        versions: list[int] = []
        ids: list[uuid.UUID] = []
        types: list[str] = []
        schemas: list[int] = []
        data: list[bytes] = []
        metadata: list[bytes | None] = []
        commands: list[uuid.UUID | None] = []
        hashes: list[bytes | None] = []
        lasts: list[int | None] = []
        for pending in batch:
            count = len(pending.events)
            streams += [pending.stream_id] * count
            versions += range(pending.expected + 1, pending.expected + count + 1)
            ids += pending.ids
            for event in pending.events:
                types.append(event.type)
                schemas.append(event.schema_version)
                data.append(event.data)
                metadata.append(event.metadata)
            commands += [pending.command_id] + [None] * (count - 1)
            hashes += [pending.fingerprint] + [None] * (count - 1)
            lasts += [pending.expected + count] + [None] * (count - 1)
        rows = await self._pool.fetch(APPEND_BATCH, streams, versions, ids, types, schemas, data,
                                      metadata, commands, hashes, lasts)
        if [row[1] for row in rows] != versions:
            raise RuntimeError("a batch of appends came back out of the order it was sent in")
        return rows


def _stream(pending: Pending) -> str:
    return pending.stream_id
