"""Presence: whether a seated player has a live connection (WebSocket or stream) to a match.

A disconnect is not a rule, so it never goes into the match stream (it would bump the
version players act on): each match has its own `presence-<match id>` stream of
`seat_connected` / `seat_disconnected` events (`{"seat", "at"}`, `at` in epoch seconds).
`Presence` counts one process's live connections per seat and records the first one
opened and the last one closed; the `bot_turns` projection folds the stream, and a
seat disconnected longer than ATOUT_DISCONNECT_GRACE is played by the `basic` bot
(`by: "takeover"`) until the player is back (docs/bots.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import Counter
from collections.abc import Iterable
from typing import Any

import msgspec

from infra.store import ConcurrencyError, NewEvent
from infra import streams

log = logging.getLogger(__name__)

PRESENCE_PREFIX = streams.PRESENCE
SEAT_CONNECTED = "seat_connected"
SEAT_DISCONNECTED = "seat_disconnected"
PRESENCE_EVENTS = frozenset({SEAT_CONNECTED, SEAT_DISCONNECTED})


def fold_away(away: dict[str, float], event_type: str, data: dict[str, Any]) -> dict[str, float]:
    """{seat: disconnected since (epoch)} after one presence event."""
    seat = str(data["seat"])
    if event_type == SEAT_DISCONNECTED:
        return {**away, seat: float(data["at"])}
    return {k: v for k, v in away.items() if k != seat}


async def record(store: Any, match_id: str, seat: str, event_type: str, at: float | None = None) -> None:
    """Append one presence event (at whatever version the stream is)."""
    stream = PRESENCE_PREFIX + match_id
    body = msgspec.json.encode({"seat": seat, "at": time.time() if at is None else at})
    for _ in range(5):
        version = len(await store.read_stream(stream, 0))
        try:
            await store.append(stream, version, [NewEvent(type=event_type, data=body)], command_id=uuid.uuid4())
            return
        except ConcurrencyError:
            continue
    log.warning("could not record %s of %s in %s", event_type, seat, match_id)


async def away(store: Any, match_id: str) -> dict[str, float]:
    """The seats of a match whose player is disconnected, and since when."""
    out: dict[str, float] = {}
    for recorded in await store.read_stream(PRESENCE_PREFIX + match_id, 0):
        if recorded.type in PRESENCE_EVENTS:
            out = fold_away(out, recorded.type, msgspec.json.decode(recorded.data))
    return out


class Presence:
    """One process's live connections per (match, seat). Recording is in the background
    (never awaited by a closing connection: a slow or locked store must not hold up a
    disconnect or a shutdown), in order per seat, each write given `timeout` seconds."""

    def __init__(self, timeout: float = 5.0) -> None:
        self.open: Counter[tuple[str, str]] = Counter()
        self.timeout = timeout
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def connected(self, store: Any, match_id: str, seats: Iterable[str]) -> None:
        for seat in seats:
            self.open[(match_id, seat)] += 1
            if self.open[(match_id, seat)] == 1:
                self._record(store, match_id, seat, SEAT_CONNECTED)

    async def disconnected(self, store: Any, match_id: str, seats: Iterable[str]) -> None:
        for seat in seats:
            key = (match_id, seat)
            self.open[key] -= 1
            if self.open[key] <= 0:
                del self.open[key]
                self._record(store, match_id, seat, SEAT_DISCONNECTED)

    async def flush(self) -> None:
        """Wait for the writes under way (tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _record(self, store: Any, match_id: str, seat: str, event_type: str) -> None:
        key = (match_id, seat)
        lock = self._locks.setdefault(key, asyncio.Lock())

        async def write() -> None:
            try:
                async with lock:          # FIFO: the seat's events land in the order they happened
                    await asyncio.wait_for(record(store, match_id, seat, event_type), self.timeout)
            except Exception:             # presence must never break a live connection
                log.exception("could not record %s of %s in %s", event_type, seat, match_id)
            finally:
                if not lock.locked() and not lock._waiters:     # type: ignore[attr-defined]
                    self._locks.pop(key, None)

        task = asyncio.get_running_loop().create_task(write())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


PRESENCE = Presence()
