"""The composition root: the one list of features, and the builders every process uses.

`FEATURES` below is the whole system. Each entry is a `services.features.Feature` declared
in its feature's package (`services/<feature>/feature.py`) and says what
the feature adds to each process:

====================  ========================================================================
`routes`              route handlers of the API app (`atout serve`)
`projections`         `factory(settings) -> Projection`, run by the projector (`atout projector`,
                      or beside the API on the embedded default) and `atout projections`
`after_commit`        `factory(runtime) -> async hook(AppendResult) | None`, run after every
                      append's commit in every process that appends: the API, a worker, a CLI
                      command (the bots' fast path is one: bots answer in every process shape)
`lifespans`           `hook(app) -> async context manager`, entered by the API once
                      `app.state.runtime` is open
`public_checks`,      the visibility policy (`services.visibility.Visibility`, on
`organiser_lookups`,  `runtime.visibility`): `async check(runtime, match_id) -> bool`,
`entrant_lookups`,    `async lookup(runtime, match_id) -> organiser | None`, `... -> set of
`audience_lookups`    players` (of an event's entries; invited to a private table). Fails
                      closed: with no check declared no match is public, and a private
                      table is its seats' and host's alone.
`tasks`               `install(celery_app)`: Celery tasks and beat entries (`atout worker`,
                      `atout beat`)
`channels`            the live routes' `services.http.asyncapi.Channel`s: what each stream
                      carries, in the AsyncAPI document (`/schema/asyncapi.json`)
`account_events`      `factory(settings) -> AccountProducer`: the notices a feature puts on its
                      players' account streams (`GET /v1/stream/me`), all run by the one
                      `account_events` projection (`infra.projections.account_events`)
====================  ========================================================================

To add a route, a projection or a hook: put it in your feature's `FEATURE` (or declare a new
`Feature` in your module and add it to `FEATURES`). Nothing is registered by importing a
module, and no module below this one imports it: what each process runs is this list.

Builders: `open_runtime` (pools, the event store with its after-commit hooks, the vault, the
game service, players, the rate limiter, the visibility policy; on the embedded default the
projector beside the API), `lifespan` / `route_handlers` / `lifespan_hooks` (the API app,
`services.http.app.create_app`), `projections` (the projector), `worker_app` (the workers'
and beat's Celery app).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis

from infra.observability import track_pool
from infra.players import PlayerStore
from infra.projections import (
    Projection,
    ProjectionRunner,
    WakePublisher,
    WakeWire,
    close_projections,
    run_projector,
)
from infra.projections.account_events import AccountEvents, AccountProducer
from infra.ratelimit import RateLimit, RateLimiter
from infra.settings import Settings, load_settings
from infra.store import AppendResult, PostgresEventStore, create_pool, migrate
from infra.vault import Vault
from services.bots import feature as bots
from services.chat import feature as chat
from services.disputes import feature as disputes
from services.duplicate import feature as duplicate
from services.features import AfterCommit, Feature, Lifespan, each
from services.http import feature as site
from services.live import feature as live
from services.matches import feature as matches
from services.matches import suspensions
from services.matches.clocks import Clocks
from services.matches.service import MatchService
from services.quickplay import feature as quickplay
from services.reviews import feature as reviews
from services.runtime import Runtime
from services.social import feature as social
from services.tournaments import feature as tournaments
from services.visibility import Visibility

if TYPE_CHECKING:
    from celery import Celery

log = logging.getLogger(__name__)

__all__ = ["FEATURES", "Runtime", "lifespan", "lifespan_hooks", "open_runtime", "projections", "route_handlers",
           "worker_app"]

FEATURES: tuple[Feature, ...] = (
    site.FEATURE,          # probes, metrics, the web client
    social.PLAYERS,        # identity
    matches.FEATURE,       # matches, play, records; the lobby, summaries and hand records
    matches.HINTS,         # hints for human seats (their own hints-<id> streams, counted in the view)
    live.FEATURE,          # live match streams and their publisher
    bots.FEATURE,          # bots' turns, turn clocks, the sweeper; the bot_turns read model and fast path
    tournaments.FEATURE,   # tournaments, their live streams, standings; who may see a board
    duplicate.FEATURE,     # robot duplicate events, travellers, the daily robot event
    disputes.FEATURE,      # disputes and the admin routes; the disputes queue
    matches.SUSPENDED,     # suspended matches: the admin's list, resume, void, abandon
    live.ACCOUNT_STREAM,   # each player's account stream; the notices of matches, tournaments, disputes
    social.RATINGS,        # ranked play: the ratings read model, leaderboards, players' ratings and stats
    social.INVITATIONS,    # invitations and challenges; who is invited to a private table; their notices
    social.FOLLOW_AND_BLOCK,  # follow and block: the social_ties read model, the followed players' tables
    chat.FEATURE,          # table chat: presets during play, the spectators' channel, its live streams
    reviews.FEATURE,       # each finished deal's double-dummy review; fair-play signals; the reviewing task
    quickplay.FEATURE,     # quick play: queues per way of playing, the matching tick, seated/expired notices
)


def projections(settings: Settings | None = None, features: Sequence[Feature] = FEATURES) -> list[Projection]:
    """What the projector runs for `settings` (default: the environment's)."""
    settings = settings or load_settings()
    result = [factory(settings) for factory in each(features, "projections")]
    producers = account_producers(settings, features)
    if producers:
        result.append(AccountEvents(producers, redis_url=settings.redis_url, prefix=settings.redis_prefix,
                                    retention=settings.account_retention))
    return result


def account_producers(settings: Settings, features: Sequence[Feature] = FEATURES) -> list[AccountProducer]:
    """What every feature tells its players on their account streams (`account_events`):
    the `account_events` projection runs them all, and their tables make the snapshot."""
    return [factory(settings) for factory in each(features, "account_events")]


def route_handlers(features: Sequence[Feature] = FEATURES) -> list[Any]:
    """Every route of the API, in the features' order."""
    return list(dict.fromkeys(each(features, "routes")))


def channels(features: Sequence[Feature] = FEATURES) -> list[Any]:
    """Every live route's channel, for the AsyncAPI document (`services.http.asyncapi`)."""
    return each(features, "channels")


def lifespan_hooks(features: Sequence[Feature] = FEATURES) -> list[Lifespan]:
    return each(features, "lifespans")


def worker_app(settings: Settings, features: Sequence[Feature] = FEATURES) -> Celery:
    """The Celery app of `atout worker` and `atout beat`: every feature's tasks and beat
    entries, and the runtime each worker process opens at its first task."""
    from services.workers.app import make_app
    from services.workers.runtime import WorkerRuntime

    app = make_app(settings)
    app.conf.atout_runtime = WorkerRuntime(functools.partial(open_runtime, settings, features=features, pool_size=2,
                                                             broker_thread=False))
    for install in each(features, "tasks"):
        install(app)
    return app


REDIS_CONNECTIONS = 64
# Opening a connection may take one lost SYN (Linux sends it again after a second, so a
# connect given only a second fails whenever the server's accept queue overflowed for an
# instant), or a second in which a busy machine did not run this process. A blackholed
# server costs this much only when the pool must open a connection; commands keep their second.
REDIS_CONNECT_SECONDS = 2.5


def shared_redis(url: str) -> aioredis.Redis:
    """The process's Redis client (rate limiter, projector wake-ups): a burst of requests
    beyond REDIS_CONNECTIONS waits for a free connection (up to a second) instead of failing
    as redis-py's default pool does past its cap, which would drop wake-ups and let the
    rate limit fail open exactly when the API is busiest."""
    return aioredis.Redis.from_pool(aioredis.BlockingConnectionPool.from_url(
        url, max_connections=REDIS_CONNECTIONS, timeout=1.0, socket_connect_timeout=REDIS_CONNECT_SECONDS,
        socket_timeout=1.0))


def _after_commit(hooks: list[AfterCommit]) -> AfterCommit:
    """Run every hook; one failing never keeps the others (or the caller) from going on."""

    async def run(result: AppendResult) -> None:
        for hook in hooks:
            try:
                await hook(result)
            except Exception:
                log.exception("after-commit hook %r failed for %s", hook, result.stream_id)

    return run


def _bound(function: Callable[..., Any], runtime: Runtime) -> Callable[[str], Any]:
    return functools.partial(function, runtime)


@contextlib.asynccontextmanager
async def open_runtime(settings: Settings, *, features: Sequence[Feature] = FEATURES, apply_migrations: bool = False,
                       projector: bool = False, rate_limit: RateLimit | None = None,
                       pool_size: int = 10, broker_thread: bool = True) -> AsyncIterator[Runtime]:
    """Open the adapters for `settings` (URLs already resolved), with every feature's
    after-commit hooks and visibility checks. The pool connects on first use, so a process
    starts (and says "not ready" on /readyz) while Postgres is still coming up;
    `apply_migrations` and `projector` are for the embedded default; `broker_thread=False`
    for a worker, whose loop runs one task (`Runtime.broker_thread`)."""
    if not settings.database_url:
        raise ValueError("no database URL: resolve the embedded servers before opening the runtime")
    pool = track_pool("runtime", await create_pool(settings.database_url, min_size=0, max_size=pool_size))
    redis = shared_redis(settings.redis_url) if settings.redis_url else None
    hooks: list[AfterCommit] = []
    wire = WakeWire(settings.redis_url, settings.redis_prefix) if redis is not None and broker_thread else None
    if wire is not None:   # a loop serving requests: the wake-up costs no round trip
        hooks.append(wire)
    elif redis is not None:
        hooks.append(WakePublisher(redis, settings.redis_prefix))
    store = PostgresEventStore(pool, after_append=_after_commit(hooks))
    vault = Vault(pool)
    runtime = Runtime(settings=settings, pool=pool, redis=redis, store=store, vault=vault,
                      matches=MatchService(store, vault, on_stuck=suspensions.on_stuck), players=PlayerStore(pool),
                      clocks=Clocks(store), broker_thread=broker_thread,
                      limiter=RateLimiter(redis, settings.redis_prefix, rate_limit or RateLimit(
                          settings.rate_limit_requests, settings.rate_limit_window)))
    runtime.visibility = Visibility(*([_bound(check, runtime) for check in each(features, kind)]
                                      for kind in ("public_checks", "organiser_lookups", "entrant_lookups",
                                                   "audience_lookups")))
    runtime.gauges = [_bound(gauge, runtime) for gauge in each(features, "gauges")]
    if wire is not None:
        runtime.closing.push_async_callback(wire.close)
    stop = asyncio.Event()
    try:
        for factory in each(features, "after_commit"):
            hook = factory(runtime)
            if hook is not None:
                hooks.append(hook)
        if apply_migrations:
            async with pool.acquire() as conn:
                applied = await migrate(conn)
            if applied:
                log.info("migrations applied", extra={"applied": applied})
        if projector:
            runtime.tasks.append(asyncio.create_task(_run_projector(settings, features, stop), name="projector"))
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
        await runtime.closing.aclose()
        if redis is not None:
            await redis.aclose()
        await pool.close()


async def _run_projector(settings: Settings, features: Sequence[Feature], stop: asyncio.Event) -> None:
    """The projector beside the API (embedded default), on its own small pool so API
    requests can never starve it; restarted after a failure until the process stops."""
    assert settings.database_url is not None
    pool = track_pool("projector", await create_pool(settings.database_url, min_size=0, max_size=3))
    try:
        runner = ProjectionRunner(PostgresEventStore(pool))
        while not stop.is_set():
            built: list[Projection] = []               # new ones each run: what a failure left is let go
            try:
                built = projections(settings, features)
                await run_projector(runner, built, redis_url=settings.redis_url, redis_prefix=settings.redis_prefix,
                                    batch_delay=settings.projector_delay, stop=stop)
            except Exception:
                log.exception("projector failed; restarting in 2s")
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=2.0)
            finally:
                await close_projections(built)
    finally:
        await pool.close()


def lifespan(settings: Settings, *, features: Sequence[Feature] = FEATURES,
             **options: Any) -> Callable[[Any], contextlib.AbstractAsyncContextManager[None]]:
    """A Litestar lifespan hook: open the runtime, put it on `app.state.runtime`, enter the
    features' lifespans; undo all of it in reverse order at shutdown."""

    @contextlib.asynccontextmanager
    async def hook(app: Any) -> AsyncIterator[None]:
        if not settings.database_url:
            log.warning("no database configured: the API answers 503 not_ready")
            yield
            return
        async with open_runtime(settings, features=features, **options) as runtime, \
                contextlib.AsyncExitStack() as stack:
            app.state.runtime = runtime
            app.state.account_producers = account_producers(settings, features)
            for extra in lifespan_hooks(features):
                await stack.enter_async_context(extra(app))
            try:
                yield
            finally:
                app.state.runtime = None

    return hook
