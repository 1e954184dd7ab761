"""Who is playing: counts only, never a name (`GET /v1/quickplay/stats`).

- **online**: players with a live account stream open (`GET /v1/stream/me` or its
  WebSocket) through any API process. Every process subscribes one Redis channel per open
  account (`<prefix>:account:<player id>`), so `PUBSUB CHANNELS` over that pattern counts
  them across replicas, exactly, with no bookkeeping of our own. A player who only polls
  the REST routes is not counted: he cannot be told he is seated either.
- **queues**: the players waiting in each queue (a partnership counts two; a player
  waiting for his partner to join counts one), by its game, options, rated and clock.
- **tables**: matches being played now, by way of playing (rating pool), from the match
  summaries (within the projector's poll).

The answer is computed at most once per `CACHE_SECONDS` for every process (kept in Redis),
so polling it costs one Redis read.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

import asyncpg
import msgspec

from domain import ratings
from domain.game import RuleViolation
from services.runtime import Runtime

CACHE_SECONDS = 5


async def stats(rt: Runtime) -> dict[str, Any]:
    key = f"{rt.settings.redis_prefix}:quickplay:stats"
    if rt.redis is not None:
        cached = await rt.redis.get(key)
        if cached:
            return msgspec.json.decode(cached)
    answer = await _count(rt)
    if rt.redis is not None:
        await rt.redis.set(key, msgspec.json.encode(answer), ex=CACHE_SECONDS)
    return answer


async def _count(rt: Runtime) -> dict[str, Any]:
    online = 0
    if rt.redis is not None:
        online = len(await rt.redis.pubsub_channels(f"{rt.settings.redis_prefix}:account:*"))
    queues = [{"game": r["game"], "options": _decoded(r["options"]), "pool": r["pool"], "rated": r["rated"],
               "clock": _decoded(r["clock"]), "waiting": int(r["waiting"])}
              for r in await _fetch(rt.pool, "SELECT game, options, pool, rated, clock, sum(cardinality(players)) "
                                             "AS waiting FROM quickplay_entries WHERE status IN ('waiting', 'partner') "
                                             "GROUP BY queue, game, options, pool, rated, clock ORDER BY waiting DESC")]
    tables: Counter[str] = Counter()
    for r in await _fetch(rt.pool, "SELECT game, options->>'variant' AS variant, options->>'mode' AS mode, count(*) AS n "
                                   "FROM match_summaries WHERE status = 'playing' GROUP BY 1, 2, 3"):
        options = {k: r[k] for k in ("variant", "mode") if r[k] is not None}
        try:
            tables[ratings.pool_of(r["game"], options)] += int(r["n"])
        except RuleViolation:
            continue                                  # a game this server no longer knows
    return {"online": online, "queues": queues,
            "tables": [{"pool": pool, "playing": tables.get(pool, 0)} for pool in ratings.POOLS],
            "at": dt.datetime.now(dt.timezone.utc).isoformat(), "cached_for": CACHE_SECONDS}


async def _fetch(pool: Any, sql: str) -> list[Any]:
    try:
        return list(await pool.fetch(sql))
    except asyncpg.UndefinedTableError:
        return []


def _decoded(value: Any) -> Any:
    return msgspec.json.decode(value) if isinstance(value, (bytes, str)) else value
