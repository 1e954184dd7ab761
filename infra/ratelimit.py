"""Requests per caller per window, counted in Redis so every API process shares the count.

A fixed window (one INCRBY, and an EXPIRE on the window's first block, in one script: one
round trip, one command) is enough here: its
known weakness, a burst of up to twice the limit across a window boundary, is harmless
for a card table, and it lets a process take a caller's requests in blocks (`RateLimiter`),
so that a steady caller costs a Redis call per block rather than per request. Keys are
`<prefix>:ratelimit:<who>:<window number>` and expire on their own.

Callers are counted by token (its hash prefix, never the token itself); requests without
a token (registration) by client address. Registration has a second, slower count of its
own per address (`services.http.ratelimit.registration_limited`): the general limit lets one address make hundreds
of accounts a minute, and fresh accounts are what rating farming needs. When Redis does not answer, requests are let
through and a warning is logged: the limiter protects the service, it must not be the
thing that takes it down.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import Any

import msgspec

log = logging.getLogger(__name__)


class RateLimit(msgspec.Struct, frozen=True):
    """`requests` per `window` seconds per caller; `requests <= 0` turns limiting off."""

    requests: int = 300
    window: float = 60.0


# One command where a pipeline of INCR and EXPIRE cost redis-py's pipeline machinery on
# every request (~7% of the API's CPU per action in bench/api.py's profile). It takes a
# block of ARGV[2] requests at once; the key's first block sets its time to live.
LEASE = """
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
"""

# A caller's blocks double from 1 up to this share of his limit: the requests a process holds
# unused at a window's end (at most one block per process) are what a caller may be refused
# early when his requests spread over several API processes.
BLOCK_SHARE = 16


class _Held(msgspec.Struct):
    """What this process holds of one caller's window: requests leased and not yet used, the
    next block's size, whether the shared count is spent, and when the window ends."""

    left: int
    block: int
    spent: bool
    ends: float


class RateLimiter:
    """The count is shared through Redis but taken in blocks: a caller's first request of a
    window leases one request, the next lease two, then four, up to a sixteenth of his limit,
    and the requests in hand are let through without asking Redis. The shared count never
    passes the limit (a lease is granted only what is left under it), so no caller ever gets
    more than his limit in a window, over every process together; a steady caller costs one
    round trip per block instead of one per request, and once Redis has said the window is
    spent, this process refuses the rest of it without asking again. The price: a caller spread
    over several processes may be refused up to one block per other process early."""

    def __init__(self, redis: Any, prefix: str, limit: RateLimit) -> None:
        self.redis, self.prefix, self.limit = redis, prefix, limit
        self._warned_at = 0.0
        self._lease = redis.register_script(LEASE) if redis is not None else None
        self._held: dict[str, _Held] = {}
        self._leasing: dict[str, asyncio.Future[None]] = {}   # a caller's lease in flight, by key
        self._swept_at = 0.0

    async def hit(self, who: str, limit: RateLimit | None = None) -> float | None:
        """Count one request of `who` against `limit` (this limiter's by default); the
        seconds to wait when over it, else None. Off for every limit when this limiter's is."""
        limit = limit or self.limit
        if self.redis is None or self.limit.requests <= 0 or limit.requests <= 0:
            return None
        while True:
            now = time.time()
            window = int(now // limit.window)
            key = f"{self.prefix}:ratelimit:{who}:{window}"
            held = self._held.get(key)
            if held is None:
                if now - self._swept_at > 10:
                    self._sweep(now)
                held = self._held[key] = _Held(0, 1, False, (window + 1) * limit.window)
            if held.left > 0:
                held.left -= 1
                return None
            if held.spent:
                return held.ends - now
            leasing = self._leasing.get(key)
            if leasing is None:
                break
            # A lease for this caller is on its way (a browser sends its requests side by
            # side): wait for it and take from what it brings, rather than lease a block of
            # our own each, which would spend the window on requests nobody makes.
            await asyncio.shield(leasing)
        block = held.block
        held.block = min(2 * block, max(1, limit.requests // BLOCK_SHARE))
        done = self._leasing[key] = asyncio.get_running_loop().create_future()
        try:
            count = await self._lease(keys=[key], args=[math.ceil(limit.window) + 1, block])
        except Exception as exc:  # fail open, see the module docstring
            if now - self._warned_at > 30:
                log.warning("rate limiter: Redis unavailable (%s); not limiting", exc)
                self._warned_at = now
            return None
        finally:
            del self._leasing[key]
            done.set_result(None)
        granted = min(block, limit.requests - (count - block))
        if granted <= 0:
            held.spent = True
            return held.ends - now
        held.left += granted - 1
        return None

    def _sweep(self, now: float) -> None:
        self._swept_at = now
        for key in [key for key, held in self._held.items() if held.ends <= now]:
            del self._held[key]
