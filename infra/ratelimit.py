"""Requests per caller per window, counted in Redis so every API process shares the count.

A fixed window (one INCR, and an EXPIRE on the window's first request, in one script: one
round trip, one command) is enough here: its
known weakness, a burst of up to twice the limit across a window boundary, is harmless
for a card table, and it keeps the per-request cost to one Redis call. Keys are
`<prefix>:ratelimit:<who>:<window number>` and expire on their own.

Callers are counted by token (its hash prefix, never the token itself); requests without
a token (registration) by client address. Registration has a second, slower count of its
own per address (`services.http.ratelimit.registration_limited`): the general limit lets one address make hundreds
of accounts a minute, and fresh accounts are what rating farming needs. When Redis does not answer, requests are let
through and a warning is logged: the limiter protects the service, it must not be the
thing that takes it down.
"""

from __future__ import annotations

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
# every request (~7% of the API's CPU per action in bench/api.py's profile).
COUNT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
"""


class RateLimiter:
    def __init__(self, redis: Any, prefix: str, limit: RateLimit) -> None:
        self.redis, self.prefix, self.limit = redis, prefix, limit
        self._warned_at = 0.0
        self._count = redis.register_script(COUNT) if redis is not None else None

    async def hit(self, who: str, limit: RateLimit | None = None) -> float | None:
        """Count one request of `who` against `limit` (this limiter's by default); the
        seconds to wait when over it, else None. Off for every limit when this limiter's is."""
        limit = limit or self.limit
        if self.redis is None or self.limit.requests <= 0 or limit.requests <= 0:
            return None
        now = time.time()
        window = int(now // limit.window)
        key = f"{self.prefix}:ratelimit:{who}:{window}"
        try:
            count = await self._count(keys=[key], args=[math.ceil(limit.window) + 1])
        except Exception as exc:  # fail open, see the module docstring
            if now - self._warned_at > 30:
                log.warning("rate limiter: Redis unavailable (%s); not limiting", exc)
                self._warned_at = now
            return None
        if count <= limit.requests:
            return None
        return (window + 1) * limit.window - now
