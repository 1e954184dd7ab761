"""The audit: who saw or changed what beyond his own seat, one stream a day
(`audit-<YYYY-MM-DD>`), written *before* the answer leaves — an admin's replay of hidden
cards, a review, a ruling, a moderation act, a chat read, and a privileged read refused to a
role that plays. Read back by day range, by match or by actor (`GET /v1/admin/audit`).

Many admins append to one day's stream: an append that loses the race for the stream's
version retries at the new version (20 times, a few milliseconds apart).
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import date, datetime, timedelta, timezone
from typing import Any

import msgspec

from infra import streams
from infra.players import Principal
from infra.serialization import EventRegistry
from infra.store import ConcurrencyError, PostgresEventStore


class AuditEntry(msgspec.Struct, frozen=True, tag="audit_entry"):
    """Who saw or changed what: `action` is replay (hidden cards seen), review, ruling,
    refused (`detail.code`, `detail.read`), chat_read, or a moderation act."""

    actor: str
    role: str
    action: str
    match_id: str | None = None
    deal: int | None = None
    seat: str | None = None
    dispute_id: str | None = None
    detail: dict[str, Any] = {}


REGISTRY = EventRegistry()
REGISTRY.register(AuditEntry)


async def append_audit(store: PostgresEventStore, principal: Principal, action: str, **what: Any) -> None:
    """Append to today's audit stream, retrying on a concurrent append."""
    stream = streams.audit_stream(datetime.now(timezone.utc).date().isoformat())
    entry = REGISTRY.encode(AuditEntry(actor=principal.player_id, role=principal.role, action=action, **what))
    for attempt in range(20):
        try:
            await store.append(stream, await store.stream_version(stream), [entry], command_id=uuid.uuid4())
            return
        except ConcurrencyError:
            await asyncio.sleep(0.002 * (attempt + 1))
    raise ConcurrencyError(stream, -1, -1)



async def read(store: PostgresEventStore, since: date, until: date, match_id: str | None = None,
               actor: str | None = None) -> list[dict[str, Any]]:
    """The entries of the days `since`..`until`, each with its time (`at`), oldest first."""
    out: list[dict[str, Any]] = []
    day = since
    while day <= until:
        for recorded in await store.read_stream(streams.audit_stream(day.isoformat())):
            entry = msgspec.to_builtins(REGISTRY.decode_recorded(recorded))
            if (match_id is None or entry.get("match_id") == match_id) and (actor is None or entry["actor"] == actor):
                out.append({"at": recorded.recorded_at.isoformat(), **entry})
        day += timedelta(days=1)
    return out
