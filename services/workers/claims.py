"""Each bot turn goes to the workers once, whichever scheduler sees it first.

Two schedulers see every turn: the fast path (the process that has just committed) and the
`bot_turns` projection (a little later, from the log). Either alone would be enough most of
the time, and both must stay (the fast path for speed, the projection for what a crash
loses), but sending the turn twice doubles the workers' tasks: the second finds the match
moved on and does nothing, yet it holds a worker slot (prefetch 1) while the next real
turn waits behind it. So before sending a turn a scheduler claims it in Redis — `SET NX`
on (match, version, seat) — and only the claim's winner sends.

Why this is safe: a version is acted on once, so a claim never needs to outlive the time
both schedulers can see the same turn (the projector's lag: seconds); it expires after
`TTL`. A claimer that dies between its claim and its send loses the turn only until the
sweeper, which re-sends overdue turns without claiming. Redis unreachable: every scheduler
sends, as without claims (a duplicate task is harmless, a withheld one is a stalled match).
Takeovers and clock countdowns are not claimed: they are rare, and their later copies
carry a later due time that matters.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import redis
import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

TTL = 120            # seconds: far beyond the projector's lag, far below a match's life


class TurnClaims:
    """`first(turns)`: which (match, version, seat) this process is the first to claim, on a
    synchronous client (a worker); `first_async(turns)` the same on an asyncio client (the
    API's and the projector's event loop, which must not wait on Redis)."""

    def __init__(self, client: redis.Redis | aioredis.Redis, prefix: str) -> None:
        self._client: Any = client
        self._prefix = prefix

    @classmethod
    def connect(cls, redis_url: str, prefix: str) -> TurnClaims:
        return cls(redis.Redis.from_url(redis_url, socket_timeout=1.0, socket_connect_timeout=1.0), prefix)

    @classmethod
    def connect_async(cls, redis_url: str, prefix: str) -> TurnClaims:
        return cls(aioredis.Redis.from_url(redis_url, socket_timeout=1.0, socket_connect_timeout=1.0), prefix)

    def key(self, match_id: str, version: int, seat: str) -> str:
        return f"{self._prefix}:turn:{match_id}:{version}:{seat}"

    def first(self, turns: Sequence[tuple[str, int, str]]) -> list[bool]:
        """One round trip for a whole batch; all True when Redis does not answer."""
        if not turns:
            return []
        try:
            with self._client.pipeline(transaction=False) as pipe:
                self._claim(pipe, turns)
                return [bool(won) for won in pipe.execute()]
        except RedisError as error:
            return _unclaimed(error, turns)

    async def first_async(self, turns: Sequence[tuple[str, int, str]]) -> list[bool]:
        """`first` on an asyncio client."""
        if not turns:
            return []
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                self._claim(pipe, turns)
                return [bool(won) for won in await pipe.execute()]
        except RedisError as error:
            return _unclaimed(error, turns)

    def _claim(self, pipe: Any, turns: Sequence[tuple[str, int, str]]) -> None:
        for match_id, version, seat in turns:
            pipe.set(self.key(match_id, version, seat), 1, nx=True, ex=TTL)

    def close(self) -> None:
        self._client.close()

    async def aclose(self) -> None:
        """The asyncio client's close (`connect_async`)."""
        await self._client.aclose()


def _unclaimed(error: RedisError, turns: Sequence[tuple[str, int, str]]) -> list[bool]:
    log.warning("turn claims unavailable (%s): scheduling without them", type(error).__name__)
    return [True] * len(turns)
