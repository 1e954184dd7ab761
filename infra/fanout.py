"""Per API process: one Redis pub/sub connection, fanned out in memory to live clients.

`LiveSession` is one client's stream on top of it (snapshot, store backlog, live events).

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
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec

from domain import match as rules
from domain.cards import Seat
from infra.projections.publisher import decode, event_message, fold, match_channel, snapshot_message
from infra.store import PostgresEventStore
from infra.presence import PRESENCE

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


class Subscriber:
    """A bare RESP2 pub/sub connection: SUBSCRIBE/UNSUBSCRIBE out, push frames in.

    redis-py's PubSub spends ~60 µs of Python per message; with every seat of every table
    on a socket that is the fan-out's largest cost, so this reads whole socket chunks and
    parses every complete frame in them at once (~10 µs per message)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self._buffer = bytearray()

    async def connect(self) -> None:
        from redis.asyncio.connection import SSLConnection, parse_url

        options = parse_url(self.url)
        if "path" in options:
            self.reader, self.writer = await asyncio.open_unix_connection(options["path"])
        else:
            tls = options.get("connection_class") is SSLConnection
            self.reader, self.writer = await asyncio.open_connection(options["host"], options.get("port", 6379),
                                                                     ssl=True if tls else None)
        if options.get("password"):
            self.send("AUTH", *([options["username"]] if options.get("username") else []), options["password"])
            reply = await self.reader.readline()
            if not reply.startswith(b"+"):
                raise ConnectionError(f"Redis refused AUTH: {reply.decode(errors='replace').strip()}")

    def send(self, *words: str) -> None:
        assert self.writer is not None
        parts = [b"*%d\r\n" % len(words)]
        for word in words:
            data = word.encode()
            parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
        self.writer.write(b"".join(parts))

    async def frames(self) -> list[list[bytes | int]]:
        """The next complete frames; raises ConnectionError when the connection is gone."""
        assert self.reader is not None
        while True:
            chunk = await self.reader.read(1 << 16)
            if not chunk:
                raise ConnectionError("Redis closed the pub/sub connection")
            self._buffer += chunk
            frames, used = [], 0
            while (parsed := _frame(self._buffer, used)) is not None:
                frame, used = parsed
                frames.append(frame)
            del self._buffer[:used]
            if frames:
                return frames

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
            self.writer = self.reader = None


def _frame(buf: bytearray, pos: int) -> tuple[Any, int] | None:
    """One RESP2 value at `pos` and the position after it, or None while incomplete."""
    end = buf.find(b"\r\n", pos)
    if end < 0:
        return None
    kind, head = buf[pos], bytes(buf[pos + 1:end])
    if kind == 0x2A:  # '*' array
        items, at = [], end + 2
        for _ in range(int(head)):
            parsed = _frame(buf, at)
            if parsed is None:
                return None
            item, at = parsed
            items.append(item)
        return items, at
    if kind == 0x24:  # '$' bulk string
        start = end + 2
        stop = start + int(head)
        return (bytes(buf[start:stop]), stop + 2) if len(buf) >= stop + 2 else None
    if kind == 0x3A:  # ':' integer
        return int(head), end + 2
    if kind == 0x2D:  # '-' error
        raise ConnectionError(f"Redis error: {head.decode(errors='replace')}")
    return head, end + 2  # '+' simple string


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
        channel = match_channel(self.prefix, match_id, seat)
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

class Gone(LookupError):
    """No such match."""


class MatchStates:
    """A bounded cache of match states for snapshots: a hit costs one indexed read of the
    events appended since, instead of refolding the whole match for every new stream."""

    def __init__(self, store: PostgresEventStore, size: int = 2048) -> None:
        self.store, self.size = store, size
        self._states: collections.OrderedDict[str, rules.MatchState] = collections.OrderedDict()

    async def load(self, match_id: str) -> rules.MatchState | None:
        state = self._states.get(match_id) or rules.initial()
        recorded = await self.store.read_stream(f"match-{match_id}", state.version)
        if not recorded and state.version == 0:
            return None
        state = fold(state, recorded)
        self.remember(match_id, state)
        return state

    def remember(self, match_id: str, state: rules.MatchState) -> None:
        self._states[match_id] = state
        self._states.move_to_end(match_id)
        while len(self._states) > self.size:
            self._states.popitem(last=False)


