"""The values and errors of the event store, independent of any database.

Payloads cross the store as JSON bytes: the store never imports an event class, so the
domain can evolve its Structs (and their upcasters, see `infra.serialization`) without
the store knowing, and any adapter can run the same contract tests.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import datetime
from typing import NamedTuple, Sequence

import msgspec


class LogPosition(NamedTuple):
    """A place in the global log: events are ordered by `(tx_id, position)`.

    It is a pair, not a single number, because `position` alone is drawn at insert time
    and so is not the order in which events become visible; see `postgres.READ_LOG`.
    Tuples compare lexicographically, which is exactly the log order.
    """

    tx_id: int
    position: int


LOG_START = LogPosition(0, 0)


class NewEvent(msgspec.Struct, frozen=True):
    """An event about to be appended: its stable type name, schema version and JSON payload."""

    type: str
    data: bytes
    schema_version: int = 1
    metadata: bytes | None = None


class RecordedEvent(msgspec.Struct, frozen=True, gc=False):
    """An event as stored. `data` is `None` only when `read_log` was asked to skip it."""

    stream_id: str
    stream_version: int
    position: int
    tx_id: int
    event_id: uuid.UUID
    type: str
    schema_version: int
    data: bytes | None
    metadata: bytes | None
    recorded_at: datetime

    @property
    def log_position(self) -> LogPosition:
        return LogPosition(self.tx_id, self.position)


class AppendResult(msgspec.Struct, frozen=True):
    """What an append answered. A retried command gets the first answer, `replayed=True`."""

    stream_id: str
    first_version: int
    last_version: int
    events: list[RecordedEvent]
    replayed: bool = False


class StoreError(Exception):
    """Base of the errors the store raises on purpose."""


class ConcurrencyError(StoreError):
    """The stream is not at the expected version: reload and decide again."""

    def __init__(self, stream_id: str, expected_version: int, current_version: int) -> None:
        super().__init__(
            f"stream {stream_id!r} is at version {current_version}, not {expected_version}"
        )
        self.stream_id = stream_id
        self.expected_version = expected_version
        self.current_version = current_version


class CommandConflictError(StoreError):
    """This command_id was already used on this stream for a different request."""

    def __init__(self, stream_id: str, command_id: uuid.UUID) -> None:
        super().__init__(f"command {command_id} was already used on {stream_id!r} with another body")
        self.stream_id = stream_id
        self.command_id = command_id


def event_ids(command_id: uuid.UUID, stream_id: str, count: int) -> list[uuid.UUID]:
    """The ids of a command's events: uuid5 of the command id and the event's index.

    Deterministic, so the same command produces the same ids on every retry. The stream id
    is part of the name because a `command_id` is only promised unique per match. This is
    `uuid.uuid5` without its argument checks (half its cost, on every append); a unit
    test holds it equal to `uuid.uuid5`.
    """
    prefix = command_id.bytes
    ids = []
    for index in range(count):
        digest = hashlib.sha1(prefix + f"{stream_id}/{index}".encode()).digest()
        ids.append(_uuid((int.from_bytes(digest[:16], "big") & _UUID5_MASK) | _UUID5_BITS))
    return ids


# The version (5) and RFC 4122 variant bits of a name-based SHA-1 uuid.
_UUID5_MASK = ~((0xF000 << 64) | (0xC000 << 48))
_UUID5_BITS = (5 << 76) | (0x8000 << 48)


def _uuid(value: int) -> uuid.UUID:
    made = object.__new__(uuid.UUID)
    object.__setattr__(made, "int", value)
    object.__setattr__(made, "is_safe", uuid.SafeUUID.unknown)
    return made


def request_hash(stream_id: str, expected_version: int, events: Sequence[NewEvent]) -> bytes:
    """The default fingerprint of a command: where it goes and exactly what it appends.

    Callers whose `decide` is not a pure function of the command (a timestamp, a fresh
    shuffle) must pass a hash of the command body instead, or a retry would look like a
    different request.
    """
    digest = hashlib.sha256()
    digest.update(msgspec.json.encode([stream_id, expected_version]))
    for event in events:
        metadata = event.metadata or b"null"
        # Lengths first, so no two different (data, metadata) splits hash alike.
        digest.update(msgspec.json.encode([event.type, event.schema_version, len(event.data), len(metadata)]))
        digest.update(event.data)
        digest.update(metadata)
    return digest.digest()
