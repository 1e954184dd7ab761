"""The projector process: keep every projection caught up with the log.

One projector runs at a time for a given set of projections: it holds a session advisory
lock (keyed by the set's names) for its whole life, and a second one (a rolling deploy, a
stand-by replica) waits on that lock and takes over when the first one's connection goes
away. Correctness does not depend on this lock, each batch takes its projection's own
lock; it only keeps two processes from doing the same work.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Sequence

from infra.projections.base import Projection
from infra.projections.rebuild import rebuild
from infra.projections.runner import ProjectionRunner
from infra.projections.wake import WakeListener

log = logging.getLogger(__name__)

PROJECTOR_LOCK = 0x706A7472  # 'pjtr'
# How soon to look again while events wait behind an open transaction: the first look, and
# the longest gap the looks back off to (the poll interval when that is shorter).
HELD_FIRST, HELD_LAST = 0.025, 0.5


class LostLock(RuntimeError):
    """The connection holding the projector lock is gone; another projector may run now."""


async def close_projections(projections: Sequence[Projection]) -> None:
    """Close every projection a projector was built with (`Projection.close`), one failing
    close never keeping the others open."""
    for projection in projections:
        try:
            await projection.close()
        except Exception:
            log.exception("could not close the %s projection", projection.name)


async def run_projector(
    runner: ProjectionRunner,
    projections: Sequence[Projection],
    *,
    redis_url: str | None = None,
    redis_prefix: str = "atout",
    poll_interval: float = 0.5,
    batch_delay: float = 0.0,
    stop: asyncio.Event | None = None,
) -> None:
    """Tail the log into `projections` until `stop` is set, each at most once every
    `batch_delay` seconds (`ATOUT_PROJECTOR_DELAY`; a projection's own `catch_up_delay`
    when longer): a delay trades the read models' freshness for fewer, larger batches.

    A projection whose stored version differs from its code's is rebuilt first (the
    previous tables keep serving until the swap).
    """
    stop = stop or asyncio.Event()
    pool = runner.store.pool
    names = ",".join(sorted(p.name for p in projections))
    async with pool.acquire() as lock_conn:
        log.info("projector waiting for the projector lock")
        await lock_conn.execute("SELECT pg_advisory_lock($1, hashtext($2))", PROJECTOR_LOCK, names)
        log.info("projector running: %s", ", ".join(p.name for p in projections))
        wake = WakeListener(redis_url, redis_prefix)
        try:
            for projection in projections:
                await runner.ensure(projection)
                if await runner.stored_version(projection) != projection.version:
                    log.info("rebuilding %s for version %s", projection.name, projection.version)
                    await rebuild(runner, projection)
            loop = asyncio.get_running_loop()
            ran: dict[str, float] = {}  # when each projection last caught up
            held = 0.0  # while events wait behind an open transaction: how soon to look again
            while not stop.is_set():
                if lock_conn.is_closed():
                    raise LostLock("the projector lock connection closed")
                now, wait_for = loop.time(), poll_interval
                for projection in projections:
                    due = ran.get(projection.name, -math.inf) + max(projection.catch_up_delay, batch_delay)
                    if now < due:  # it lags on purpose: come back when it is due
                        wait_for = min(wait_for, due - now)
                        continue
                    count = await runner.catch_up(projection, stop)
                    ran[projection.name] = loop.time()
                    if count:
                        log.debug("%s: applied %d events", projection.name, count)
                if await wake.wait(0.0):  # appends came in meanwhile: another round at once
                    continue
                # Events held back by an open transaction had their wake-ups when they committed,
                # before they could be read: without a look soon after, they would wait for the
                # next append or the next poll. The looks back off while the transaction stays
                # open. (Asked only when no wake-up is pending, so a busy log pays nothing.)
                held = min(max(2 * held, HELD_FIRST), HELD_LAST) if await runner.store.held_back() else 0.0
                if held:
                    wait_for = min(wait_for, held)
                waiter = asyncio.create_task(wake.wait(wait_for))
                stopper = asyncio.create_task(stop.wait())
                await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                for task in (waiter, stopper):
                    task.cancel()
        finally:
            await wake.close()
            if not lock_conn.is_closed():
                await lock_conn.execute("SELECT pg_advisory_unlock($1, hashtext($2))", PROJECTOR_LOCK, names)
