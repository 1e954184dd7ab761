"""Live match streams: `WS /v1/matches/{id}/ws` and `GET /v1/matches/{id}/stream` (SSE or NDJSON).

Both carry one `infra.live_session.LiveSession`: `{"type":"snapshot","version":V0,"view":…}` (the
caller's seat, or the spectator view for a caller who holds none), then with `after=V` the
events `V < version <= V0` from the store, then live `{"type":"event","version":V,"event":…}`
(`"event": null` for what this seat may not see), ending after `match_finished`. A client
that falls behind gets `{"type":"error","version":V,"code":"resync",…}` and the stream ends (WebSocket
close 4008): it reconnects with `after=` its last version. See `docs/live.md`.

What this module needs from the rest of the API it finds on `app.state` at first use
(`services.live.routes.deps.LiveDeps`), so the composition root (`services/bootstrap.py`) stays
the one place that builds pools and stores: `store` (a PostgresEventStore) when present, else
a small pool of its own; tokens through `services.http.auth.principal_from_token`; metrics
through `services.http.metrics` when they exist. Its lifespan closes what it opened.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import msgspec
from litestar import Request, WebSocket, get, websocket
from litestar.exceptions import HTTPException
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.params import FromPath, FromQuery
from litestar.response import Stream

from infra.fanout import Dropped
from infra.live_session import Gone, LiveSession
from services import visibility
from services.http import asyncapi as A
from services.http.asyncapi import Channel
from services.http.bodies import loads
from services.http.errors import ApiError
from services.http.schemas import BEARER, AfterOrNone, ErrorOut, PathStr, live_params
from services.live.routes.deps import Unauthorized, live_deps
from services.live.routes.http import streamed, transport_of
from services.live.routes.socket import handshake, pump

log = logging.getLogger(__name__)

AUTH_TIMEOUT = 10.0      # seconds a WebSocket may take to send its auth message
WS_INVALID, WS_UNAUTHORIZED, WS_FORBIDDEN, WS_NOT_FOUND, WS_RESYNC, WS_TRY_LATER = 4400, 4401, 4403, 4404, 4008, 1013
STREAM_EXAMPLE = ('{"type":"snapshot","version":9,"view":{"seat":"N","table":{"hand":["7S","JH"],"legal":[]}}}\n'
                  '{"type":"event","version":10,"event":{"type":"card_played","seat":"E","card":"AS"}}\n'
                  '{"type":"event","version":11,"event":null}\n')


def _bearer(value: str | None) -> str | None:
    scheme, _, token = (value or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _error(code: str, message: str, details: Any = None, version: int = 0) -> bytes:
    """Every message of a stream has `type` and `version`: an error's is the last version the
    stream sent (0 before any), so a client resumes with `after=` it whatever ended it."""
    return msgspec.json.encode({"type": "error", "version": version, "code": code, "message": message,
                                "details": details or {}})


def _resync(session: LiveSession, reason: str) -> bytes:
    return _error("resync", "this stream fell behind; reconnect with after=<last version>",
                  {"reason": reason, "after": session.last}, session.last)


# Why a stream may end other than by falling behind: its caller changed while it was open.
ENDED = {"token_revoked": (WS_UNAUTHORIZED, "unauthorized", "this token was revoked, or its player erased"),
         "not_watchable": (WS_FORBIDDEN, visibility.SEALED.code, visibility.SEALED.message)}


def _ending(session: LiveSession, reason: str) -> tuple[int, bytes]:
    """The close code and last message of a stream that ends for `reason`."""
    if reason in ENDED:
        code, error, message = ENDED[reason]
        return code, _error(error, message, {"reason": reason, "after": session.last}, session.last)
    return WS_RESYNC, _resync(session, reason)


def _follow_caller(deps: Any, session: LiveSession, match_id: str, token: str | None, principal: Any) -> Any:
    """Have the process's stream guard end `session` when its caller's token is revoked, or
    his role changes so that he may no longer watch; the handle to forget at the end."""
    if deps.guard is None or token is None:
        return None

    def end(reason: str) -> None:
        if session.client is not None:
            session.client.on_drop = None   # not a fan-out drop
            session.client.drop(reason)

    async def on_change(now: Any) -> bool:
        if now is None:
            end("token_revoked")
            return False
        if await deps.watchable(match_id, now):
            return True
        end("not_watchable")
        return False

    return deps.guard.watch(token, principal, on_change)


# --- WebSocket ------------------------------------------------------------------------------------

async def _ws_token(socket: WebSocket) -> str | None:
    token = _bearer(socket.headers.get("authorization"))
    if token is not None:
        return token
    try:
        async with asyncio.timeout(AUTH_TIMEOUT):
            first = loads(await socket.receive_data(mode="text"))
    except (TimeoutError, msgspec.DecodeError):
        return None
    if isinstance(first, dict) and first.get("type") == "auth" and isinstance(first.get("token"), str):
        return first["token"]
    return None


class Refusal(Exception):
    """A live stream refused before it opens: the WebSocket close code (and its reason, the
    code by default) and the error message said first."""

    def __init__(self, close: int, code: str, message: str, details: Any = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.close, self.code, self.message, self.details, self.reason = close, code, message, details, reason or code


UNAVAILABLE = (TimeoutError, Dropped, ConnectionError, OSError)     # Redis or the database unreachable


def refusal(exc: Exception) -> tuple[int, str, bytes] | None:
    """How every live WebSocket refuses a handshake (`live_socket.handshake`): a bad query, no
    valid token, a route's own `Refusal`, live updates unavailable; None for anything else."""
    if isinstance(exc, ApiError) and exc.status_code == 400:
        exc = Refusal(WS_INVALID, exc.code, exc.detail, exc.details)
    elif isinstance(exc, Unauthorized):
        exc = Refusal(WS_UNAUTHORIZED, "unauthorized", str(exc))
    elif isinstance(exc, UNAVAILABLE):
        exc = Refusal(WS_TRY_LATER, "unavailable", f"live updates are unavailable: {exc}")
    if not isinstance(exc, Refusal):
        return None
    return exc.close, exc.reason, _error(exc.code, exc.message, exc.details)


