"""`lobby`: the matches that have not started, with their free seats.

A private table (`private`, docs/social.md) keeps its row, so that a full one is still
started by the sweeper, but the lobby query never shows it.

A row lives from `match_created` to `match_started` (or `match_finished`, or
`match_abandoned`: nobody acted in it for ATOUT_ABANDON_AFTER). A full table keeps its row, with `free_seats = 0`, because a
seat may be left again before the start; the lobby query filters on `free_seats > 0`.
"""

from __future__ import annotations

from typing import Any

import asyncpg

from infra.projections.base import RowProjection
from infra.projections.match_summaries import jsonb, match_id_of, match_id_of_row
from infra.store.model import RecordedEvent


def free_seats(seats: dict[str, Any]) -> int:
    return sum(1 for holder in seats.values() if holder is None)


class Lobby(RowProjection):
    name = "lobby"
    table = "lobby"
    version = 3  # 2: match_abandoned drops the row; 3: private tables (kept, never listed)
    event_types = frozenset({"match_created", "seat_taken", "seat_left", "match_started", "match_finished",
                             "match_abandoned"})
    columns = {
        "match_id": "text",
        "game": "text",
        "options": "jsonb",
        "seats": "jsonb",
        "free_seats": "integer",
        "created_at": "timestamptz",
        "private": "boolean",
    }
    indexes = ("free_seats, created_at",)

    def key_of(self, event: RecordedEvent, data: dict[str, Any]) -> str:
        return match_id_of(event)

    def fold(self, row: dict[str, Any] | None, event: RecordedEvent, data: dict[str, Any]) -> dict[str, Any] | None:
        if event.type == "match_created":
            seats = data.get("seats") or {}
            return {
                "match_id": match_id_of(event),
                "game": data["game"],
                "options": data.get("options") or {},
                "seats": seats,
                "free_seats": free_seats(seats),
                "created_at": event.recorded_at,
                "private": bool(data.get("private")),
            }
        if row is None or event.type in ("match_started", "match_finished", "match_abandoned"):
            return None
        holder = data["holder"] if event.type == "seat_taken" else None
        seats = {**row["seats"], data["seat"]: holder}
        return {**row, "seats": seats, "free_seats": free_seats(seats)}


LOBBY = """
SELECT match_id, game, options, seats, free_seats, created_at FROM lobby
WHERE free_seats > 0 AND NOT private AND ($1::text IS NULL OR game = $1)
  AND ($3::timestamptz IS NULL OR (created_at, match_id) < ($3, $4))
ORDER BY created_at DESC, match_id DESC LIMIT $2
"""


async def open_matches(pool: Any, game: str | None = None, limit: int = 50,
                       before: tuple[Any, str] | None = None) -> list[dict[str, Any]]:
    """The lobby's rows with a free seat, newest first (of one game, or all), those older
    than the key `before` (created_at, match id: a page's cursor) if given; empty before
    the projector has created the table."""
    at, key = before or (None, None)
    try:
        rows = await pool.fetch(LOBBY, game, limit, at, key)
    except asyncpg.UndefinedTableError:
        return []
    return [{"match_id": match_id_of_row(r["match_id"]), "game": r["game"], "options": jsonb(r["options"]),
             "seats": jsonb(r["seats"]), "free_seats": r["free_seats"], "created_at": r["created_at"].isoformat()}
            for r in rows]


FULL = """
SELECT l.match_id FROM lobby l JOIN bot_turns b USING (match_id)
WHERE l.free_seats = 0 AND b.last_event_at < now() - make_interval(secs => $1)
ORDER BY b.last_event_at LIMIT $2
"""


async def full_matches(pool: Any, after: float, limit: int = 1000) -> list[str]:
    """The open matches whose seats have all been taken and nothing happened for `after`
    seconds (by the `bot_turns` read model's last event): their start did not happen."""
    try:
        rows = await pool.fetch(FULL, after, limit)
    except asyncpg.UndefinedTableError:
        return []
    return [r["match_id"] for r in rows]
