"""`match_summaries`: one row per match (game, options, seats, status, score, winner).

Its columns come from the match layer's events (`domain.match`), never a game's own, so
every game gets a summary without this module knowing its rules: `deal_finished` and
`match_finished` carry the running `match_score`. It still sees a game's events, for one
reason: `version` and `updated_at` are the match's own (the version a client sends as
`expected_version`, the time of the last action), not those of the last change of status.
So it gets each stream's last event of a batch (`sees_stream_heads`) and reads the payloads
of the match layer's alone, as dicts, by the field names listed in docs/event-store.md ("The
event-type contract").

A tournament table's `updated_at` moves only when its status does: a time that moved with
every card would tell a reader who may not watch the table (another table of the round) how
far it has got. Its score, winner, deals and version are sealed per reader by
`services.visibility.Visibility.seal_rows`.
"""

from __future__ import annotations

from typing import Any

import asyncpg

import msgspec

from infra.projections.base import RowProjection
from infra.store.model import RecordedEvent
from infra import streams

MATCH_STREAM_PREFIX = streams.MATCH
MATCH_EVENTS = frozenset(
    {"match_created", "seat_taken", "seat_left", "match_started", "deal_finished", "match_finished",
     "match_reopened", "match_abandoned", "match_suspended", "match_resumed", "match_voided"}
)
STATUS_EVENTS = MATCH_EVENTS - {"seat_taken", "seat_left", "deal_finished"}


def match_id_of(event: RecordedEvent) -> str:
    """Match streams are named `match-<id>`; read models are keyed by the bare id."""
    return event.stream_id.removeprefix(MATCH_STREAM_PREFIX)


class MatchSummaries(RowProjection):
    name = "match_summaries"
    table = "match_summaries"
    version = 8  # 2: follows match_reopened (a ruling can reopen a finished match); 3: status "abandoned";
    # 4: "suspended" (and back) and "void"; 5: version and updated_at follow every event of the match;
    # 6: of every type, clocks' and presence's included; 7: `private` (a private table is listed only
    # to the players seated at it); 8: `tournament`, whose tables' updated_at follows their status only
    event_types = MATCH_EVENTS
    sees_stream_heads = True
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
        "private": "boolean",
        "tournament": "boolean",
    }
    indexes = ("status, updated_at",)

    def key_of(self, event: RecordedEvent, data: dict[str, Any]) -> str:
        return match_id_of(event)

    def fold(self, row: dict[str, Any] | None, event: RecordedEvent, data: dict[str, Any]) -> dict[str, Any] | None:
        if event.type == "match_created":
            row = {
                "match_id": match_id_of(event),
                "game": data["game"],
                "options": data.get("options") or {},
                "seats": data.get("seats") or {},
                "status": "open",
                "score": {},
                "deals": 0,
                "winner": None,
                "created_at": event.recorded_at,
                "private": bool(data.get("private")),
                "tournament": bool(data.get("tournament")),
            }
        elif row is None:
            return None  # not a match (or its creation is unknown): nothing to summarise
        else:
            row = dict(row)
            if event.type not in MATCH_EVENTS:
                pass      # a game's event, or the match layer's between deals: only the version moves
            elif event.type == "seat_taken":
                row["seats"] = {**row["seats"], data["seat"]: data["holder"]}
            elif event.type == "seat_left":
                row["seats"] = {**row["seats"], data["seat"]: None}
            elif event.type == "match_started":
                row["status"] = "playing"
            elif event.type == "deal_finished":
                row["deals"] += 1
                row["score"] = data.get("match_score") or row["score"]
            elif event.type == "match_reopened":
                row["status"] = "playing"
                row["winner"] = None
                row["score"] = data.get("match_score") or row["score"]
            elif event.type == "match_abandoned":
                row["status"] = "abandoned"
            elif event.type == "match_suspended":
                row["status"] = "suspended"
            elif event.type == "match_resumed":
                row["status"] = "playing"
            elif event.type == "match_voided":
                row["status"] = "void"
            elif event.type == "match_finished":
                row["status"] = "finished"
                row["winner"] = data.get("winner")
                row["score"] = data.get("match_score") or row["score"]
        if not row.get("tournament") or event.type in STATUS_EVENTS:
            row["updated_at"] = event.recorded_at
        row["version"] = event.stream_version
        return row


# Seats are {"N": {"kind": "player", "player_id": ...} | null, ...}; a player's matches
# are the rows with one seat naming them. Everyone's list leaves private tables out.
SUMMARIES = """
SELECT match_id, game, options, seats, status, score, deals, winner, version, created_at, updated_at
FROM match_summaries
WHERE ($1::text IS NULL OR status = $1)
  AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM jsonb_each(seats) s WHERE s.value->>'player_id' = $2))
  AND ($2::text IS NOT NULL OR private IS NOT TRUE)
  AND ($4::timestamptz IS NULL OR (updated_at, match_id) < ($4, $5))
ORDER BY updated_at DESC NULLS LAST, match_id DESC LIMIT $3
"""
_json = msgspec.json.Decoder()


def jsonb(value: Any) -> Any:
    return _json.decode(value) if isinstance(value, (bytes, bytearray, memoryview, str)) else value


def match_id_of_row(stream_or_id: str) -> str:
    return stream_or_id.removeprefix(MATCH_STREAM_PREFIX)


async def summaries(pool: Any, status: str | None = None, player_id: str | None = None,
                    limit: int = 50, before: tuple[Any, str] | None = None) -> list[dict[str, Any]]:
    """Summaries newest first: of one status (or all), where `player_id` holds a seat (or
    anyone's), those older than the key `before` (updated_at, match id: a page's cursor) if
    given; empty before the projector has created the table."""
    at, key = before or (None, None)
    try:
        rows = await pool.fetch(SUMMARIES, status, player_id, limit, at, key)
    except asyncpg.UndefinedTableError:
        return []
    return [{"match_id": match_id_of_row(r["match_id"]), "game": r["game"], "options": jsonb(r["options"]),
             "seats": jsonb(r["seats"]), "status": r["status"], "score": jsonb(r["score"]), "deals": r["deals"],
             "winner": r["winner"], "version": r["version"],
             "created_at": r["created_at"].isoformat() if r["created_at"] else None,
             "updated_at": r["updated_at"].isoformat() if r["updated_at"] else None} for r in rows]
