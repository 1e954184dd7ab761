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

from infra.resp import Subscriber
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


class WakeWire:
    """The same `after_append` hook for a process whose loop serves requests (the API): the
    PUBLISH is written on a connection of its own and the call returns at once, its reply
    read and dropped in the background, so an action waits for no Redis round trip and
    pays a few microseconds instead of a redis-py command. While a wake-up is unanswered
    the later ones are not sent (one is enough for any number of appends, see
    `WakeListener.wait`) but a last one follows its reply, so the projector always hears
    of the newest commit. Without a connection (Redis down, reconnecting) nothing is sent
    and the projector's poll covers it; a reconnect is tried at most every RETRY seconds.
    """

    RETRY = 5.0

    def __init__(self, url: str, prefix: str) -> None:
        self.url, self.channel = url, events_channel(prefix)
        self._wire: Subscriber | None = None
        self._reader: asyncio.Task[None] | None = None
        self._unanswered = 0
        self._owed: bytes | None = None
        self._failed_at = -self.RETRY

    async def __call__(self, result: AppendResult) -> None:
        message = msgspec.json.encode({"stream_id": result.stream_id, "version": result.last_version})
        if self._unanswered:
            self._owed = message
            return
        if self._wire is None:
            self._owed = message
            if self._reader is None and asyncio.get_running_loop().time() - self._failed_at >= self.RETRY:
                self._reader = asyncio.create_task(self._run())
            return
        self._send(message)

    def _send(self, message: bytes) -> None:
        assert self._wire is not None
        self._wire.send("PUBLISH", self.channel, message.decode())
        self._unanswered += 1

    async def _run(self) -> None:
        wire = Subscriber(self.url)
        try:
            await wire.connect()
            self._wire = wire
            if self._owed is not None:
                message, self._owed = self._owed, None
                self._send(message)
            while True:
                replies = len(await wire.frames())   # counted after the wait: sends go on meanwhile
                self._unanswered -= replies
                if self._unanswered <= 0 and self._owed is not None:
                    message, self._owed = self._owed, None
                    self._unanswered = 0
                    self._send(message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("wake-ups not sent (%s); the projector polls", exc)
        finally:
            self._wire, self._reader, self._unanswered = None, None, 0
            self._failed_at = asyncio.get_running_loop().time()
            await wire.close()

    async def close(self) -> None:
        reader = self._reader
        if reader is not None:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


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

    async def wait(self, timeout: float) -> bool:
        """Whether a wake-up came (`timeout` 0: had come) rather than the time running out."""
        await self._connect()
        if self._pubsub is None:
            await asyncio.sleep(timeout)
            return False
        try:
            if await self._pubsub.get_message(timeout=timeout) is not None:
                while await self._pubsub.get_message(timeout=0.0) is not None:
                    pass  # one wake-up is enough for any number of appends
                return True
        except Exception as exc:
            log.warning("lost the Redis wake-up channel (%s); polling", exc)
            await self._drop()
            self._failed_at = asyncio.get_running_loop().time()
        return False

    async def close(self) -> None:
        await self._drop()