@websocket("/v1/matches/{match_id:str}/ws", name="match_ws")
async def match_ws(socket: WebSocket, match_id: FromPath[str], after: FromQuery[str | None] = None) -> None:
    unknown = Refusal(WS_NOT_FOUND, "unknown_match", f"no match {match_id!r}", {"match_id": match_id})

    async def open_() -> tuple[Any, LiveSession, str | None, Any]:
        version = live_params("match_id", match_id, after, socket.scope.get("query_string", b""))
        deps = await live_deps(socket.app)
        token = await _ws_token(socket)
        principal = await deps.principal(token)
        refused = await deps.refusal(match_id, principal, "ws")
        if refused is not None and refused.hidden:   # a private table he has no part in
            raise unknown
        if refused is not None:
            raise Refusal(WS_FORBIDDEN, refused.code, refused.message, {"match_id": match_id})
        session = deps.session(match_id, getattr(principal, "player_id", None), version)
        try:
            await session.open()
        except Gone:
            raise unknown from None
        return deps, session, token, principal

    opened = await handshake(socket, open_, refusal)
    if opened is None:
        return
    deps, session, token, principal = opened

    def closing(reason: str | None) -> tuple[int, str]:
        if reason is None:
            return 1000, "match_finished"
        return _ending(session, reason)[0], reason if reason in ENDED else "resync"

    await pump(socket, session, last_words=lambda reason: _ending(session, reason), closing=closing,
               counted=lambda n: deps.opened("websocket", n), dropped=lambda: deps.dropped("websocket"),
               follow=lambda: _follow_caller(deps, session, match_id, token, principal),
               forget=lambda followed: deps.guard.forget(followed))


# --- HTTP stream: SSE or NDJSON -------------------------------------------------------------------

