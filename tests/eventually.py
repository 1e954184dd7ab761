"""Waiting for what follows the log: read models catch up after the write that moved them.

One helper for every test that reads a projection after a write: `eventually` polls a check,
`projected` runs the given projections as the projector would before each read. The log is read
below the cluster's xmin horizon, so a transaction open elsewhere on the server may hold the
newest events back a moment: hence a deadline, not one try.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import Any


async def eventually(check: Callable[[], Awaitable[Any]], timeout: float = 10.0, interval: float = 0.05) -> Any:
    """`await check()` until it gives something true, or the time is up: its last answer."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = await check()
        if found or asyncio.get_running_loop().time() > deadline:
            return found
        await asyncio.sleep(interval)


async def projected(runner: Any, projections: Callable[[], Iterable[Any]], read: Callable[[], Awaitable[Any]],
                    check: Callable[[Any], Any], timeout: float = 15.0) -> Any:
    """Run `projections()` on `runner` (as the projector does) and `await read()` until
    `check` holds of what it read, or the time is up: the last value read."""
    last: list[Any] = [None]

    async def step() -> bool:
        for projection in projections():
            await runner.ensure(projection)
            await runner.catch_up(projection)
        last[0] = await read()
        return bool(check(last[0]))

    await eventually(step, timeout, interval=0.1)
    return last[0]
