"""Waking the projector after a commit, through Redis rather than NOTIFY.

A NOTIFY inside the append transaction would serialise every commit on Postgres's global
notification queue lock, which is the very bottleneck the store avoids. So the writer
publishes on `<prefix>:events` after its commit has returned, and the projector also
polls on a short interval: a lost message (Redis down, projector reconnecting) delays a
read model by one poll interval, never loses an event, because the log is the truth.
"""

from __future__ import annotations

import asyncio
import logging

import msgspec
import redis.asyncio as aioredis

from infra.store.model import AppendResult

log = logging.getLogger(__name__)


def events_channel(prefix: str) -> str:
    return f"{prefix}:events"


class WakePublisher:
    """An `after_append` hook for the store: announce the new version of a stream."""

    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.client = client
        self.channel = events_channel(prefix)

    async def __call__(self, result: AppendResult) -> None:
        message = msgspec.json.encode({"stream_id": result.stream_id, "version": result.last_version})
        await self.client.publish(self.channel, message)


class WakeListener:
    """`wait(timeout)` returns at the first message on the channel or after `timeout`.

    Without a Redis URL, or while Redis is unreachable, it is a plain sleep: the
    projector then simply polls.
    """

    def __init__(self, redis_url: str | None, prefix: str) -> None:
        self.redis_url = redis_url
        self.channel = events_channel(prefix)
        self._client: aioredis.Redis | None = None
        self._pubsub = None
        self._failed_at = 0.0

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        if self._pubsub is not None or not self.redis_url or loop.time() - self._failed_at < 5.0:
            return
        try:
            self._client = aioredis.from_url(self.redis_url)
            self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            await self._pubsub.subscribe(self.channel)
        except Exception as exc:
            log.warning("no wake-ups from Redis (%s); polling only", exc)
            await self._drop()
            self._failed_at = loop.time()

    async def _drop(self) -> None:
        pubsub, client, self._pubsub, self._client = self._pubsub, self._client, None, None
        for closable in (pubsub, client):
            if closable is not None:
                try:
                    await closable.aclose()
                except Exception:
                    pass

    async def wait(self, timeout: float) -> None:
        await self._connect()
        if self._pubsub is None:
            await asyncio.sleep(timeout)
            return
        try:
            if await self._pubsub.get_message(timeout=timeout) is not None:
                while await self._pubsub.get_message(timeout=0.0) is not None:
                    pass  # one wake-up is enough for any number of appends
        except Exception as exc:
            log.warning("lost the Redis wake-up channel (%s); polling", exc)
            await self._drop()
            self._failed_at = asyncio.get_running_loop().time()

    async def close(self) -> None:
        await self._drop()
