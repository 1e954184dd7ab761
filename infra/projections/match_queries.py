"""What the match routes read from the read models (`lobby`, `match_summaries`).

Each projection owns the SQL that reads its tables (`infra/projections/lobby.py`,
`match_summaries.py`, next to their DDL); this module only puts those reads together for a
route: the lobby with each seated player's display name (one query for the page instead
of one request per player from every client). Read models lag the log by a poll interval
at most: a match just created may take a moment to appear in the lobby, while
`GET /v1/matches/{id}` (from the event store) is always current. A table that does not exist
yet (no projector has run) reads as empty.
"""

from __future__ import annotations

from typing import Any

import asyncpg

from infra.players import PlayerStore
from infra.projections import lobby, match_summaries


async def open_matches(pool: asyncpg.Pool, game: str | None = None, limit: int = 50,
                       before: tuple[Any, str] | None = None) -> list[dict[str, Any]]:
    """The lobby, each seated player with his display `name` (None once erased)."""
    out = await lobby.open_matches(pool, game, limit, before)
    holders = [h for m in out for h in (m["seats"] or {}).values() if isinstance(h, dict) and h.get("player_id")]
    if holders:
        try:
            names = await PlayerStore(pool).names(sorted({h["player_id"] for h in holders}))
        except asyncpg.UndefinedTableError:
            names = {}
        for holder in holders:
            holder["name"] = names.get(holder["player_id"])
    return out


async def matches_by_status(pool: asyncpg.Pool, status: str, limit: int = 50,
                            before: tuple[Any, str] | None = None) -> list[dict[str, Any]]:
    return await match_summaries.summaries(pool, status, None, limit, before)


async def my_matches(pool: asyncpg.Pool, player_id: str, status: str | None = None,
                     limit: int = 50, before: tuple[Any, str] | None = None) -> list[dict[str, Any]]:
    return await match_summaries.summaries(pool, status, player_id, limit, before)
