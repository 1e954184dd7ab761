"""Per API process: one Redis pub/sub connection, fanned out in memory to live clients.

`infra.live_session.LiveSession` is one client's stream on top of it (snapshot, store
backlog, live events); `infra.resp.Subscriber` is the Redis connection.

A process holds one `Fanout`. The first client of a (match, audience) subscribes its
channel (see `infra.projections.publisher.match_channel`); the last one to leave
unsubscribes it, so a process only receives what its own clients watch. Each message is
parsed once (for its version) and appended to every client's bounded queue: the reader
never waits for a client. A client whose queue is full is dropped, not waited for: its
stream ends, the drop is counted, and it resyncs by reconnecting with `after=`. One slow
phone must not delay a thousand others, nor grow this process's memory without bound.

`subscribe` returns only once Redis has confirmed the subscription, so a caller that
reads the store afterwards cannot miss an event between the two: whatever commits after
its read is published after the subscription. If the Redis connection breaks, every
client is dropped (they may have missed messages) and the reader reconnects.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable
from typing import Any

import msgspec

from domain.cards import Seat
from infra.projections.publisher import match_channel
from infra.resp import Subscriber

log = logging.getLogger(__name__)


class _Tag(msgspec.Struct):
    type: str = ""


class Envelope(msgspec.Struct):
    """What the fan-out reads of a message: its version and its event's type."""

    version: int | None = None
    event: _Tag | None = None


envelope = msgspec.json.Decoder(Envelope).decode


class Dropped(Exception):
    """The client fell behind (or the Redis connection broke): it must resync."""


class Client:
    """One live stream's inbox: (version, message bytes) in publish order."""

    __slots__ = ("channel", "limit", "_items", "_wake", "dropped", "on_drop")

    def __init__(self, channel: str, limit: int) -> None:
        self.channel, self.limit = channel, limit
        self._items: collections.deque[tuple[int, bytes]] = collections.deque()
        self._wake = asyncio.Event()
        self.dropped: str | None = None
        self.on_drop: Callable[[str], None] | None = None  # e.g. count it, stop a stuck sender

    def push(self, item: tuple[int, bytes]) -> bool:
        if len(self._items) >= self.limit:
            return False
        self._items.append(item)
        self._wake.set()
        return True

    def drop(self, reason: str) -> None:
        self.dropped = reason
        self._items.clear()
        self._wake.set()
        if self.on_drop is not None:
            self.on_drop(reason)

    async def get(self) -> tuple[int, bytes]:
        while not self._items:
            if self.dropped:
                raise Dropped(self.dropped)
            self._wake.clear()
            await self._wake.wait()
        if self.dropped:
            raise Dropped(self.dropped)
        return self._items.popleft()

    async def get_or_tick(self, keepalive: float | None) -> tuple[int, bytes] | None:
        """The next message, or None once `keepalive` seconds pass without one (a stream's
        keep-alive tick); without `keepalive`, waits as long as it takes."""
        if keepalive is None:
            return await self.get()
        try:
            async with asyncio.timeout(keepalive):
                return await self.get()
        except TimeoutError:
            return None


class Fanout:
    def __init__(self, redis_url: str, prefix: str, *, queue_size: int = 256) -> None:
        self.redis_url, self.prefix = redis_url, prefix
        self.queue_size = queue_size
        self._redis: Subscriber | None = None
        self._reader: asyncio.Task | None = None
        self._channels: dict[str, set[Client]] = {}
        self._outstanding: collections.Counter[str] = collections.Counter()  # unconfirmed (un)subscribes
        self._ready: dict[str, asyncio.Event] = {}
        self._lock = asyncio.Lock()
        self.received = 0
        self.drops = 0

    @property
    def clients(self) -> int:
        return sum(len(c) for c in self._channels.values())

    async def _start(self) -> Subscriber:
        if self._redis is None or self._reader is None or self._reader.done():
            self._redis = Subscriber(self.redis_url)
            await self._redis.connect()
            self._reader = asyncio.create_task(self._read(self._redis), name="fanout-reader")
        return self._redis

    async def subscribe(self, match_id: str, seat: Seat | str | None) -> Client:
        """A new client of the channel of `seat` (None: spectators), once Redis confirms."""
        return await self.subscribe_channel(match_channel(self.prefix, match_id, seat))

    async def subscribe_channel(self, channel: str) -> Client:
        """A new client of any channel whose messages carry a `version` (a match audience's,
        a player's account stream), once Redis confirms."""
        client = Client(channel, self.queue_size)
        async with self._lock:
            redis = await self._start()
            members = self._channels.get(channel)
            if members is None:
                self._channels[channel] = members = set()
                self._ready[channel] = asyncio.Event()
                self._outstanding[channel] += 1
                redis.send("SUBSCRIBE", channel)
            members.add(client)
            ready = self._ready[channel]
        try:
            await asyncio.wait_for(ready.wait(), timeout=10.0)
        except BaseException:
            await self.unsubscribe(client)
            raise
        if client.dropped:
            raise Dropped(client.dropped)
        return client

    async def unsubscribe(self, client: Client) -> None:
        async with self._lock:
            members = self._channels.get(client.channel)
            if members is None or client not in members:
                return
            members.discard(client)
            if not members:
                del self._channels[client.channel]
                self._ready.pop(client.channel, None)
                if self._redis is not None and self._redis.writer is not None:
                    self._outstanding[client.channel] += 1
                    self._redis.send("UNSUBSCRIBE", client.channel)

    def _drop(self, client: Client, reason: str) -> None:
        if not client.dropped:
            client.drop(reason)
            self.drops += 1

    async def _read(self, redis: Subscriber) -> None:
        try:
            while True:
                for frame in await redis.frames():
                    self._dispatch(frame)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("fan-out lost Redis (%s); dropping %d clients", exc, self.clients)
            self._reset()
            await redis.close()

    def _dispatch(self, frame: list[Any]) -> None:
        kind, channel = frame[0], frame[1].decode()
        if kind == b"message":
            members = self._channels.get(channel)
            if not members:
                return
            data = frame[2]
            item = (envelope(data).version or 0, data)
            self.received += 1
            for client in list(members):
                if not client.push(item):
                    self._drop(client, "slow_consumer")
        elif kind in (b"subscribe", b"unsubscribe"):
            self._outstanding[channel] -= 1
            if self._outstanding[channel] <= 0:
                del self._outstanding[channel]
                if channel in self._ready:
                    self._ready[channel].set()

    def _reset(self) -> None:
        """After a broken connection: drop every client (waking any waiting subscriber)."""
        for channel, members in self._channels.items():
            for client in members:
                self._drop(client, "redis_lost")
            self._ready[channel].set()
        self._channels.clear()
        self._ready.clear()
        self._outstanding.clear()

    async def close(self) -> None:
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
        self._reset()
        if self._redis is not None:
            await self._redis.close()
            self._redis = None


# --- one client's stream -------------------------------------------------------------------------
