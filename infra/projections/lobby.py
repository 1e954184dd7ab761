"""`lobby`: the matches that have not started, with their free seats.

A row lives from `match_created` to `match_started` (or `match_finished`, or
`match_abandoned`: nobody acted in it for ATOUT_ABANDON_AFTER). A full table keeps its row, with `free_seats = 0`, because a
seat may be left again before the start; the lobby query filters on `free_seats > 0`.
"""

from __future__ import annotations

from typing import Any

from infra.projections.base import RowProjection
from infra.projections.match_summaries import match_id_of
from infra.store.model import RecordedEvent


def free_seats(seats: dict[str, Any]) -> int:
    return sum(1 for holder in seats.values() if holder is None)


class Lobby(RowProjection):
    name = "lobby"
    table = "lobby"
    version = 2  # 2: match_abandoned drops the row
    event_types = frozenset({"match_created", "seat_taken", "seat_left", "match_started", "match_finished",
                             "match_abandoned"})
    columns = {
        "match_id": "text",
        "game": "text",
        "options": "jsonb",
        "seats": "jsonb",
        "free_seats": "integer",
        "created_at": "timestamptz",
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
            }
        if row is None or event.type in ("match_started", "match_finished", "match_abandoned"):
            return None
        holder = data["holder"] if event.type == "seat_taken" else None
        seats = {**row["seats"], data["seat"]: holder}
        return {**row, "seats": seats, "free_seats": free_seats(seats)}
