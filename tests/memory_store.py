"""In-memory adapters of the event store and the vault, for tests of logic only.

They keep the contract of `infra.store.protocol.EventStore` (the contract suite,
`tests/store_contract.py`, runs over this adapter and over Postgres) and of the vault's
methods, so a service's rules can be tested without a server. They live under `tests/` and
no process can import them (tests/unit/test_import_graph.py): production, the contract, API
and end-to-end tests run on real Postgres.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import uuid
from collections.abc import Sequence
from typing import Any

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
from infra.vault import MatchSecret


class MemoryEventStore:
    """One process's event store in a list: every append is final at once (one writer at a
    time under a lock, so there is no horizon to wait for), numbered as Postgres numbers it."""

    def __init__(self) -> None:
        self.log: list[RecordedEvent] = []
        self.streams: dict[str, list[RecordedEvent]] = {}
        self.commands: dict[tuple[str, uuid.UUID], tuple[bytes, int, int]] = {}
        self._lock = asyncio.Lock()

    async def append(self, stream_id: str, expected_version: int, events: Sequence[NewEvent], *,
                     command_id: uuid.UUID, request_hash: bytes | None = None) -> AppendResult:
        if not events:
            raise ValueError("an append needs at least one event")
        fingerprint = request_hash or _fingerprint(stream_id, expected_version, events)
        async with self._lock:
            first_answer = await self.command_result(stream_id, command_id, fingerprint)
            if first_answer is not None:
                return first_answer
            current = len(self.streams.get(stream_id, ()))
            if expected_version != current:
                raise ConcurrencyError(stream_id, expected_version, current)
            tx_id, now = len(self.log) + 1, dt.datetime.now(dt.timezone.utc)
            recorded = [RecordedEvent(stream_id, current + i + 1, len(self.log) + i + 1, tx_id, event_id, e.type,
                                      e.schema_version, e.data, e.metadata, now)
                        for i, (e, event_id) in enumerate(zip(events, event_ids(command_id, stream_id, len(events))))]
            self.log += recorded
            self.streams.setdefault(stream_id, []).extend(recorded)
            self.commands[(stream_id, command_id)] = (fingerprint, current + 1, current + len(events))
        return AppendResult(stream_id, current + 1, current + len(events), recorded)

    async def command_result(self, stream_id: str, command_id: uuid.UUID,
                             fingerprint: bytes) -> AppendResult | None:
        known = self.commands.get((stream_id, command_id))
        if known is None:
            return None
        if known[0] != fingerprint:
            raise CommandConflictError(stream_id, command_id)
        first, last = known[1], known[2]
        return AppendResult(stream_id, first, last, await self.read_stream(stream_id, first - 1, last), replayed=True)

    async def stream_version(self, stream_id: str) -> int:
        return len(self.streams.get(stream_id, ()))

    async def read_stream(self, stream_id: str, after_version: int = 0, up_to_version: int | None = None, *,
                          conn: Any = None) -> list[RecordedEvent]:
        events = self.streams.get(stream_id, [])
        return list(events[after_version:up_to_version])

    async def read_stream_back(self, stream_id: str, before_version: int, limit: int, *,
                               conn: Any = None) -> list[RecordedEvent]:
        older = [e for e in self.streams.get(stream_id, []) if e.stream_version < before_version]
        return older[::-1][:limit]

    async def read_log(self, after: LogPosition = LOG_START, limit: int = 1000, *,
                       payload_types: Sequence[str] | None = None, conn: Any = None) -> list[RecordedEvent]:
        page = [e for e in self.log if e.log_position > after][:limit]
        if payload_types is None:
            return page
        wanted = set(payload_types)
        return [e if e.type in wanted else _without_data(e) for e in page]

    async def settle(self, timeout: float = 30.0) -> None:
        return None                                    # every append is final when it returns

    async def held_back(self, *, conn: Any = None) -> bool:
        return False                                   # nothing waits: there is no horizon

    async def head(self, *, conn: Any = None) -> LogPosition:
        return self.log[-1].log_position if self.log else LOG_START

    async def backlog(self, after: LogPosition, *, conn: Any = None) -> tuple[int, float | None]:
        waiting = [e for e in self.log if e.log_position > after]
        if not waiting:
            return 0, None
        return len(waiting), (dt.datetime.now(dt.timezone.utc) - waiting[0].recorded_at).total_seconds()


class MemoryVault:
    """The vault's contract in dicts: the first secret kept wins; entropy by seat and chain."""

    def __init__(self) -> None:
        self.secrets: dict[tuple[str, int], MatchSecret] = {}
        self.entropies: dict[str, dict[str, tuple[str, int]]] = {}

    async def keep(self, match_id: str, secret: bytes, chain_length: int,
                   predefined: list[dict[str, Any]] | None) -> MatchSecret:
        return self.secrets.setdefault((match_id, 1), MatchSecret(secret, chain_length, predefined))

    async def secret(self, match_id: str) -> MatchSecret:
        if (match_id, 1) not in self.secrets:
            raise LookupError(f"no secret kept for match {match_id}")
        return self.secrets[(match_id, 1)]

    async def keep_chain(self, match_id: str, chain: int, secret: bytes, chain_length: int) -> MatchSecret:
        return self.secrets.setdefault((match_id, chain), MatchSecret(secret, chain_length, None))

    async def chain_secret(self, match_id: str, chain: int) -> MatchSecret:
        if (match_id, chain) not in self.secrets:
            raise LookupError(f"no secret kept for chain {chain} of match {match_id}")
        return self.secrets[(match_id, chain)]

    async def give_entropy(self, match_id: str, seat: str, entropy: str, chain: int = 1) -> None:
        self.entropies.setdefault(match_id, {})[seat] = (entropy, chain)

    async def forget_entropy(self, match_id: str, seat: str) -> None:
        self.entropies.get(match_id, {}).pop(seat, None)

    async def entropy(self, match_id: str, chain: int = 1) -> dict[str, str]:
        return {seat: text for seat, (text, given) in self.entropies.get(match_id, {}).items() if given >= chain}


def _fingerprint(stream_id: str, expected_version: int, events: Sequence[NewEvent]) -> bytes:
    return request_hash(stream_id, expected_version, events)


def _without_data(event: RecordedEvent) -> RecordedEvent:
    import msgspec

    return msgspec.structs.replace(event, data=None)
