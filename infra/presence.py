"""Presence: whether a seated player has a live connection (WebSocket or stream) to a match.

A disconnect is not a rule, so it never goes into the match stream (it would bump the
version players act on): each match has its own `presence-<match id>` stream of
`seat_connected` / `seat_disconnected` events (`{"seat", "at"}`, `at` in epoch seconds; a
seat whose turn clock ran out too often in a row is recorded away too, with `"reason":
"clock"`: `services.matches.clocks`).
The `bot_turns` projection folds the stream, and a seat disconnected longer than
ATOUT_DISCONNECT_GRACE is played by the `basic` bot (`by: "takeover"`) until the player
is back (docs/bots.md).

Who is connected is known live elsewhere: `Presence` counts one process's connections,
`SharedPresence` (infra.presence_shared) every replica's, in Redis. Either way the
stream is then *settled*: the seat's last event is compared with the live answer and
the right one appended if they differ, checked again after each write. Settling instead
of recording each transition is what keeps two replicas' writes from landing in the
wrong order (a disconnect through one written after a connect through another).
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

from infra import streams
from infra.store import ConcurrencyError, NewEvent

log = logging.getLogger(__name__)

PRESENCE_PREFIX = streams.PRESENCE
SEAT_CONNECTED = "seat_connected"
SEAT_DISCONNECTED = "seat_disconnected"
PRESENCE_EVENTS = frozenset({SEAT_CONNECTED, SEAT_DISCONNECTED})
SETTLE_ROUNDS = 5


def fold_away(away: dict[str, float], event_type: str, data: dict[str, Any]) -> dict[str, float]:
    """{seat: disconnected since (epoch)} after one presence event."""
    seat = str(data["seat"])
    if event_type == SEAT_DISCONNECTED:
        return {**away, seat: float(data["at"])}
    return {k: v for k, v in away.items() if k != seat}


async def record(store: Any, match_id: str, seat: str, event_type: str, at: float | None = None,
                 reason: str | None = None) -> None:
    """Append one presence event (at whatever version the stream is)."""
    await _append_unless(store, match_id, seat, event_type, at, always=True, reason=reason)


async def _append_unless(store: Any, match_id: str, seat: str, event_type: str, at: float | None,
                         always: bool = False, reason: str | None = None) -> bool:
    """Append `event_type` for `seat` unless it is already the seat's last presence event
    (or `always`); whether it appended."""
    stream = PRESENCE_PREFIX + match_id
    data: dict[str, Any] = {"seat": seat, "at": time.time() if at is None else at}
    if reason is not None:
        data["reason"] = reason
    body = msgspec.json.encode(data)
    for _ in range(5):
        recorded = await store.read_stream(stream, 0)
        if not always and last_of(recorded, seat) == event_type:
            return False
        try:
            await store.append(stream, len(recorded), [NewEvent(type=event_type, data=body)],
                               command_id=uuid.uuid4())
            return True
        except ConcurrencyError:
            continue
    log.warning("could not record %s of %s in %s", event_type, seat, match_id)
    return False


def last_of(recorded: list[Any], seat: str) -> str | None:
    """The seat's last presence event type in a stream's events (None: never recorded)."""
    for event in reversed(recorded):
        if event.type in PRESENCE_EVENTS and str(msgspec.json.decode(event.data)["seat"]) == seat:
            return str(event.type)
    return None


async def away(store: Any, match_id: str) -> dict[str, float]:
    """The seats of a match whose player is disconnected, and since when."""
    out: dict[str, float] = {}
    for recorded in await store.read_stream(PRESENCE_PREFIX + match_id, 0):
        if recorded.type in PRESENCE_EVENTS:
            out = fold_away(out, recorded.type, msgspec.json.decode(recorded.data))
    return out


class Presence:
    """One process's live connections per (match, seat). Settling is in the background
    (never awaited by a closing connection: a slow or locked store must not hold up a
    disconnect or a shutdown), one at a time per seat, each given `timeout` seconds."""

    def __init__(self, timeout: float = 5.0) -> None:
        self.open: Counter[tuple[str, str]] = Counter()
        self.timeout = timeout
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def connected(self, store: Any, match_id: str, seats: Iterable[str]) -> None:
        for seat in seats:
            self.open[(match_id, seat)] += 1
            if self.open[(match_id, seat)] == 1:
                await self._quietly(self._opened(match_id, seat))
                self._settle(store, match_id, seat)

    async def disconnected(self, store: Any, match_id: str, seats: Iterable[str]) -> None:
        for seat in seats:
            key = (match_id, seat)
            self.open[key] -= 1
            if self.open[key] <= 0:
                del self.open[key]
                await self._quietly(self._closed(match_id, seat))
                self._settle(store, match_id, seat)

    async def flush(self) -> None:
        """Wait for the writes under way (tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _quietly(self, step: Any) -> None:
        try:                              # presence must never break a live connection
            await asyncio.wait_for(step, self.timeout)
        except Exception:
            log.exception("could not update presence")

    # --- what a shared presence overrides ----------------------------------------------------

    async def _opened(self, match_id: str, seat: str) -> None:
        """The first of this process's connections to the seat opened."""

    async def _closed(self, match_id: str, seat: str) -> None:
        """The last of this process's connections to the seat closed."""

    async def is_present(self, match_id: str, seat: str) -> bool:
        """Whether the seat's player has a live connection (here: in this process)."""
        return self.open[(match_id, seat)] > 0

    # --- settling the stream -----------------------------------------------------------------

    def _settle(self, store: Any, match_id: str, seat: str, at: float | None = None) -> None:
        key = (match_id, seat)
        lock = self._locks.setdefault(key, asyncio.Lock())

        async def write() -> None:
            try:
                async with lock:          # one settling at a time per seat in this process
                    await asyncio.wait_for(self.settle(store, match_id, seat, at), self.timeout)
            except Exception:             # presence must never break a live connection
                log.exception("could not settle the presence of %s in %s", seat, match_id)
            finally:
                if not lock.locked() and not lock._waiters:     # type: ignore[attr-defined]
                    self._locks.pop(key, None)

        task = asyncio.get_running_loop().create_task(write())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self, store: Any, match_id: str, seat: str, at: float | None = None) -> None:
        """Make the seat's last presence event say what `is_present` says, asking again
        after each write (another replica may have changed it meanwhile)."""
        for _ in range(SETTLE_ROUNDS):
            present = await self.is_present(match_id, seat)
            wanted = SEAT_CONNECTED if present else SEAT_DISCONNECTED
            if not await _append_unless(store, match_id, seat, wanted, None if present else at):
                return


PRESENCE = Presence()
