"""Open live streams follow their caller's token: a revocation, an erasure or a role change
reaches a stream within `every` seconds (the principal cache's lifetime), not at its end.

A stream is checked when it opens; this re-checks every open stream of the process together,
one database read for all of them per period (`PlayerStore.principals`), and hands a stream
whose caller changed to its `on_change`: a revoked token or erased player ends the stream
(close 4401), a role that no longer lets the caller watch ends it (close 4403), anything
else just updates the caller the stream holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

OnChange = Callable[[Any], Awaitable[bool]]   # new principal or None -> keep watching?


@dataclass(eq=False)
class Watched:
    token: str
    principal: Any
    on_change: OnChange


class StreamGuard:
    def __init__(self, resolve: Callable[[list[str]], Awaitable[dict[str, Any]]], every: float = 2.0) -> None:
        self.resolve, self.every = resolve, every
        self._watched: set[Watched] = set()
        self._task: asyncio.Task[None] | None = None

    def watch(self, token: str, principal: Any, on_change: OnChange) -> Watched:
        watched = Watched(token, principal, on_change)
        self._watched.add(watched)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="live-stream-guard")
        return watched

    def forget(self, watched: Watched) -> None:
        self._watched.discard(watched)

    async def check(self) -> None:
        """One pass: resolve every watched token, tell the streams whose caller changed."""
        watched = list(self._watched)
        if not watched:
            return
        fresh = await self.resolve(sorted({w.token for w in watched}))
        for w in watched:
            now = fresh.get(w.token)
            if now == w.principal or w not in self._watched:
                continue
            try:
                keep = await w.on_change(now)
            except Exception:
                log.exception("a live stream's caller changed and the stream could not follow")
                keep = False
            if keep and now is not None:
                w.principal = now
            else:
                self.forget(w)

    async def _run(self) -> None:
        while self._watched:
            await asyncio.sleep(self.every)
            try:
                await self.check()
            except Exception as exc:  # the database is away: streams go on, checked next time
                log.warning("could not re-check live streams' tokens: %s", exc)

    async def close(self) -> None:
        task, self._task = self._task, None
        self._watched.clear()
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
