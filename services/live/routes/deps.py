"""What the live routes share per API process: the fan-out, the store, the state cache, token
checks and metrics (`LiveDeps`, found on `app.state` at first use, so the composition root
`services/bootstrap.py` stays the one place that builds pools and stores), the lifespan that
opens and closes them, the publisher's factory, and `drain` for a graceful shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from litestar import Litestar, WebSocket

from infra.fanout import Fanout
from infra.live_session import LiveSession, MatchStates
from infra.presence import PRESENCE, Presence
from infra.presence_shared import SharedPresence
from infra.store import PostgresEventStore, create_pool
from services.live.routes.guard import StreamGuard
from services.visibility import PRIVILEGED_WHILE_PLAYING, Visibility


class Unauthorized(Exception):
    pass


class LiveDeps:
    """Per process: the fan-out, the store, the state cache, token checks and metrics."""

    def __init__(self, app: Litestar) -> None:
        self.state = app.state
        settings = app.state.settings
        self.fanout = Fanout(settings.redis_url, settings.redis_prefix)
        self.sessions: weakref.WeakSet[LiveSession] = weakref.WeakSet()
        self._own_pool = None
        runtime = getattr(app.state, "runtime", None)
        self.store: PostgresEventStore | None = getattr(runtime, "store", None) or app.state.get("store")
        self.states: MatchStates | None = None
        self.presence: Presence = PRESENCE
        self._presence_redis: Any = None
        players = getattr(runtime, "players", None)
        self.guard: StreamGuard | None = (StreamGuard(players.principals, every=players.principal_ttl or 2.0)
                                          if players is not None else None)
        self._resolve: Callable[[Any, str], Awaitable[Any]] | None = app.state.get("live_principal_from_token")
        if self._resolve is None:
            with contextlib.suppress(ImportError):
                from services.http.auth import principal_from_token

                self._resolve = principal_from_token
        self._gauge = self._drops = None
        with contextlib.suppress(ImportError):
            from services.http import metrics

            self._gauge = getattr(metrics, "OPEN_SOCKETS", None)
            self._drops = getattr(metrics, "FANOUT_DROPS", None)

    async def start(self) -> None:
        if self.store is None:
            self._own_pool = await create_pool(self.state.settings.database_url, min_size=1, max_size=4)
            self.store = PostgresEventStore(self._own_pool)
        self.states = MatchStates(self.store)
        settings = self.state.settings
        if settings.redis_url:           # every replica's connections count (infra.presence_shared)
            import redis.asyncio as aioredis

            self._presence_redis = aioredis.from_url(settings.redis_url, socket_connect_timeout=1.0,
                                                     socket_timeout=2.0)
            self.presence = SharedPresence(self._presence_redis, settings.redis_prefix, self.store,
                                           ttl=settings.presence_ttl)
            await self.presence.start()

    async def player_id(self, token: str | None) -> str | None:
        """The player behind a bearer token; Unauthorized without a valid one."""
        return getattr(await self.principal(token), "player_id", None)

    @property
    def visibility(self) -> Visibility:
        """The runtime's policy (closed without a runtime)."""
        runtime = getattr(self.state, "runtime", None)
        return runtime.visibility if runtime is not None else Visibility()

    async def watchable(self, match_id: str, principal: Any) -> bool:
        """Whether `principal` may (still) watch: `Visibility.may_watch`."""
        assert self.states is not None
        state = await self.states.load(match_id)
        return state is None or await self.visibility.may_watch(principal, state)

    async def refusal(self, match_id: str, principal: Any, route: str) -> Any:
        """`Visibility.check` for a live stream (the `view` read): None, or the
        refusal to send (a privileged one written to the audit first)."""
        assert self.states is not None
        state = await self.states.load(match_id)
        if state is None:
            return None                       # the session answers unknown_match
        from services.audit import append_audit

        refused = await self.visibility.check(principal, state, "view")
        if refused is not None and refused.code == PRIVILEGED_WHILE_PLAYING and self.store is not None:
            await append_audit(self.store, principal, "refused", match_id=match_id,
                               detail={"code": refused.code, "read": "view", "route": route})
        return refused

    async def principal(self, token: str | None) -> Any:
        """The principal behind a bearer token; Unauthorized without a valid one."""
        if token is None:
            raise Unauthorized("send 'Authorization: Bearer <token>' or a first message {type: auth, token}")
        if self._resolve is None:
            raise Unauthorized("no token resolver is configured")
        principal = await self._resolve(self.state, token)
        if principal is None:
            raise Unauthorized("this token is unknown or was revoked")
        return principal

    def session(self, match_id: str, player_id: str | None, after: int | None) -> LiveSession:
        assert self.states is not None
        session = LiveSession(self.fanout, self.states, match_id, player_id, after, self.presence)
        self.sessions.add(session)  # for drain() at shutdown
        return session

    def opened(self, transport: str, delta: int) -> None:
        if self._gauge is not None:
            self._gauge.labels(transport).inc(delta)

    def dropped(self, transport: str) -> None:
        if self._drops is not None:
            self._drops.labels(transport).inc()

    async def close(self) -> None:
        if self.guard is not None:
            await self.guard.close()
        await self.fanout.close()
        if isinstance(self.presence, SharedPresence):
            await self.presence.close()
        if self._presence_redis is not None:
            await self._presence_redis.aclose()
        if self._own_pool is not None:
            await self._own_pool.close()




async def live_deps(app: Litestar) -> LiveDeps:
    deps = app.state.get("live")
    if deps is None:
        lock = app.state.get("live_lock")
        if lock is None:                      # no await since the check: one lock per app
            lock = app.state["live_lock"] = asyncio.Lock()
        async with lock:
            deps = app.state.get("live")
            if deps is None:
                deps = LiveDeps(app)
                await deps.start()
                app.state["live"] = deps
    return deps


@contextlib.asynccontextmanager
async def live_lifespan(app: Litestar, runtime: Any = None) -> AsyncIterator[None]:
    """Open the fan-out once the runtime is up; close it (and the pool, when this module
    opened one) at shutdown. Also usable as a plain Litestar lifespan hook (no runtime)."""
    try:
        if getattr(app.state, "settings", None) is not None and app.state.settings.database_url:
            await live_deps(app)
        yield
    finally:
        deps = app.state.get("live")
        if deps is not None:
            app.state["live"] = None
            await deps.close()




# --- graceful shutdown (services/commands/serve.py) ---------------------------------------------------

SERVICE_RESTART = "service_restart"


def drain(app: Litestar) -> int:
    """The server is stopping and no longer accepts connections: end every live stream with
    a resync message whose reason is "service_restart" (WebSockets were already closed with
    1012 by uvicorn), so clients reconnect with `after=` to another replica. Not counted as
    a fan-out drop. Returns how many streams were ended."""
    deps = app.state.get("live")
    sessions = [s for s in (deps.sessions if deps is not None else ()) if s.client is not None]
    for session in sessions:
        session.client.on_drop = None  # type: ignore[union-attr]
        session.client.drop(SERVICE_RESTART)  # type: ignore[union-attr]
    return len(sessions)


async def until_disconnect(socket: WebSocket) -> None:
    """Read (and ignore) what the client sends, to notice when it goes away."""
    while (await socket.receive())["type"] != "websocket.disconnect":
        pass
