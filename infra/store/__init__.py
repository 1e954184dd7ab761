"""The event store: append to streams with optimistic concurrency, read streams, tail the log.

`docs/event-store.md` explains the schema, the log order and the idempotency rules.
"""

from infra.store.connection import connect, create_pool, init_connection
from infra.store.migrate import MigrationError, migrate
from infra.store.model import (
    LOG_START,
    AppendResult,
    CommandConflictError,
    ConcurrencyError,
    LogPosition,
    NewEvent,
    RecordedEvent,
    StoreError,
)
from infra.store.postgres import PostgresEventStore
from infra.store.protocol import EventStore

__all__ = [
    "LOG_START",
    "AppendResult",
    "CommandConflictError",
    "ConcurrencyError",
    "EventStore",
    "LogPosition",
    "MigrationError",
    "NewEvent",
    "PostgresEventStore",
    "RecordedEvent",
    "StoreError",
    "connect",
    "create_pool",
    "init_connection",
    "migrate",
]
