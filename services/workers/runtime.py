"""One event loop and one runtime (pool, store, game service) per worker process.

Celery runs a task as a plain function; the game service is async. Opening a pool per
task would cost a connection each time, so each process keeps one loop and one runtime
for its whole life, opened at its first task — after the prefork, so no connection is ever
shared between processes. The runtime is the composition root's (`services.bootstrap
.open_runtime`, with every feature's after-commit hooks: a bot's commit schedules the next
bot at once); `services.bootstrap.worker_app` puts a `WorkerRuntime` that opens it on the
Celery app (`app.conf.atout_runtime`), where the tasks find it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from celery import Celery

    from services.runtime import Runtime

T = TypeVar("T")
Opener = Callable[[], contextlib.AbstractAsyncContextManager["Runtime"]]


class WorkerRuntime:
    """The loop and runtime of this process, opened by `opener` at the first `run`, opened
    again in a forked child (the parent's are never used across a fork)."""

    def __init__(self, opener: Opener) -> None:
        self._opener = opener
        self._lock = threading.Lock()
        self._pid: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stack: contextlib.AsyncExitStack | None = None
        self._runtime: Runtime | None = None

    def _open(self) -> tuple[asyncio.AbstractEventLoop, Runtime]:
        loop = asyncio.new_event_loop()
        stack = contextlib.AsyncExitStack()
        runtime = loop.run_until_complete(stack.enter_async_context(self._opener()))
        self._pid, self._loop, self._stack, self._runtime = os.getpid(), loop, stack, runtime
        return loop, runtime

    def run(self, job: Callable[[Runtime], Awaitable[T]]) -> T:
        """Run `job(runtime)` to completion on this process's loop."""
        with self._lock:
            if self._pid != os.getpid() or self._loop is None or self._runtime is None:
                loop, runtime = self._open()
            else:
                loop, runtime = self._loop, self._runtime
            return loop.run_until_complete(job(runtime))

    def close(self) -> None:
        with self._lock:
            if self._pid == os.getpid() and self._loop is not None:
                if self._stack is not None:
                    with contextlib.suppress(Exception):
                        self._loop.run_until_complete(self._stack.aclose())
                self._loop.close()
            self._pid = self._loop = self._stack = self._runtime = None


def of(app: Celery) -> WorkerRuntime:
    """The worker runtime `services.bootstrap.worker_app` put on `app`."""
    runtime: Any = app.conf.get("atout_runtime")
    if runtime is None:
        raise RuntimeError("this Celery app has no runtime: build it with services.bootstrap.worker_app")
    return runtime


def run(app: Celery, job: Callable[[Runtime], Awaitable[T]]) -> T:
    return of(app).run(job)
