"""The one place where the parts are put together: pools, the event store with its
after-commit hooks, the vault, the game service, players, the rate limiter, and (on the
embedded default) the projector running beside the API in the same process.

The API app (`services.api.app.create_app`) and CLI commands (`atout admin`) open a
`Runtime` here rather than wiring adapters themselves, so that a new adapter is added
once. Features built alongside plug in without editing this file:

* `EXTRA_ROUTES`: route handlers mounted on every app. `services.api.live.ROUTES` (the
  live streams) is mounted automatically when that module exists, with its `LIFESPAN`.
* `LIFESPAN_HOOKS`: Litestar lifespan hooks `hook(app) -> async context manager`, entered in
  order once the runtime is open and on `app.state.runtime` (e.g. the fan-out subscriber),
  exited before it closes.
* `AFTER_COMMIT_HOOKS`: `async hook(AppendResult)`, run after each append's commit (never
  inside it), after the projector wake-up.
* `EXTRA_PROJECTIONS`: factories of projections the projector also runs (e.g. the
  publisher), after `infra.projections.default_projections()`.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import redis.asyncio as aioredis

from infra.observability import track_pool
from infra.players import PlayerStore
from infra.projections import Projection, ProjectionRunner, WakePublisher, default_projections, run_projector
from infra.settings import Settings
from infra.store import AppendResult, PostgresEventStore, create_pool, migrate
from infra.vault import Vault
from services.api.ratelimit import RateLimit, RateLimiter
from services.matches import MatchService

log = logging.getLogger(__name__)

EXTRA_ROUTES: list[Any] = []
LIFESPAN_HOOKS: list[Callable[[Any], contextlib.AbstractAsyncContextManager[Any]]] = []
AFTER_COMMIT_HOOKS: list[Callable[[AppendResult], Any]] = []
EXTRA_PROJECTIONS: list[Callable[[], Projection]] = []

LIVE_MODULE = "services.api.live"


def projections() -> list[Projection]:
    _workers()
    _disputes()
    _tournaments()
    return [*default_projections(), *(factory() for factory in EXTRA_PROJECTIONS)]


WORKERS_MODULE = "services.workers.reactor"


def _workers() -> None:
    """Import the workers' reactor (issue 7), which registers the `bot_turns` projection
    in EXTRA_PROJECTIONS; absent in a tree without services/workers."""
    try:
        importlib.import_module(WORKERS_MODULE)
    except ModuleNotFoundError as error:
        if error.name not in (WORKERS_MODULE, "services.workers"):
            raise


DISPUTES_MODULE = "services.api.disputes"


def _disputes() -> None:
    """Import the disputes feature (issue 9), which registers its routes and the admin ones
    in EXTRA_ROUTES and the `disputes` projection in EXTRA_PROJECTIONS."""
    importlib.import_module(DISPUTES_MODULE)


TOURNAMENTS_MODULE = "services.api.tournaments"


def _tournaments() -> None:
    """Import the tournaments feature (issue 8): it registers its routes, the standings
    projection and its hooks, as the disputes feature does."""
    importlib.import_module(TOURNAMENTS_MODULE)


@dataclass
class Runtime:
    """Everything a request handler or a command needs, opened once per process."""

    settings: Settings
    pool: asyncpg.Pool
    redis: aioredis.Redis | None
    store: PostgresEventStore
    vault: Vault
    matches: MatchService
    players: PlayerStore
    limiter: RateLimiter
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)

    @staticmethod
    def projections() -> list[Projection]:
        return projections()


def _after_commit(hooks: list[Callable[[AppendResult], Any]]) -> Callable[[AppendResult], Any]:
    """Run every hook; one failing never keeps the others (or the caller) from going on."""

    async def run(result: AppendResult) -> None:
        for hook in hooks:
            try:
                await hook(result)
            except Exception:
                log.exception("after-commit hook %r failed for %s", hook, result.stream_id)

    return run


@contextlib.asynccontextmanager
async def open_runtime(settings: Settings, *, apply_migrations: bool = False, projector: bool = False,
                       rate_limit: RateLimit | None = None, pool_size: int = 10) -> AsyncIterator[Runtime]:
    """Open the adapters for `settings` (URLs already resolved). The pool connects on
    first use, so a process starts (and says "not ready" on /readyz) while Postgres is
    still coming up; `apply_migrations` and `projector` are for the embedded default."""
    if not settings.database_url:
        raise ValueError("no database URL: resolve the embedded servers before opening the runtime")
    pool = track_pool("runtime", await create_pool(settings.database_url, min_size=0, max_size=pool_size))
    redis = (aioredis.from_url(settings.redis_url, socket_connect_timeout=1.0, socket_timeout=1.0)
             if settings.redis_url else None)
    hooks: list[Callable[[AppendResult], Any]] = []
    if redis is not None:
        hooks.append(WakePublisher(redis, settings.redis_prefix))
    hooks += AFTER_COMMIT_HOOKS
    store = PostgresEventStore(pool, after_append=_after_commit(hooks))
    vault = Vault(pool)
    runtime = Runtime(settings=settings, pool=pool, redis=redis, store=store, vault=vault,
                      matches=MatchService(store, vault), players=PlayerStore(pool),
                      limiter=RateLimiter(redis, settings.redis_prefix, rate_limit or RateLimit(settings.rate_limit_requests, settings.rate_limit_window)))
    stop = asyncio.Event()
    try:
        if apply_migrations:
            async with pool.acquire() as conn:
                applied = await migrate(conn)
            if applied:
                log.info("migrations applied", extra={"applied": applied})
        if projector:
            runtime.tasks.append(asyncio.create_task(_run_projector(settings, stop), name="projector"))
        yield runtime
    finally:
        stop.set()
        for task in runtime.tasks:
            try:
                await asyncio.wait_for(task, timeout=10)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                task.cancel()
            except Exception:
                log.exception("%s stopped with an error", task.get_name())
        if redis is not None:
            await redis.aclose()
        await pool.close()


async def _run_projector(settings: Settings, stop: asyncio.Event) -> None:
    """The projector beside the API (embedded default), on its own small pool so API
    requests can never starve it; restarted after a failure until the process stops."""
    assert settings.database_url is not None
    pool = track_pool("projector", await create_pool(settings.database_url, min_size=0, max_size=3))
    try:
        runner = ProjectionRunner(PostgresEventStore(pool))
        while not stop.is_set():
            try:
                await run_projector(runner, projections(), redis_url=settings.redis_url,
                                    redis_prefix=settings.redis_prefix, stop=stop)
            except Exception:
                log.exception("projector failed; restarting in 2s")
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=2.0)
    finally:
        await pool.close()


def _live() -> Any | None:
    """`services.api.live` when it exists (built in parallel); its own import errors surface."""
    try:
        return importlib.import_module(LIVE_MODULE)
    except ModuleNotFoundError as error:
        if error.name != LIVE_MODULE:
            raise
        return None


def route_handlers() -> list[Any]:
    """Every route of the API beyond the probes: ours, the live streams', the registered ones."""
    from services.api import hints, matches, metrics, play, players, records

    _disputes()
    _tournaments()
    live = _live()
    return [*players.ROUTES, *matches.ROUTES, *play.ROUTES, *hints.ROUTES, *records.ROUTES, *metrics.ROUTES,
            *(getattr(live, "ROUTES", []) if live else []), *EXTRA_ROUTES]


def lifespan_hooks() -> list[Callable[[Any], contextlib.AbstractAsyncContextManager[Any]]]:
    """The hooks entered inside the runtime: the registered ones, then the live module's."""
    live = _live()
    return [*LIFESPAN_HOOKS, *(getattr(live, "LIFESPAN", []) if live else [])]


def lifespan(settings: Settings, **options: Any) -> Callable[[Any], contextlib.AbstractAsyncContextManager[None]]:
    """A Litestar lifespan hook: open the runtime, put it on `app.state.runtime`, enter the
    registered hooks; undo all of it in reverse order at shutdown."""

    @contextlib.asynccontextmanager
    async def hook(app: Any) -> AsyncIterator[None]:
        if not settings.database_url:
            log.warning("no database configured: the API answers 503 not_ready")
            yield
            return
        async with open_runtime(settings, **options) as runtime, contextlib.AsyncExitStack() as stack:
            app.state.runtime = runtime
            for extra in lifespan_hooks():
                await stack.enter_async_context(extra(app))
            try:
                yield
            finally:
                app.state.runtime = None

    return hook
