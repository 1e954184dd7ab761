"""`chat_reports`: the admins' queue of reports (a chat message or a player), newest first.

One row per report, from `report_filed` (in `report-<id>`) and updated by `report_resolved`
(what an admin did: muted, banned, dismissed). Rows hold ids only; names are looked up when
the queue is read, so an erased player shows none. Paged by `(created_at, report_id)`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import msgspec

from infra import streams
from infra.projections.base import Change, Projection
from infra.store.postgres import Connection

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


# Resolutions in the log whose action is spelled "band" are bans: read as what they mean.
AS_WRITTEN_BEFORE = {"band": "banned"}


class ChatReports(Projection):
    name = "chat_reports"
    version = 2  # 2: a report closed by a ban recorded as "band" is "banned"
    tables = ("chat_reports",)
    event_types = frozenset({"report_filed", "report_resolved"})
    catch_up_delay = 0.05

    def create(self, names: Mapping[str, str]) -> list[str]:
        table = names["chat_reports"]
        return [f"""CREATE TABLE IF NOT EXISTS {table} (
                        report_id   text PRIMARY KEY,
                        player_id   text NOT NULL,
                        reporter    text NOT NULL,
                        match_id    text,
                        message_id  text,
                        message     jsonb,
                        reason      text NOT NULL,
                        status      text NOT NULL,
                        resolution  jsonb,
                        created_at  timestamptz NOT NULL)""",
                f"CREATE INDEX IF NOT EXISTS {table}_queue ON {table} (status, created_at DESC, report_id DESC)"]

    async def apply(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> None:
        table = names["chat_reports"]
        for recorded, data in changes:
            if not recorded.stream_id.startswith(streams.REPORT):
                continue
            if recorded.type == "report_filed":
                message = data.get("message")
                await conn.execute(
                    f"INSERT INTO {table} (report_id, player_id, reporter, match_id, message_id, message, reason,"
                    f" status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8)"
                    f" ON CONFLICT (report_id) DO NOTHING",
                    data["report_id"], data["player_id"], data["reporter"], data.get("match_id"),
                    data.get("message_id"), None if message is None else _encode(message), data["reason"],
                    recorded.recorded_at)
            else:
                action = AS_WRITTEN_BEFORE.get(data["action"], data["action"])
                await conn.execute(f"UPDATE {table} SET status = $2, resolution = $3 WHERE report_id = $1",
                                   data["report_id"], action,
                                   _encode({"admin": data["admin"], "action": action,
                                            "reason": data["reason"], "at": recorded.recorded_at.isoformat()}))


async def queue(pool: Any, statuses: list[str] | None, limit: int,
                before: tuple[datetime, str] | None = None) -> list[dict[str, Any]]:
    """Reports with one of `statuses` (None: all), newest first, after the cursor `before`."""
    rows = await pool.fetch(
        "SELECT * FROM chat_reports WHERE ($1::text[] IS NULL OR status = ANY($1::text[]))"
        " AND ($2::timestamptz IS NULL OR (created_at, report_id) < ($2, $3))"
        " ORDER BY created_at DESC, report_id DESC LIMIT $4",
        statuses, before[0] if before else None, before[1] if before else "", limit)
    return [{"report_id": r["report_id"], "player_id": r["player_id"], "reporter": r["reporter"],
             "match_id": r["match_id"], "message_id": r["message_id"],
             "message": None if r["message"] is None else _decode(r["message"]), "reason": r["reason"],
             "status": r["status"], "resolution": None if r["resolution"] is None else _decode(r["resolution"]),
             "created_at": r["created_at"].isoformat()} for r in rows]
