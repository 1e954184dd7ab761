"""One event loop and one runtime (pool, store, game service) per worker process.

Celery runs a task as a plain function; the game service is async. Opening a pool per
task would cost a connection each time, so each process keeps one loop and one runtime
(`services.bootstrap.open_runtime`, the same composition as the API: the store's
after-commit hooks wake the projector) for its whole life, opened at its first task —
after the prefork, so no connection is ever shared between processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from infra.settings import Settings, load_settings

T = TypeVar("T")

_lock = threading.Lock()
_state: dict[str, Any] = {}


def _open(settings: Settings) -> tuple[asyncio.AbstractEventLoop, Any]:
    from services.bootstrap import open_runtime

    loop = asyncio.new_event_loop()
    stack = contextlib.AsyncExitStack()
    runtime = loop.run_until_complete(stack.enter_async_context(open_runtime(settings, pool_size=2)))
    from services.workers import fastpath

    fastpath.bind(runtime.matches, settings)          # a bot's commit schedules the next bot
    stack.callback(fastpath.unbind)
    _state.update(loop=loop, stack=stack, runtime=runtime, pid=_pid())
    return loop, runtime


def _pid() -> int:
    import os

    return os.getpid()


def run(job: Callable[[Any], Awaitable[T]], settings: Settings | None = None) -> T:
    """Run `job(runtime)` to completion on this process's loop."""
    with _lock:
        if _state.get("pid") != _pid():
            _state.clear()
            loop, runtime = _open(settings or load_settings())
        else:
            loop, runtime = _state["loop"], _state["runtime"]
        return loop.run_until_complete(job(runtime))


def close() -> None:
    with _lock:
        if _state.get("pid") == _pid():
            loop = _state["loop"]
            with contextlib.suppress(Exception):
                loop.run_until_complete(_state["stack"].aclose())
            loop.close()
        _state.clear()
