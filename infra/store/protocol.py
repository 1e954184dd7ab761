"""What a service may ask of an event store: the one contract every adapter keeps.

`PostgresEventStore` is the adapter every process runs on. The contract suite
(`tests/store_contract.py`) runs over it and over the in-memory adapter the tests keep for
logic tests (`tests/memory_store.py`, never importable by a process). `conn` is an adapter's
own connection (Postgres: to read inside a caller's transaction); an adapter without one
ignores it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any, Protocol

from infra.store.model import (
    LOG_START,
    AppendResult,
    LogPosition,
    NewEvent,
    RecordedEvent,
)


class EventStore(Protocol):
    async def append(self, stream_id: str, expected_version: int, events: Sequence[NewEvent], *,
                     command_id: uuid.UUID, request_hash: bytes | None = None) -> AppendResult:
        """Append after `expected_version`, once per `command_id` on this stream: a retry gets
        the first answer (`replayed`), another body `CommandConflictError`, a stale or future
        version `ConcurrencyError` naming the current one."""
        ...

    async def command_result(self, stream_id: str, command_id: uuid.UUID,
                             fingerprint: bytes) -> AppendResult | None:
        """The first answer to a command already recorded on this stream, or None."""
        ...

    async def stream_version(self, stream_id: str) -> int:
        """The stream's last version; 0 for a stream with no events."""
        ...

    async def read_stream(self, stream_id: str, after_version: int = 0, up_to_version: int | None = None, *,
                          conn: Any = None) -> list[RecordedEvent]:
        """The stream's events with `after_version < version <= up_to_version`, in order."""
        ...

    async def read_stream_back(self, stream_id: str, before_version: int, limit: int, *,
                               conn: Any = None) -> list[RecordedEvent]:
        """Up to `limit` of the stream's events older than `before_version`, newest first."""
        ...

    async def read_log(self, after: LogPosition = LOG_START, limit: int = 1000, *,
                       payload_types: Sequence[str] | None = None, conn: Any = None) -> list[RecordedEvent]:
        """Up to `limit` final events after `after`, in log order; with `payload_types`, only
        those types carry their `data` (every event still comes, so checkpoints move)."""
        ...

    async def settle(self, timeout: float = 30.0) -> None:
        """Until every append that had returned when called is final (shown by `read_log`)."""
        ...

    async def head(self, *, conn: Any = None) -> LogPosition:
        """The last final position of the log (LOG_START for an empty log)."""
        ...

    async def held_back(self, *, conn: Any = None) -> bool:
        """Whether committed events are not yet final (`read_log` will show them once the
        transactions begun before them end): a tailer should look again soon."""
        ...

    async def backlog(self, after: LogPosition, *, conn: Any = None) -> tuple[int, float | None]:
        """How many final events follow `after`, and the age in seconds of the oldest."""
        ...