def seat_of(state: rules.MatchState, player_id: str | None) -> Seat | None:
    if player_id is not None:
        for seat, holder in state.seats.items():
            if holder is not None and holder.player_id == player_id:
                return Seat(seat)
    return None


class LiveSession:
    """One client's messages (bytes, one JSON document each), in version order: the snapshot
    at the current version V0, the store's events after `after` up to V0, then live ones.

    `open()` subscribes before it reads the store, and live messages at or below the last
    version sent are skipped, so the store and Redis overlap but never leave a hole; a hole
    in live versions (a lost or skipped publish) is filled from the store."""

    def __init__(self, fanout: Fanout, states: MatchStates, match_id: str, player_id: str | None,
                 after: int | None) -> None:
        self.fanout, self.states = fanout, states
        self.match_id, self.player_id, self.after = match_id, player_id, after
        self.seat: Seat | None = None
        self.client: Client | None = None
        self.last = 0
        self.finished = False
        self._first: list[bytes] = []
        self._present: str | None = None     # the seat this session counts as connected

    async def open(self) -> None:
        """Raises Gone for an unknown match."""
        state = await self.states.load(self.match_id)
        if state is None:
            raise Gone(self.match_id)
        self.seat = seat_of(state, self.player_id)
        self.client = await self.fanout.subscribe(self.match_id, self.seat)
        try:
            if self.after is not None and self.after < state.version:
                state, backlog = await self._replay(self.after)
            else:  # what committed between the first read and the subscription
                state, backlog = await self._replay(max(self.after or 0, state.version), state)
                backlog = backlog if self.after is not None else []
            self._first = [snapshot_message(rules.view(state, self.seat)), *backlog]
            self.last = state.version
            self.finished = state.status == "finished"
        except BaseException:
            await self.close()
            raise
        if self.seat is not None and state.status in ("open", "playing"):   # the seat's player is here
            self._present = str(self.seat)
            await PRESENCE.connected(self.states.store, self.match_id, [self._present])

    async def _replay(self, after: int, start: rules.MatchState | None = None
                      ) -> tuple[rules.MatchState, list[bytes]]:
        """The state at the store's version and the messages of the events after `after`,
        each redacted with the state folded up to it (from `start`, else from the start)."""
        state = rules.initial() if start is None else start
        recorded = await self.states.store.read_stream(f"match-{self.match_id}", state.version)
        messages = []
        for r in recorded:
            event = decode(state, r)
            if r.stream_version > after:
                messages.append(event_message(r.stream_version, rules.redact(state, event, self.seat)))
            state = rules.evolve(state, event)
        if recorded:
            self.states.remember(self.match_id, state)
        return state, messages

    async def messages(self, keepalive: float | None = None) -> AsyncIterator[bytes | None]:
        """The messages in order, ending after `match_finished`; None is a keep-alive tick
        (nothing for `keepalive` seconds). Raises Dropped when the client fell behind."""
        assert self.client is not None, "open() first"
        first, self._first = self._first, []
        for message in first:
            yield message
        client = self.client
        while not self.finished:
            try:
                if keepalive is None:
                    version, data = await client.get()
                else:
                    async with asyncio.timeout(keepalive):
                        version, data = await client.get()
            except TimeoutError:
                yield None
                continue
            if version <= self.last:
                continue  # a duplicate (at-least-once delivery) or already sent from the store
            if version > self.last + 1:
                _, missing = await self._replay(self.last)
                for message in missing:
                    self._note(message)
                    yield message
                if version <= self.last:
                    continue
            self._note(data)
            yield data

    def _note(self, message: bytes) -> None:
        seen = envelope(message)
        self.last = seen.version or self.last
        if seen.event is not None and seen.event.type == "match_finished":
            self.finished = True

    async def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            await self.fanout.unsubscribe(client)
        seat, self._present = self._present, None
        if seat is not None:
            await PRESENCE.disconnected(self.states.store, self.match_id, [seat])
