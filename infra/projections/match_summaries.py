"""`match_summaries`: one row per match (game, options, seats, status, score, winner).

It folds only the service-level event types of the contract in `docs/event-store.md`,
never a game's own events, so every game gets a summary without teaching this module its
rules: the game service states the score in `deal_finished`.
"""

from __future__ import annotations

from typing import Any

from infra.projections.base import RowProjection
from infra.store.model import RecordedEvent

MATCH_EVENTS = frozenset(
    {"match_created", "seat_taken", "seat_left", "match_started", "deal_finished", "match_finished"}
)


def add_scores(total: dict[str, int], points: dict[str, int]) -> dict[str, int]:
    return {side: total.get(side, 0) + points.get(side, 0) for side in {**total, **points}}


class MatchSummaries(RowProjection):
    name = "match_summaries"
    table = "match_summaries"
    version = 1
    event_types = MATCH_EVENTS
    columns = {
        "match_id": "text",
        "game": "text",
        "options": "jsonb",
        "seats": "jsonb",
        "status": "text",
        "score": "jsonb",
        "deals": "integer",
        "winner": "text",
        "created_at": "timestamptz",
        "updated_at": "timestamptz",
        "version": "bigint",
    }
    indexes = ("status, created_at",)

    def fold(self, row: dict[str, Any] | None, event: RecordedEvent, data: dict[str, Any]) -> dict[str, Any] | None:
        if event.type == "match_created":
            row = {
                "match_id": event.stream_id,
                "game": data["game"],
                "options": data.get("options") or {},
                "seats": data.get("seats") or {},
                "status": "open",
                "score": {},
                "deals": 0,
                "winner": None,
                "created_at": event.recorded_at,
            }
        elif row is None:
            return None  # a stream that is not a match (or whose creation we never saw)
        else:
            row = dict(row)
            if event.type == "seat_taken":
                row["seats"] = {**row["seats"], data["seat"]: data.get("occupant")}
            elif event.type == "seat_left":
                row["seats"] = {**row["seats"], data["seat"]: None}
            elif event.type == "match_started":
                row["status"] = "playing"
            elif event.type == "deal_finished":
                row["deals"] += 1
                row["score"] = data.get("totals") or add_scores(row["score"], data.get("score") or {})
            elif event.type == "match_finished":
                row["status"] = "finished"
                row["winner"] = data.get("winner")
                if data.get("totals"):
                    row["score"] = data["totals"]
        row["updated_at"] = event.recorded_at
        row["version"] = event.stream_version
        return row
