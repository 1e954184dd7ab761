"""`SharedPresence`: every replica's connections, in Redis, so that a player connected
through any API process counts as connected.

Per seat, a sorted set `<prefix>:presence:<match id>:<seat>` whose members are the replicas
holding a connection to it, each scored with the time its claim runs out. A replica
refreshes its claims every `ttl / 3` seconds; one killed outright (kill -9, a lost node)
stops refreshing, its claims run out after `ttl` and a sweep (every replica runs one; the
scripts are atomic, so the first to see a claim run out is the one to settle it) finds
the seat empty and records the disconnect, dated from the last refresh. The registry set
`<prefix>:presence` lists the seats that have claims, for the sweep. Scripts name keys
beyond KEYS[]: a standalone Redis (or a cluster with one slot for the prefix) is assumed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from typing import Any

from infra.presence import Presence

log = logging.getLogger(__name__)

# KEYS: the seat's set, the registry; ARGV: member, now, claim's end, registry entry.
# 1 when the seat had no live claim before this one (nor this replica's own, still live).
CLAIM = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local had = redis.call('ZSCORE', KEYS[1], ARGV[1])
local others = redis.call('ZCARD', KEYS[1])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('EXPIRE', KEYS[1], 86400)
redis.call('SADD', KEYS[2], ARGV[4])
if (not had) and others == 0 then return 1 end
return 0
"""

# KEYS: the seat's set, the registry; ARGV: member, now, registry entry. 1 when the seat is now empty.
RELEASE = """
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[3])
  return 1
end
return 0
"""

# KEYS: the registry; ARGV: now, the seats' key prefix. [entry, last claim's end, ...] of the
# seats whose last claims ran out now (each returned to one sweep only).
SWEEP = """
local gone = {}
for _, entry in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[2] .. entry
  local ended = redis.call('ZRANGEBYSCORE', key, '-inf', ARGV[1], 'WITHSCORES')
  if #ended > 0 then redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1]) end
  if redis.call('ZCARD', key) == 0 then
    redis.call('SREM', KEYS[1], entry)
    if #ended > 0 then
      table.insert(gone, entry)
      table.insert(gone, ended[#ended])
    end
  end
end
return gone
"""

SEP = "|"
REFRESH_BATCH = 500     # claims sent in one pipeline


class SharedPresence(Presence):
    """Presence across replicas (see the module docstring); `start` runs the refresh and
    sweep loop, `close` releases this replica's claims (a graceful stop)."""

    def __init__(self, redis: Any, prefix: str, store: Any, *, ttl: float = 15.0, timeout: float = 5.0) -> None:
        super().__init__(timeout)
        self.redis, self.store, self.ttl = redis, store, ttl
        self.member = uuid.uuid4().hex
        self.registry = f"{prefix}:presence"
        self.keys = f"{prefix}:presence:"
        self._claim = redis.register_script(CLAIM)
        self._release = redis.register_script(RELEASE)
        self._sweep = redis.register_script(SWEEP)
        self._loop: asyncio.Task[None] | None = None

    def _key(self, match_id: str, seat: str) -> tuple[str, str]:
        entry = f"{match_id}{SEP}{seat}"
        return self.keys + entry, entry

    async def _opened(self, match_id: str, seat: str) -> None:
        key, entry = self._key(match_id, seat)
        now = time.time()
        await self._claim(keys=[key, self.registry], args=[self.member, now, now + self.ttl, entry])

    async def _closed(self, match_id: str, seat: str) -> None:
        key, entry = self._key(match_id, seat)
        await self._release(keys=[key, self.registry], args=[self.member, time.time(), entry])

    async def is_present(self, match_id: str, seat: str) -> bool:
        key, _ = self._key(match_id, seat)
        return bool(await self.redis.zcount(key, f"({time.time()}", "+inf"))

    async def refresh(self) -> None:
        """Extend this replica's claims; a seat whose claim had run out (and was swept as
        gone) is connected again."""
        now = time.time()
        seats = list(self.open)
        for start in range(0, len(seats), REFRESH_BATCH):   # one round trip per batch, not per seat
            batch = seats[start:start + REFRESH_BATCH]
            pipe = self.redis.pipeline(transaction=False)
            for match_id, seat in batch:
                key, entry = self._key(match_id, seat)
                await self._claim(keys=[key, self.registry], args=[self.member, now, now + self.ttl, entry],
                                  client=pipe)
            for (match_id, seat), reclaimed in zip(batch, await pipe.execute()):
                if reclaimed:
                    self._settle(self.store, match_id, seat)

    async def sweep(self) -> int:
        """Settle the seats whose last claims ran out (a replica that died); how many."""
        gone = await self._sweep(keys=[self.registry], args=[time.time(), self.keys])
        for i in range(0, len(gone), 2):
            entry = gone[i].decode() if isinstance(gone[i], bytes) else str(gone[i])
            match_id, _, seat = entry.rpartition(SEP)
            self._settle(self.store, match_id, seat, at=float(gone[i + 1]) - self.ttl)
        return len(gone) // 2

    async def start(self) -> None:
        async def beat() -> None:
            while True:
                await asyncio.sleep(self.ttl / 3)
                try:
                    await self.refresh()
                    await self.sweep()
                except Exception:            # Redis away for a moment: the next beat tries again
                    log.exception("could not refresh or sweep presence")

        self._loop = asyncio.get_running_loop().create_task(beat())

    async def close(self) -> None:
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop
        await self.flush()
