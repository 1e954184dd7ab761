"""`disputes`: one row per dispute, the admins' queue and each player's list of his own.

Folded from the dispute streams (`dispute-<id>`, see services/disputes/service.py) by event type,
from payload dicts, so it needs no domain class. A row carries what the queue shows: the
match and deal, who filed and why, where in the deal, the status and the ruling.
"""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec

from infra import streams
from infra.projections.base import RowProjection
from infra.store.model import RecordedEvent

DISPUTE_STREAM_PREFIX = streams.DISPUTE
DISPUTE_EVENTS = frozenset({"dispute_filed", "dispute_status_changed", "dispute_ruled"})


class DisputesQueue(RowProjection):
    name = "disputes"
    table = "disputes"
    version = 1
    event_types = DISPUTE_EVENTS
    columns = {
        "dispute_id": "text",
        "match_id": "text",
        "deal": "integer",
        "filed_by": "text",
        "role": "text",
        "reason": "text",
        "position": "jsonb",
        "status": "text",
        "ruling": "jsonb",
        "filed_at": "timestamptz",
        "updated_at": "timestamptz",
        "version": "bigint",
    }
    indexes = ("status, filed_at", "filed_by, filed_at", "match_id")

    def key_of(self, event: RecordedEvent, data: dict[str, Any]) -> str:
        return event.stream_id.removeprefix(DISPUTE_STREAM_PREFIX)

    def fold(self, row: dict[str, Any] | None, event: RecordedEvent, data: dict[str, Any]) -> dict[str, Any] | None:
        if not event.stream_id.startswith(DISPUTE_STREAM_PREFIX):
            return row  # a tag of ours in another stream: not a dispute
        if event.type == "dispute_filed":
            row = {"dispute_id": data["dispute_id"], "match_id": data["match_id"], "deal": data["deal"],
                   "filed_by": data["by"], "role": data.get("role"), "reason": data["reason"],
                   "position": data.get("position"), "status": "open", "ruling": None,
                   "filed_at": event.recorded_at}
        elif row is None:
            return None
        elif event.type == "dispute_status_changed":
            row = {**row, "status": data["status"]}
        elif event.type == "dispute_ruled":
            ruling = {k: data.get(k) for k in ("ruling", "admin", "reason", "score", "match_version")}
            row = {**row, "status": "rejected" if data["ruling"] == "reject" else "resolved",
                   "ruling": {**ruling, "at": event.recorded_at.isoformat()}}
        return {**row, "updated_at": event.recorded_at, "version": event.stream_version}


QUEUE = """
SELECT dispute_id, match_id, deal, filed_by, role, reason, position, status, ruling, filed_at, updated_at, version
FROM disputes WHERE ($1::text[] IS NULL OR status = ANY($1::text[])) AND ($2::text IS NULL OR filed_by = $2)
ORDER BY filed_at DESC LIMIT $3
"""
_json = msgspec.json.Decoder()


async def queue(pool: asyncpg.Pool, statuses: list[str] | None, filed_by: str | None, limit: int) -> list[dict]:
    """The queue, newest first: with `statuses` (None: all), filed by `filed_by` (None: anyone).
    Empty before the projector has created the table."""
    try:
        rows = await pool.fetch(QUEUE, statuses, filed_by, limit)
    except asyncpg.UndefinedTableError:
        return []
    out = []
    for r in rows:
        row = dict(r)
        for col in ("position", "ruling"):
            row[col] = _json.decode(row[col]) if row[col] is not None else None
        for col in ("filed_at", "updated_at"):
            row[col] = row[col].isoformat() if row[col] else None
        out.append(row)
    return out
