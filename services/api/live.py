"""Live match streams: `WS /v1/matches/{id}/ws` and `GET /v1/matches/{id}/stream` (SSE or NDJSON).

Both carry one `infra.live_session.LiveSession`: `{"type":"snapshot","version":V0,"view":…}` (the
caller's seat, or the spectator view for a caller who holds none), then with `after=V` the
events `V < version <= V0` from the store, then live `{"type":"event","version":V,"event":…}`
(`"event": null` for what this seat may not see), ending after `match_finished`. A client
that falls behind gets `{"type":"error","code":"resync",…}` and the stream ends (WebSocket
close 4008): it reconnects with `after=` its last version. See `docs/live.md`.

What this module needs from the rest of the API it finds on `app.state` at first use
(`LiveDeps`), so the composition root (`services/bootstrap.py`) stays the one place that
builds pools and stores: `store` (a PostgresEventStore) when present, else a small pool of
its own; tokens through `services.api.auth.principal_from_token`; metrics through
`services.api.metrics` when they exist. `LIFESPAN` closes what it opened.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec
from litestar import Litestar, Request, WebSocket, get, websocket
from litestar.exceptions import HTTPException, WebSocketDisconnect
from litestar.response import Stream

from infra.fanout import Dropped, Fanout, envelope
from infra.live_session import Gone, LiveSession, MatchStates
from infra.projections.publisher import Publisher
from infra.settings import Settings, load_settings
from infra.store import PostgresEventStore, create_pool

log = logging.getLogger(__name__)

AUTH_TIMEOUT = 10.0      # seconds a WebSocket may take to send its auth message
KEEPALIVE = 15.0         # seconds between SSE comments on a quiet stream
STUCK_SENDER = 2.0       # seconds a dropped WebSocket's sender may take to say so and close
SSE, NDJSON = "text/event-stream", "application/x-ndjson"
WS_UNAUTHORIZED, WS_FORBIDDEN, WS_NOT_FOUND, WS_RESYNC, WS_TRY_LATER = 4401, 4403, 4404, 4008, 1013
SEALED = "a tournament table is shown only to its seats until its round has closed at every table"


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
        self._resolve: Callable[[Any, str], Awaitable[Any]] | None = app.state.get("live_principal_from_token")
        if self._resolve is None:
            with contextlib.suppress(ImportError):
                from services.api.auth import principal_from_token

                self._resolve = principal_from_token
        self._gauge = self._drops = None
        with contextlib.suppress(ImportError):
            from services.api import metrics

            self._gauge = getattr(metrics, "OPEN_SOCKETS", None)
            self._drops = getattr(metrics, "FANOUT_DROPS", None)

    async def start(self) -> None:
        if self.store is None:
            self._own_pool = await create_pool(self.state.settings.database_url, min_size=1, max_size=4)
            self.store = PostgresEventStore(self._own_pool)
        self.states = MatchStates(self.store)

    async def player_id(self, token: str | None) -> str | None:
        """The player behind a bearer token; Unauthorized without a valid one."""
        return getattr(await self.principal(token), "player_id", None)

    async def watchable(self, match_id: str, principal: Any) -> bool:
        """`services.disputes.may_watch`: a tournament table is streamed only to its seats,
        its organiser and admins until its round has closed at every table."""
        assert self.states is not None
        state = await self.states.load(match_id)
        if state is None:
            return True                       # the session answers match_not_found
        from services import disputes

        return await disputes.may_watch(principal, state)

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
        session = LiveSession(self.fanout, self.states, match_id, player_id, after)
        self.sessions.add(session)  # for drain() at shutdown
        return session

    def opened(self, transport: str, delta: int) -> None:
        if self._gauge is not None:
            self._gauge.labels(transport).inc(delta)

    def dropped(self, transport: str) -> None:
        if self._drops is not None:
            self._drops.labels(transport).inc()

    async def close(self) -> None:
        await self.fanout.close()
        if self._own_pool is not None:
            await self._own_pool.close()


_deps_lock = asyncio.Lock()
_settings: Settings | None = None  # the process's resolved settings, once the app has started


async def live_deps(app: Litestar) -> LiveDeps:
    deps = app.state.get("live")
    if deps is None:
        async with _deps_lock:
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
    global _settings
    _settings = app.state.settings  # before any await: the projector task reads it (see _publisher)
    try:
        if getattr(app.state, "settings", None) is not None and app.state.settings.database_url:
            await live_deps(app)
        yield
    finally:
        deps = app.state.get("live")
        if deps is not None:
            app.state["live"] = None
            await deps.close()


LIFESPAN = [live_lifespan]


def _publisher() -> Publisher:
    """The publisher projection with this process's resolved settings (embedded servers'
    URLs included), for `services.bootstrap.EXTRA_PROJECTIONS`."""
    settings = _settings or load_settings()
    return Publisher(redis_url=settings.redis_url, prefix=settings.redis_prefix)


def _register_publisher() -> None:
    with contextlib.suppress(ImportError):
        from services import bootstrap

        if _publisher not in bootstrap.EXTRA_PROJECTIONS:
            bootstrap.EXTRA_PROJECTIONS.append(_publisher)


def _bearer(value: str | None) -> str | None:
    scheme, _, token = (value or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _error(code: str, message: str, details: Any = None) -> bytes:
    return msgspec.json.encode({"type": "error", "code": code, "message": message, "details": details or {}})


def _resync(session: LiveSession, reason: str) -> bytes:
    return _error("resync", "this stream fell behind; reconnect with after=<last version>",
                  {"reason": reason, "after": session.last})


# --- WebSocket ------------------------------------------------------------------------------------

async def _ws_token(socket: WebSocket) -> str | None:
    token = _bearer(socket.headers.get("authorization"))
    if token is not None:
        return token
    try:
        async with asyncio.timeout(AUTH_TIMEOUT):
            first = msgspec.json.decode(await socket.receive_data(mode="text"))
    except (TimeoutError, msgspec.DecodeError):
        return None
    if isinstance(first, dict) and first.get("type") == "auth" and isinstance(first.get("token"), str):
        return first["token"]
    return None


@websocket("/v1/matches/{match_id:str}/ws", name="match_ws")
async def match_ws(socket: WebSocket, match_id: str, after: int | None = None) -> None:
    await socket.accept()
    deps = await live_deps(socket.app)
    try:
        principal = await deps.principal(await _ws_token(socket))
        if not await deps.watchable(match_id, principal):
            await socket.send_data(_error("board_sealed", SEALED, {"match_id": match_id}))
            await socket.close(WS_FORBIDDEN, "board_sealed")
            return
        session = deps.session(match_id, getattr(principal, "player_id", None), after)
        await session.open()
    except Unauthorized as exc:
        await socket.send_data(_error("unauthorized", str(exc)))
        await socket.close(WS_UNAUTHORIZED, "unauthorized")
        return
    except Gone:
        await socket.send_data(_error("match_not_found", f"no match {match_id!r}", {"match_id": match_id}))
        await socket.close(WS_NOT_FOUND, "match_not_found")
        return
    except (Dropped, ConnectionError, OSError, asyncio.TimeoutError) as exc:  # Redis unreachable
        await socket.send_data(_error("unavailable", f"live updates are unavailable: {exc}"))
        await socket.close(WS_TRY_LATER, "unavailable")
        return
    except WebSocketDisconnect:
        return
    deps.opened("websocket", 1)
    watcher = asyncio.create_task(_until_disconnect(socket))
    sender = asyncio.create_task(_send_all(socket, session))

    def dropped(reason: str) -> None:
        # Counted here; and a sender stuck writing to a client that stopped reading (its
        # TCP window full) would never see the drop: give it a moment, then stop it.
        deps.dropped("websocket")
        asyncio.get_running_loop().call_later(STUCK_SENDER, lambda: sender.done() or sender.cancel())

    assert session.client is not None
    session.client.on_drop = dropped
    try:
        done, _ = await asyncio.wait({watcher, sender}, return_when=asyncio.FIRST_COMPLETED)
        if sender in done and not sender.cancelled() and sender.exception() is None:
            reason = sender.result()
            await socket.close(*((1000, "match_finished") if reason is None else (WS_RESYNC, "resync")))
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the client went away while we closed
    finally:
        for task in (watcher, sender):
            task.cancel()
        await asyncio.gather(watcher, sender, return_exceptions=True)
        deps.opened("websocket", -1)
        await session.close()


async def _send_all(socket: WebSocket, session: LiveSession) -> str | None:
    """Send until the match is over (None) or the client is dropped (the reason)."""
    try:
        async for message in session.messages():
            await socket.send({"type": "websocket.send", "text": message.decode()})  # type: ignore[union-attr]
    except Dropped as exc:
        await socket.send_data(_resync(session, str(exc)))
        return str(exc) or "resync"
    return None


async def _until_disconnect(socket: WebSocket) -> None:
    """Read (and ignore) what the client sends, to notice when it goes away."""
    while (await socket.receive())["type"] != "websocket.disconnect":
        pass


# --- HTTP stream: SSE or NDJSON -------------------------------------------------------------------

def _frame_sse(message: bytes | None) -> bytes:
    if message is None:
        return b": keep-alive\n\n"
    version = envelope(message).version
    return (b"data: %s\n\n" % message) if version is None else (b"id: %d\ndata: %s\n\n" % (version, message))


def _frame_ndjson(message: bytes | None) -> bytes:
    return b"" if message is None else message + b"\n"


@get("/v1/matches/{match_id:str}/stream", name="match_stream", tags=["live"])
async def match_stream(request: Request, match_id: str, after: int | None = None) -> Stream:
    """Live messages of a match: SSE when `Accept` names `text/event-stream`, else NDJSON.
    On SSE a `Last-Event-ID` header (what EventSource sends on reconnect) counts as `after`."""
    deps = await live_deps(request.app)
    try:
        principal = await deps.principal(_bearer(request.headers.get("authorization")))
    except Unauthorized as exc:
        raise HTTPException(status_code=401, detail=str(exc), headers={"WWW-Authenticate": "Bearer"}) from None
    player_id = getattr(principal, "player_id", None)
    if not await deps.watchable(match_id, principal):
        exc = HTTPException(status_code=403, detail=SEALED, extra={"match_id": match_id})
        exc.code = "board_sealed"  # type: ignore[attr-defined]
        raise exc
    sse = SSE in request.headers.get("accept", "")
    last_id = request.headers.get("last-event-id", "").strip()
    if after is None and sse and last_id.isdigit():
        after = int(last_id)
    session = deps.session(match_id, player_id, after)
    try:
        await session.open()
    except Gone:
        exc = HTTPException(status_code=404, detail=f"no match {match_id!r}", extra={"match_id": match_id})
        exc.code = "match_not_found"  # type: ignore[attr-defined]
        raise exc from None
    except (Dropped, ConnectionError, OSError, asyncio.TimeoutError) as error:  # Redis unreachable
        exc = HTTPException(status_code=503, detail=f"live updates are unavailable: {error}",
                            headers={"Retry-After": "1"})
        exc.code = "unavailable"  # type: ignore[attr-defined]
        raise exc from None
    frame = _frame_sse if sse else _frame_ndjson

    transport = "sse" if sse else "ndjson"
    assert session.client is not None
    session.client.on_drop = lambda _: deps.dropped(transport)

    async def body() -> AsyncIterator[bytes]:
        deps.opened(transport, 1)
        try:
            async for message in session.messages(KEEPALIVE if sse else None):
                yield frame(message)
        except Dropped as exc:
            yield frame(_resync(session, str(exc)))
        finally:
            deps.opened(transport, -1)
            await session.close()

    return Stream(body(), media_type=SSE if sse else NDJSON,
                  headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


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


ROUTES = [match_ws, match_stream]
_register_publisher()
