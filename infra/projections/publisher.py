"""`publisher`: each committed match event, redacted per seat, onto Redis pub/sub.

The publisher is a projection so that it sees events exactly as the read models do:
committed, in log order, never one skipped, and resumable from its checkpoint. For each
event of a `match-<id>` stream it publishes five messages, one per seat (N, E, S, W) and
one for spectators, on `<prefix>:match:<id>:<N|E|S|W|spectator>`. The only way a seat
gets anything is `domain.match.redact` with the match state folded up to that event, so
the publisher keeps a bounded cache of match states and folds them incrementally (a miss
reads the stream's earlier events back from the store).

Delivery is at least once: the messages of a batch are published before the batch's
checkpoint commits, so a crash in between publishes them again; clients dedupe by version.
Events older than `max_age` are not published at all (a projector catching up after an
outage, or a first start on an old log): nobody live is waiting for them, and a client
that misses them reads them from the store, which is what it does on any gap.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import redis.asyncio as aioredis

from domain import match as rules
from domain.cards import Seat
from domain.games import GAME_NAMES, load
from infra.match_registry import registry_for
from infra.projections.base import Change, Projection
from infra.projections.match_states import MatchStates
from infra.store.model import RecordedEvent
from infra.store.postgres import Connection
from infra import streams

log = logging.getLogger(__name__)

STREAM_PREFIX = streams.MATCH
# One EVAL publishes a whole chunk: ~5 µs a message, against ~40 µs through redis-py's
# pipeline (whose Python packing and reply parsing dominate at five messages per event).
PUBLISH_ALL = "for i = 1, #ARGV, 2 do redis.call('PUBLISH', ARGV[i], ARGV[i + 1]) end return #ARGV / 2"
CHUNK = 1000  # messages per EVAL: keeps each script short for Redis's single thread
AUDIENCES: tuple[Seat | None, ...] = (Seat.N, Seat.E, Seat.S, Seat.W, None)

_encode = msgspec.json.Encoder().encode


def audience(seat: Seat | str | None) -> str:
    """The channel suffix of a seat; `None` is the spectators' channel."""
    return "spectator" if seat is None else str(seat)


def match_channel(prefix: str, match_id: str, seat: Seat | str | None) -> str:
    return f"{prefix}:match:{match_id}:{audience(seat)}"


def event_message(version: int, redacted: Any) -> bytes:
    """The live message of one event; `redacted` None (hidden) keeps its version."""
    return _encode({"type": "event", "version": version, "event": redacted})


def snapshot_message(view: rules.MatchView) -> bytes:
    return _encode({"type": "snapshot", "version": view.version, "view": view})


def all_event_types() -> frozenset[str]:
    """Every tag a match stream can hold: the match layer's and each game's."""
    tags = {e.__struct_config__.tag for e in rules.MATCH_EVENTS}
    for name in GAME_NAMES:
        try:
            tags.update(e.__struct_config__.tag for e in load(name).event_types)
        except ImportError:  # a game not written yet
            continue
    return frozenset(tags)


def decode(state: rules.MatchState, recorded: RecordedEvent) -> Any:
    return registry_for(state.game_name or None).decode_recorded(recorded)


def fold(state: rules.MatchState, events: Sequence[RecordedEvent]) -> rules.MatchState:
    for recorded in events:
        state = rules.evolve(state, decode(state, recorded))
    return state


class Publisher(Projection):
    """See the module docstring. `redis_url`/`prefix` default to the process settings, so
    `Publisher()` works in `default_projections()`; a client may be given instead."""

    name = "publisher"
    version = 1
    tables = ()

    def __init__(self, *, redis_url: str | None = None, prefix: str | None = None,
                 client: aioredis.Redis | None = None, cache_size: int = 4096, max_age: float = 60.0) -> None:
        if prefix is None or (client is None and redis_url is None):
            from infra.settings import load_settings

            settings = load_settings()
            prefix = settings.redis_prefix if prefix is None else prefix
            redis_url = redis_url or settings.redis_url
        self.prefix = prefix
        self.redis_url = redis_url
        self._client = client
        self._script: Any = None
        self._warned = False
        self._states = MatchStates(fold, STREAM_PREFIX, cache_size)
        self.max_age = dt.timedelta(seconds=max_age)
        self.event_types = all_event_types()
        self.published = 0  # messages, for tests and the benchmark

    @property
    def client(self) -> aioredis.Redis:
        if self._client is None:
            if not self.redis_url:
                raise RuntimeError("the publisher needs a Redis URL (ATOUT_REDIS_URL)")
            self._client = aioredis.from_url(self.redis_url)
        return self._client

    def create(self, names: Mapping[str, str]) -> list[str]:
        return []  # no tables: its output is Redis; its checkpoint row is all it keeps

    async def apply(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> None:
        oldest = dt.datetime.now(dt.timezone.utc) - self.max_age
        out: list[str | bytes] = []  # channel, message, channel, message, ...
        for recorded, _ in changes:
            if not recorded.stream_id.startswith(STREAM_PREFIX):
                continue
            match_id = recorded.stream_id[len(STREAM_PREFIX):]
            if recorded.recorded_at < oldest:
                self._states.forget(match_id)  # folded again from the store if it wakes up
                continue
            state = await self._states.at(conn, match_id, recorded.stream_version - 1)
            event = decode(state, recorded)
            self._messages(out, match_id, state, recorded.stream_version, event)
            self._states.remember(match_id, rules.evolve(state, event))
        if out and not self.redis_url and self._client is None:
            if not self._warned:
                log.warning("publisher: no Redis configured; live messages are not published")
                self._warned = True  # no Redis, no live client: they all read the store
            return
        if out:
            if self._script is None:
                self._script = self.client.register_script(PUBLISH_ALL)
            for start in range(0, len(out), 2 * CHUNK):
                await self._script(args=out[start:start + 2 * CHUNK])
            self.published += len(out) // 2

    def _messages(self, out: list[str | bytes], match_id: str, state: rules.MatchState, version: int,
                  event: Any) -> None:
        # A public event comes back as the same object for every audience: encode it once.
        # (Compared by identity while the objects are alive, never by a recycled id().)
        done: list[tuple[Any, bytes]] = []
        for seat in AUDIENCES:
            redacted = rules.redact(state, event, seat)
            message = next((m for obj, m in done if obj is redacted), None)
            if message is None:
                message = event_message(version, redacted)
                done.append((redacted, message))
            out += (match_channel(self.prefix, match_id, seat), message)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
