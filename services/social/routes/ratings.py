"""Ranked play's routes: leaderboards, a player's ratings with their history, a player's stats.

All three read the `ratings` projection (`infra.projections.ratings`, queried by
`infra.projections.rating_queries`); names come from the players' store, so an erased player keeps his ratings under his id with no name.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import get
from litestar.params import QueryParameter

from domain import ratings as rules
from infra.projections.rating_queries import board, ratings_of, stats_of
from services.http.auth import authenticated
from services.http.errors import ApiError
from services.http.examples import ex
from services.http.ratelimit import rate_limited
from services.http.schemas import BEARER, Caller, Limit, PathStr, Runtime, responses
from services.social.routes.answers import (
    LeaderboardOut,
    PlayerRatingsOut,
    PlayerStatsOut,
)

TAGS = ["ratings"]
PLAYER = [authenticated, rate_limited]
Offset = Annotated[int, QueryParameter(ge=0, le=1_000_000)]
PLAYER_ID = "3f6c1d2e-8a9b-4c5d-9e0f-1a2b3c4d5e6f"
BOARD_EXAMPLE = {"pool": "belote_coinche", "offset": 0, "limit": 50, "total": 2, "entries": [
    {"rank": 1, "player_id": PLAYER_ID, "name": "Camille", "rating": 12.41, "mu": 31.2, "sigma": 6.26, "games": 14,
     "wins": 9, "provisional": False},
    {"rank": 2, "player_id": "6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d", "name": None, "rating": 3.87, "mu": 27.4,
     "sigma": 7.84, "games": 6, "wins": 3, "provisional": True}]}
RATINGS_EXAMPLE = {"player_id": PLAYER_ID, "name": "Camille", "pools": [
    {"pool": "belote_coinche", "rating": 12.41, "mu": 31.2, "sigma": 6.26, "games": 14, "wins": 9,
     "provisional": False, "history": [{"match_id": "8c1e0b7a-2f4d-4e6a-9b3c-5d7e9f1a2b3c", "at":
                                        "2025-05-01T18:09:00+00:00", "rating": 12.41, "mu": 31.2, "sigma": 6.26,
                                        "weight": 1.0}]}]}
STATS_EXAMPLE = {"player_id": PLAYER_ID, "pools": [
    {"pool": "cinch_partnership", "matches": 20, "rated": 12, "wins": 11, "deals": 180, "contracts_taken": 47,
     "contracts_made": 35, "made_percent": 74.5, "average_points": 6.8},
    {"pool": "five_hundred", "matches": 1, "rated": 0, "wins": 0, "deals": 9, "contracts_taken": 0,
     "contracts_made": 0, "made_percent": None, "average_points": 4.11}]}


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
     responses=responses(200, LeaderboardOut, [ex("a coinche leaderboard", BOARD_EXAMPLE)],
                         "One page of the leaderboard", 400, 401, 404, 429))
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
     responses=responses(200, PlayerRatingsOut, [ex("one pool", RATINGS_EXAMPLE)], "The player's ratings", 401, 404,
                         429))
async def player_ratings(player_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    name = await _player(runtime, player_id)
    return {"player_id": player_id, "name": name, "pools": await ratings_of(runtime.pool, player_id)}


@get("/v1/players/{player_id:str}/stats", guards=PLAYER, tags=TAGS, security=BEARER,
     summary="A player's record by pool: matches, wins, contracts taken and made, average points",
     description="Over every finished match the player held a seat in (rated or casual) that is public: a "
                 "tournament table once its round has closed at every table, never a private table. "
                 "`average_points`: his side's score per deal; `made_percent`: contracts he took and made.",
     responses=responses(200, PlayerStatsOut, [ex("one pool", STATS_EXAMPLE)], "The player's stats", 401, 404, 429))
async def player_stats(player_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    await _player(runtime, player_id)
    return {"player_id": player_id, "pools": await stats_of(runtime.pool, player_id)}
