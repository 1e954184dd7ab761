"""Reads of the read models (infra/projections: `lobby`, `match_summaries`) for the API.

The projections own their tables; this module only selects from them, so a rebuild or a
new column there never needs a change here beyond the columns we show. Read models lag
the log by a poll interval at most: a match just created may take a moment to appear in
the lobby, while `GET /v1/matches/{id}` (from the event store) is always current. A
table that does not exist yet (no projector has run) reads as empty.
"""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec

_json = msgspec.json.Decoder()
STREAM_PREFIX = "match-"


def _match_id(stream_or_id: str) -> str:
    return stream_or_id.removeprefix(STREAM_PREFIX)


def _jsonb(value: Any) -> Any:
    return _json.decode(value) if isinstance(value, (bytes, bytearray, memoryview, str)) else value


async def _fetch(pool: asyncpg.Pool, sql: str, *args: Any) -> list[asyncpg.Record]:
    try:
        return await pool.fetch(sql, *args)
    except asyncpg.UndefinedTableError:
        return []


LOBBY = """
SELECT match_id, game, options, seats, free_seats, created_at FROM lobby
WHERE free_seats > 0 AND ($1::text IS NULL OR game = $1)
ORDER BY created_at DESC LIMIT $2
"""


# Display names live beside the players (erasable), never in events or read models.
NAMES = "SELECT player_id, display_name FROM player_names WHERE player_id = ANY($1::text[])"


async def open_matches(pool: asyncpg.Pool, game: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
    """The lobby, each seated player with his display `name` (None once erased): one query for
    the page instead of one request per player from every client."""
    rows = await _fetch(pool, LOBBY, game, limit)
    out = [{"match_id": _match_id(r["match_id"]), "game": r["game"], "options": _jsonb(r["options"]),
            "seats": _jsonb(r["seats"]), "free_seats": r["free_seats"],
            "created_at": r["created_at"].isoformat()} for r in rows]
    holders = [h for m in out for h in (m["seats"] or {}).values() if isinstance(h, dict) and h.get("player_id")]
    if holders:
        names = {r["player_id"]: r["display_name"]
                 for r in await _fetch(pool, NAMES, sorted({h["player_id"] for h in holders}))}
        for holder in holders:
            holder["name"] = names.get(holder["player_id"])
    return out


# Seats are {"N": {"kind": "player", "player_id": ...} | null, ...}; a player's matches
# are the rows with one seat naming them.
SUMMARIES = """
SELECT match_id, game, options, seats, status, score, deals, winner, version, created_at, updated_at
FROM match_summaries
WHERE ($1::text IS NULL OR status = $1)
  AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM jsonb_each(seats) s WHERE s.value->>'player_id' = $2))
ORDER BY updated_at DESC NULLS LAST LIMIT $3
"""


def _summary(r: asyncpg.Record) -> dict[str, Any]:
    return {"match_id": _match_id(r["match_id"]), "game": r["game"], "options": _jsonb(r["options"]),
            "seats": _jsonb(r["seats"]), "status": r["status"], "score": _jsonb(r["score"]), "deals": r["deals"],
            "winner": r["winner"], "version": r["version"],
            "created_at": r["created_at"].isoformat() if r["created_at"] else None,
            "updated_at": r["updated_at"].isoformat() if r["updated_at"] else None}


async def matches_by_status(pool: asyncpg.Pool, status: str, limit: int = 50) -> list[dict[str, Any]]:
    return [_summary(r) for r in await _fetch(pool, SUMMARIES, status, None, limit)]


async def my_matches(pool: asyncpg.Pool, player_id: str, status: str | None = None,
                     limit: int = 50) -> list[dict[str, Any]]:
    return [_summary(r) for r in await _fetch(pool, SUMMARIES, status, player_id, limit)]