def _refusal(description: str, *refusals: tuple[str, str]) -> ResponseSpec:
    return ResponseSpec(data_container=ErrorOut, description=description, generate_examples=False,
                        examples=[Example(summary=code, value={"code": code, "message": message, "details": {}})
                                  for code, message in refusals])


@get("/v1/matches/{match_id:str}/stream", name="match_stream", tags=["live"], security=BEARER,
     responses={200: ResponseSpec(data_container=str, media_type="application/x-ndjson", generate_examples=False,
                                  description="One JSON message a line (SSE events with Accept: text/event-stream)",
                                  examples=[Example(summary="snapshot, then events", value=STREAM_EXAMPLE)]),
                401: _refusal("No token, or an unknown or revoked one",
                              ("unauthorized", "this token is unknown or was revoked")),
                403: _refusal("Not for this reader: a sealed tournament table, or a privileged read while seated",
                              (visibility.SEALED.code, visibility.SEALED.message),
                              (visibility.PLAYING.code, visibility.PLAYING.message)),
                404: _refusal("No such match", ("match_not_found", "no match '5b0c1f9e-…'")),
                503: _refusal("Live updates (Redis) or the database cannot be reached; retry after Retry-After",
                              ("unavailable", "live updates are unavailable: Connection refused"))})
async def match_stream(request: Request, match_id: PathStr, after: AfterOrNone = None) -> Stream:
    """Live messages of a match: SSE when `Accept` names `text/event-stream`, else NDJSON.
    On SSE a `Last-Event-ID` header (what EventSource sends on reconnect) counts as `after`."""
    deps = await live_deps(request.app)
    token = _bearer(request.headers.get("authorization"))
    try:
        principal = await deps.principal(token)
    except Unauthorized as exc:
        raise HTTPException(status_code=401, detail=str(exc), headers={"WWW-Authenticate": "Bearer"}) from None
    player_id = getattr(principal, "player_id", None)
    refused = await deps.refusal(match_id, principal, "stream")
    if refused is not None and refused.hidden:   # a private table he has no part in
        exc = HTTPException(status_code=404, detail=f"no match {match_id!r}", extra={"match_id": match_id})
        exc.code = "unknown_match"  # type: ignore[attr-defined]
        raise exc
    if refused is not None:
        exc = HTTPException(status_code=403, detail=refused.message, extra={"match_id": match_id})
        exc.code = refused.code  # type: ignore[attr-defined]
        raise exc
    sse, after = transport_of(request, after)
    session = deps.session(match_id, player_id, after)
    try:
        await session.open()
    except Gone:
        exc = HTTPException(status_code=404, detail=f"no match {match_id!r}", extra={"match_id": match_id})
        exc.code = "unknown_match"  # type: ignore[attr-defined]
        raise exc from None
    except UNAVAILABLE as error:  # Redis unreachable
        exc = HTTPException(status_code=503, detail=f"live updates are unavailable: {error}",
                            headers={"Retry-After": "1"})
        exc.code = "unavailable"  # type: ignore[attr-defined]
        raise exc from None
    return streamed(session, sse, last_words=lambda reason: _ending(session, reason)[1], counted=deps.opened,
                    dropped=deps.dropped, follow=lambda: _follow_caller(deps, session, match_id, token, principal),
                    forget=lambda followed: deps.guard.forget(followed))


ROUTES = [match_ws, match_stream]
CHANNELS = (
    Channel("matchSocket", "/v1/matches/{match_id}/ws", "ws",
            "A match as the caller's seat (or a spectator) sees it: the snapshot, then every event; closes 1000 "
            "after match_finished, 4401 unauthorized, 4403 board_sealed, 4404 unknown_match, 4008 resync, "
            "1013 unavailable (docs/live.md).",
            (A.SNAPSHOT, A.EVENT, A.ERROR), (A.AUTH,), A.AFTER),
    Channel("matchStream", "/v1/matches/{match_id}/stream", "http",
            "The same messages as matchSocket on SSE or NDJSON (by Accept); SSE ids are versions and "
            "Last-Event-ID counts as after.", (A.SNAPSHOT, A.EVENT, A.ERROR), (), A.AFTER),
)
