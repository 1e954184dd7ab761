"""`social_ties`: who follows and who blocks whom, from the players' `social-<id>` streams.

One row per tie (player, kind, other): `follow` or `block`. The streams are the truth and
their deciders hold the limits (`domain.social`); this table answers the questions other
features ask across players — is X blocked by Y, by anyone at this table; whose tables do I
follow — each in one indexed query. It lags the log by the projector's poll, as every read
model does. Also here: the reads of the lists and of the tables of the players one follows
(`lobby` and `match_summaries` rows, private tables never among them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg

from infra.projections.base import Change, Projection
from infra.projections.match_summaries import jsonb
from infra.store.postgres import Connection
from infra import streams

KINDS = {"player_followed": ("follow", True), "player_unfollowed": ("follow", False),
         "player_blocked": ("block", True), "player_unblocked": ("block", False)}


class SocialTies(Projection):
    name = "social_ties"
    version = 1
    tables = ("social_ties",)
    event_types = frozenset(KINDS)
    catch_up_delay = 0.02

    def create(self, names: Mapping[str, str]) -> list[str]:
        table = names["social_ties"]
        return [f"""CREATE TABLE IF NOT EXISTS {table} (player_id text NOT NULL, kind text NOT NULL,
                    other_id text NOT NULL, since timestamptz NOT NULL, PRIMARY KEY (player_id, kind, other_id))""",
                f"CREATE INDEX IF NOT EXISTS {table}_other_idx ON {table} (other_id, kind)"]

    async def apply(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> None:
        table = names["social_ties"]
        for recorded, data in changes:
            if streams.id_of(streams.SOCIAL, recorded.stream_id) is None:
                continue
            kind, on = KINDS[recorded.type]
            if on:
                await conn.execute(f"INSERT INTO {table} (player_id, kind, other_id, since) VALUES ($1, $2, $3, $4) "
                                   f"ON CONFLICT DO NOTHING", data["by"], kind, data["player_id"],
                                   recorded.recorded_at)
            else:
                await conn.execute(f"DELETE FROM {table} WHERE player_id = $1 AND kind = $2 AND other_id = $3",
                                   data["by"], kind, data["player_id"])


# --- reads ----------------------------------------------------------------------------------

async def _fetch(pool: Any, sql: str, *args: Any) -> list[Any]:
    try:
        return list(await pool.fetch(sql, *args))
    except asyncpg.UndefinedTableError:   # no projector has run yet: nobody follows or blocks anyone
        return []


async def is_blocked(pool: Any, blocker: str, blocked: str) -> bool:
    """Whether `blocker` blocks `blocked` (one direction: blocking is one player's choice)."""
    return bool(await _fetch(pool, "SELECT 1 FROM social_ties WHERE player_id = $1 AND kind = 'block' "
                                   "AND other_id = $2", blocker, blocked))


async def blockers_among(pool: Any, players: Sequence[str], blocked: str) -> list[str]:
    """Those of `players` who block `blocked`."""
    if not players:
        return []
    rows = await _fetch(pool, "SELECT player_id FROM social_ties WHERE player_id = ANY($1::text[]) AND "
                              "kind = 'block' AND other_id = $2", list(players), blocked)
    return sorted(r["player_id"] for r in rows)


async def ties(pool: Any, player_id: str, kind: str, limit: int,
               before: tuple[Any, str] | None = None) -> list[dict[str, Any]]:
    """Whom `player_id` follows (`follow`) or blocks (`block`), newest first, with names."""
    at, key = before or (None, None)
    rows = await _fetch(pool, "SELECT t.other_id, t.since, p.display_name AS name FROM social_ties t "
                              "LEFT JOIN player_names p ON p.player_id = t.other_id "
                              "WHERE t.player_id = $1 AND t.kind = $2 "
                              "AND ($4::timestamptz IS NULL OR (t.since, t.other_id) < ($4, $5)) "
                              "ORDER BY t.since DESC, t.other_id DESC LIMIT $3", player_id, kind, limit, at, key)
    return [{"player_id": r["other_id"], "name": r["name"], "since": r["since"].isoformat()} for r in rows]


OPEN_TABLES = """
SELECT l.match_id, l.game, l.options, l.seats, l.free_seats, l.created_at AS at FROM lobby l
WHERE l.free_seats > 0 AND NOT l.private
  AND EXISTS (SELECT 1 FROM jsonb_each(l.seats) s JOIN social_ties f ON f.other_id = s.value->>'player_id'
              WHERE f.player_id = $1 AND f.kind = 'follow')
  AND NOT EXISTS (SELECT 1 FROM jsonb_each(l.seats) s JOIN social_ties b ON b.player_id = s.value->>'player_id'
                  WHERE b.kind = 'block' AND b.other_id = $1)
  AND ($3::timestamptz IS NULL OR (l.created_at, l.match_id) < ($3, $4))
ORDER BY l.created_at DESC, l.match_id DESC LIMIT $2
"""
PLAYING = """
SELECT m.match_id, m.game, m.options, m.seats, m.status, m.score, m.version, m.updated_at AS at
FROM match_summaries m
WHERE m.status = 'playing' AND m.private IS NOT TRUE
  AND EXISTS (SELECT 1 FROM jsonb_each(m.seats) s JOIN social_ties f ON f.other_id = s.value->>'player_id'
              WHERE f.player_id = $1 AND f.kind = 'follow')
  AND NOT EXISTS (SELECT 1 FROM jsonb_each(m.seats) s JOIN social_ties b ON b.player_id = s.value->>'player_id'
                  WHERE b.kind = 'block' AND b.other_id = $1)
  AND ($3::timestamptz IS NULL OR (m.updated_at, m.match_id) < ($3, $4))
ORDER BY m.updated_at DESC, m.match_id DESC LIMIT $2
"""


async def followed_tables(pool: Any, player_id: str, status: str, limit: int,
                          before: tuple[Any, str] | None = None) -> list[dict[str, Any]]:
    """The tables where a player `player_id` follows sits: `open` ones with a free seat (the
    lobby's rows) or `playing` ones to watch; never a private table, nor one where a player
    who blocks him sits. `at` is the row's sort key (created, or last moved)."""
    at, key = before or (None, None)
    rows = await _fetch(pool, OPEN_TABLES if status == "open" else PLAYING, player_id, limit, at, key)
    out = []
    for r in rows:
        row = {k: jsonb(r[k]) if k in ("options", "seats", "score") else r[k] for k in r.keys()}
        row["match_id"] = row["match_id"].removeprefix(streams.MATCH)
        row["at"] = r["at"].isoformat()
        out.append(row)
    return out
