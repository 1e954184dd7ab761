"""What the ratings read model answers: leaderboards, a player's ratings with their history,
a player's stats, and the display ratings a tournament seeds by.

Each read tolerates a database where the projector has not yet created its tables (an empty
answer, as for a pool nobody has played rated). Stats fold `rating_matches` rows: a
tournament table's result counts once its round has closed everywhere (`held` cleared), a
private table's never — stats are public and derive only from what is public.
"""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec

from domain import ratings as rules


async def _fetch(pool: Any, sql: str, *args: Any) -> list[Any]:
    try:
        return list(await pool.fetch(sql, *args))
    except asyncpg.UndefinedTableError:   # before the projector has created the tables
        return []


async def display_ratings(pool: Any, name: str, players: list[str]) -> dict[str, float]:
    """The display ratings of `players` in pool `name` (a player never rated there is absent)."""
    rows = await _fetch(pool, "SELECT player_id, rating FROM ratings WHERE pool = $1 AND player_id = ANY($2::text[])",
                        name, players)
    return {r["player_id"]: r["rating"] for r in rows}


async def board(pool: Any, name: str, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
    rows = await _fetch(pool, "SELECT player_id, rating, mu, sigma, games, wins, count(*) OVER () AS total FROM ratings"
                              " WHERE pool = $1 ORDER BY rating DESC, player_id LIMIT $2 OFFSET $3", name, limit, offset)
    total = rows[0]["total"] if rows else int((await _fetch(pool, "SELECT count(*) AS n FROM ratings WHERE pool = $1",
                                                            name) or [{"n": 0}])[0]["n"])
    return [dict(r) for r in rows], total


async def ratings_of(pool: Any, player_id: str) -> list[dict[str, Any]]:
    current = await _fetch(pool, "SELECT pool, rating, mu, sigma, games, wins FROM ratings WHERE player_id = $1"
                                 " ORDER BY pool", player_id)
    history = await _fetch(pool, "SELECT pool, match_id, at, rating, mu, sigma, weight FROM rating_history"
                                 " WHERE player_id = $1 ORDER BY pool, seq", player_id)
    by_pool: dict[str, list[dict[str, Any]]] = {}
    for h in history:
        by_pool.setdefault(h["pool"], []).append({"match_id": h["match_id"], "at": h["at"].isoformat() if h["at"]
                                                  else None, "rating": h["rating"], "mu": h["mu"], "sigma": h["sigma"],
                                                  "weight": h["weight"]})
    return [{"pool": r["pool"], "rating": r["rating"], "mu": r["mu"], "sigma": r["sigma"], "games": r["games"],
             "wins": r["wins"], "provisional": r["games"] < rules.PROVISIONAL_GAMES,
             "history": by_pool.get(r["pool"], [])} for r in current]


async def stats_of(pool: Any, player_id: str) -> list[dict[str, Any]]:
    # A tournament table counts once its round has closed everywhere (`held` cleared), a
    # private table never: stats are public, and derive only from what is public.
    rows = await _fetch(pool, "SELECT pool, rated, seats, status, result, tally FROM rating_matches WHERE status ="
                              " 'finished' AND held IS NULL AND NOT private"
                              " AND EXISTS (SELECT 1 FROM jsonb_each_text(seats) s WHERE s.value = $1)",
                        player_id)
    decode = msgspec.json.Decoder()
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        seats, tally = decode.decode(r["seats"]), decode.decode(r["tally"])
        seat = next(s for s, p in seats.items() if p == player_id)
        side = seat if rules.individual(r["pool"]) else ("NS" if seat in "NS" else "EW")
        s = out.setdefault(r["pool"], {"pool": r["pool"], "matches": 0, "rated": 0, "wins": 0, "deals": 0,
                                       "contracts_taken": 0, "contracts_made": 0, "points": 0})
        s["matches"] += 1
        result = decode.decode(r["result"]) if r["result"] else None
        s["rated"] += 1 if result else 0
        s["wins"] += 1 if tally.get("winner") in (seat, side) else 0
        s["deals"] += tally.get("deals", 0)
        s["contracts_taken"] += tally.get("taken", {}).get(seat, 0)
        s["contracts_made"] += tally.get("made", {}).get(seat, 0)
        s["points"] += tally.get("points", {}).get(side, 0)
    for s in out.values():
        s["made_percent"] = round(100 * s["contracts_made"] / s["contracts_taken"], 1) if s["contracts_taken"] else None
        s["average_points"] = round(s.pop("points") / s["deals"], 2) if s["deals"] else None
    return [out[k] for k in sorted(out)]
