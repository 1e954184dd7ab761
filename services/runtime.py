"""`Runtime`: everything a request handler, a task or a command needs, opened once per process.

Built by `services.bootstrap.open_runtime` from the features' declarations; the API finds it
on `app.state.runtime` (handlers take it as the `runtime` dependency), a worker keeps one per
process, a CLI command opens one for its run. A type of its own (not the bootstrap's) so that
every layer below the composition root can name it without importing the root.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import redis.asyncio as aioredis

from infra.players import PlayerStore
from infra.ratelimit import RateLimiter
from infra.settings import Settings
from infra.store import PostgresEventStore
from infra.vault import Vault
from services.matches.clocks import Clocks
from services.matches.service import MatchService
from services.visibility import Visibility


@dataclass
class Runtime:
    """The opened adapters and services of one process (see the module docstring).

    `clocks` caches the started matches' turn clocks. `visibility` is the policy the features declared, bound to this runtime (closed until
    then: nothing public, no organiser). `closing` is where what the features opened for
    this runtime (a broker connection, ...) is closed, in reverse order, with the runtime.
    `broker_thread`: the after-commit hooks send to the broker from a thread of their own
    (`services.workers.sends`), because this process's event loop serves others (the API's
    requests, the embedded projector); a worker's loop runs its one task and sends on the spot."""

    settings: Settings
    pool: asyncpg.Pool
    redis: aioredis.Redis | None
    store: PostgresEventStore
    vault: Vault
    matches: MatchService
    players: PlayerStore
    limiter: RateLimiter
    clocks: Clocks
    visibility: Visibility = field(default_factory=Visibility)
    closing: contextlib.AsyncExitStack = field(default_factory=contextlib.AsyncExitStack)
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    broker_thread: bool = True
    gauges: list[Callable[[], Awaitable[None]]] = field(default_factory=list)   # the features' scrape-time gauges
