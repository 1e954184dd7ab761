"""Ranked play's routes: leaderboards, a player's ratings with their history, a player's stats.

All three read the `ratings` projection (`infra.projections.ratings`); names come from the
players' store, so an erased player keeps his ratings under his id with no name.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import get
from litestar.params import QueryParameter

from domain import ratings as rules
from services.http.auth import authenticated
from services.http.errors import ApiError
from services.http.ratelimit import rate_limited
from services.http.schemas import BEARER, Caller, Limit, PathStr, Runtime, ex, responses

TAGS = ["ratings"]
PLAYER = [authenticated, rate_limited]
Offset = Annotated[int, QueryParameter(ge=0, le=1_000_000)]
PLAYER_ID = "3f6c1d2e-8a9b-4c5d-9e0f-1a2b3c4d5e6f"
BOARD_EXAMPLE = {"pool": "belote_coinche", "offset": 0, "limit": 50, "total": 1, "entries": [
    {"rank": 1, "player_id": PLAYER_ID, "name": "Camille", "rating": 12.41, "mu": 31.2, "sigma": 6.26, "games": 14,
     "wins": 9, "provisional": False}]}
RATINGS_EXAMPLE = {"player_id": PLAYER_ID, "name": "Camille", "pools": [
    {"pool": "belote_coinche", "rating": 12.41, "mu": 31.2, "sigma": 6.26, "games": 14, "wins": 9,
     "provisional": False, "history": [{"match_id": "8c1e0b7a-2f4d-4e6a-9b3c-5d7e9f1a2b3c", "at":
                                        "2025-05-01T18:09:00+00:00", "rating": 12.41, "mu": 31.2, "sigma": 6.26,
                                        "weight": 1.0}]}]}
STATS_EXAMPLE = {"player_id": PLAYER_ID, "pools": [
    {"pool": "cinch_partnership", "matches": 20, "rated": 12, "wins": 11, "deals": 180, "contracts_taken": 47,
     "contracts_made": 35, "made_percent": 74.5, "average_points": 6.8}]}


def _pool(pool: str) -> str:
    if pool not in rules.POOLS:
        raise ApiError(404, "unknown_pool", f"no rating pool {pool!r}; pools: {', '.join(rules.POOLS)}",
                       {"pool": pool, "known": list(rules.POOLS)})
    return pool


async def _player(runtime: Any, player_id: str) -> str | None:
    """The player's name (None once erased); 404 for an id nobody ever had."""
    info = await runtime.players.get(player_id)
    if info is None:
        raise ApiError(404, "unknown_player", f"no player {player_id!r}", {"player_id": player_id})
    return (await runtime.players.names([player_id])).get(player_id)


@get("/v1/leaderboards/{pool:str}", guards=PLAYER, tags=TAGS, security=BEARER, summary="A pool's leaderboard",
     description="Players by display rating (mu − 3·sigma), best first; `provisional` until "
                 f"{rules.PROVISIONAL_GAMES} rated matches in the pool. Pools: {', '.join(rules.POOLS)} "
                 "(docs/ratings.md). `offset` and `limit` page it; `total` counts the pool's players.",
     responses=responses(200, dict, [ex("a coinche leaderboard", BOARD_EXAMPLE)], "One page of the leaderboard",
                         400, 401, 404, 429))
async def leaderboard(pool: PathStr, principal: Caller, runtime: Runtime, limit: Limit = 50,
                      offset: Offset = 0) -> dict[str, Any]:
    _pool(pool)
    rows, total = await board(runtime.pool, pool, limit, offset)
    names = await runtime.players.names([r["player_id"] for r in rows])
    entries = [{"rank": offset + i + 1, "player_id": r["player_id"], "name": names.get(r["player_id"]),
                "rating": r["rating"], "mu": r["mu"], "sigma": r["sigma"], "games": r["games"], "wins": r["wins"],
                "provisional": r["games"] < rules.PROVISIONAL_GAMES} for i, r in enumerate(rows)]
    return {"pool": pool, "offset": offset, "limit": limit, "total": total, "entries": entries}


@get("/v1/players/{player_id:str}/ratings", guards=PLAYER, tags=TAGS, security=BEARER,
     summary="A player's rating in every pool he played rated, with its history",
     description="History: one entry per rated match, in match-finish order, the rating after it; `weight` below 1 "
                 "for a repeated match, or for an established player meeting a new account (docs/ratings.md, "
                 "\"Abuse\").",
     responses=responses(200, dict, [ex("one pool", RATINGS_EXAMPLE)], "The player's ratings", 401, 404, 429))
async def player_ratings(player_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    name = await _player(runtime, player_id)
    return {"player_id": player_id, "name": name, "pools": await ratings_of(runtime.pool, player_id)}


@get("/v1/players/{player_id:str}/stats", guards=PLAYER, tags=TAGS, security=BEARER,
     summary="A player's record by pool: matches, wins, contracts taken and made, average points",
     description="Over every finished match the player held a seat in (rated or casual) that is public: a "
                 "tournament table once its round has closed at every table, never a private table. "
                 "`average_points`: his side's score per deal; `made_percent`: contracts he took and made.",
     responses=responses(200, dict, [ex("one pool", STATS_EXAMPLE)], "The player's stats", 401, 404, 429))
async def player_stats(player_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    await _player(runtime, player_id)
    return {"player_id": player_id, "pools": await stats_of(runtime.pool, player_id)}


# --- queries ----------------------------------------------------------------------------------

async def _fetch(pool: Any, sql: str, *args: Any) -> list[Any]:
    import asyncpg

    try:
        return list(await pool.fetch(sql, *args))
    except asyncpg.UndefinedTableError:   # before the projector has created the tables
        return []


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
    import msgspec

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
