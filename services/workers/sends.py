"""The broker's sends of an async process, in a thread of their own.

kombu publishes synchronously. On an event loop — the API's right after a human's card, the
projector's after a batch — a send holds every other request and projection of that process
for as long as the broker takes to answer: half a millisecond from a healthy Redis beside it,
and for ever from one that stopped answering without closing its connections (a failover, a
partition), which no timeout of kombu's defaults ends. So the async schedulers (the API's
fast path, the `bot_turns` projection, the tournaments' hook) hand their sends to a `Sends`
and go on (the first two make their turn claims on an asyncio Redis client first:
`services.workers.claims`):

* One daemon thread per `Sends`, started by the first send in the process that sends (a
  forked child starts its own), so the sends leave in the order they were made and only one
  thread ever uses the Celery app's connection.
* Fire and forget. What these schedulers send is speed, not safety: the sweeper re-sends
  every overdue turn and moves tournaments on, and a task finding its match moved on does
  nothing. So nothing waits on a send; one that fails is logged and counted.
* Bounded: at most `limit` sends wait; past that a send is dropped and counted, rather than
  the process's memory growing while the broker is away (the sweeper finds the turn).
  The broker's own timeouts (`services.workers.app`) keep a stalled broker from holding the
  thread for longer than a few seconds a send, so the thread goes on once it answers again.

`atout_broker_sends_total{sender,outcome}` counts `sent`, `failed` and `dropped`.
"""

from __future__ import annotations

import functools
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from infra.observability import BROKER_SENDS

log = logging.getLogger(__name__)

LIMIT = 1000        # sends waiting at most: minutes of a busy server's turns
DRAIN = 5.0         # seconds `close` lets the waiting sends leave


class Sends:
    """`submit(send, *args, **kwargs)`: run `send(*args, **kwargs)` on the thread, soon."""

    def __init__(self, sender: str, limit: int = LIMIT) -> None:
        self.sender = sender
        self._limit = limit
        self._lock = threading.Lock()
        self._pid: int | None = None
        self._queue: queue.Queue[Callable[[], Any] | None] = queue.Queue(limit)
        self._thread: threading.Thread | None = None
        self._dropping = False

    def submit(self, send: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
        """Queue the send; False when it was dropped (the queue is full)."""
        self._start()
        try:
            self._queue.put_nowait(functools.partial(send, *args, **kwargs))
            time.sleep(0)
        except queue.Full:
            BROKER_SENDS.labels(self.sender, "dropped").inc()
            if not self._dropping:        # once per run of drops, not once per send
                log.warning("broker sends (%s): %d waiting, dropping sends until the broker answers",
                            self.sender, self._limit)
            self._dropping = True
            return False
        return True

    def close(self, drain: float = DRAIN) -> None:
        """Let the sends already made leave, for at most `drain` seconds."""
        with self._lock:
            thread = self._thread if self._pid == os.getpid() else None
        if thread is None or not thread.is_alive():
            return
        try:
            self._queue.put(None, timeout=drain)
        except queue.Full:
            return                        # the broker is away: what waits is the sweeper's
        thread.join(drain)

    def _start(self) -> None:
        with self._lock:
            if self._pid == os.getpid() and self._thread is not None and self._thread.is_alive():
                return
            if self._pid != os.getpid():  # a forked child: the parent's queue is not ours
                self._queue = queue.Queue(self._limit)
            self._pid = os.getpid()
            self._thread = threading.Thread(target=self._run, name=f"broker-sends-{self.sender}", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            send = self._queue.get()
            if send is None:
                return
            try:
                send()
            except Exception as error:    # the broker's trouble, said without the message
                BROKER_SENDS.labels(self.sender, "failed").inc()
                log.warning("broker sends (%s): a send failed: %s", self.sender, type(error).__name__)
            else:
                BROKER_SENDS.labels(self.sender, "sent").inc()
                self._dropping = False
