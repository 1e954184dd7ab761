"""The account stream: `GET /v1/stream/me` (SSE or NDJSON by `Accept`) and `WS /v1/stream/me/ws`.

What concerns the caller, wherever it happens: first `{"type":"snapshot","version":S,
"matches":[…],"tournaments":[…]}` (his open, playing and suspended matches with whose turn
it is, his registering and running tournaments), then with `after=S'` the notices
`S' < version <= S`, then live ones, `{"type":"event","version":S,"event":{"type":"your_turn",…}}`.
The version is the account stream's own sequence (one per player), not a match's. Auth as on
the match streams (header, or a WebSocket's first `{"type":"auth","token":…}`); the stream
follows its token (revoked: it ends). `after=` older than `ATOUT_ACCOUNT_RETENTION` (or more
than 1,000 notices back) gets `resync` with `details.reason: "expired"`: reconnect without
`after`. See docs/live.md, "The account stream".

The notices come from the `account_events` projection (its producers are declared by the
features, `Feature(account_events=…)` in services/bootstrap.py); `services.live.account` is one
client's session; the fan-out and token checks are the match streams' (`live_deps`).
"""

from __future__ import annotations

from typing import Any

from litestar import Request, WebSocket, get, websocket
from litestar.exceptions import HTTPException
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.params import FromQuery
from litestar.response import Stream
from prometheus_client import Gauge

from services.http.errors import ApiError
from services.http.schemas import BEARER, AfterOrNone, live_params
from services.live.account import AccountSession, Expired
from services.live.routes.deps import Unauthorized, live_deps
from services.live.routes.http import (
    NDJSON,
    SSE,
    frame_ndjson,
    frame_sse,
    streamed,
    transport_of,
)
from services.live.routes.socket import handshake, pump
from services.live.routes.streams import (
    UNAVAILABLE,
    WS_RESYNC,
    WS_UNAUTHORIZED,
    Refusal,
    _bearer,
    _error,
    _refusal,
    _ws_token,
    refusal,
)

ACCOUNT_STREAMS = Gauge("atout_account_streams", "Account streams open in this process (websocket, sse, ndjson)",
                        ["transport"])
EXAMPLE = ('{"type":"snapshot","version":41,"matches":[{"match_id":"5b0c1f9e-…","game":"belote","status":"playing",'
           '"seats":["N"],"to_act":["N"],"my_turn":true,"version":37}],"tournaments":[]}\n'
           '{"type":"event","version":42,"event":{"type":"your_turn","match_id":"5b0c1f9e-…","match_version":41,'
           '"seat":"N","at":"2026-12-01T14:03:10.120+00:00"}}\n'
           '{"type":"event","version":43,"event":{"type":"match_finished","match_id":"5b0c1f9e-…",'
           '"status":"finished","winner":"NS","match_score":{"NS":1002,"EW":640},"at":"2026-12-01T14:20:01+00:00"}}\n')


def _session(app: Any, deps: Any, player_id: str, after: int | None) -> AccountSession:
    runtime = app.state.runtime
    session = AccountSession(deps.fanout, runtime.pool, app.state.get("account_producers") or (), player_id, after)
    deps.sessions.add(session)   # drained with the match streams at shutdown
    return session


def _expired(after: int | None) -> tuple[str, str, dict[str, Any]]:
    return ("resync", "these notices are no longer kept; reconnect without after= and start from the snapshot",
            {"reason": "expired", "after": after})


def _dropped(session: AccountSession, reason: str) -> bytes:
    return _error("resync", "this stream fell behind; reconnect with after=<last version>",
                  {"reason": reason, "after": session.last}, session.last)


def _follow(deps: Any, session: AccountSession, token: str, principal: Any) -> Any:
    """End the stream when its token is revoked (the process's stream guard)."""
    if deps.guard is None:
        return None

    async def on_change(now: Any) -> bool:
        if now is None and session.client is not None:
            session.client.on_drop = None
            session.client.drop("token_revoked")
            return False
        return True

    return deps.guard.watch(token, principal, on_change)


def _last_words(session: AccountSession, reason: str) -> tuple[int, bytes]:
    if reason == "token_revoked":
        return WS_UNAUTHORIZED, _error("unauthorized", "this token was revoked, or its player erased",
                                       {"reason": reason, "after": session.last}, session.last)
    return WS_RESYNC, _dropped(session, reason)


@websocket("/v1/stream/me/ws", name="account_ws")
async def account_ws(socket: WebSocket, after: FromQuery[str | None] = None) -> None:
    async def open_() -> tuple[Any, AccountSession, str | None, Any]:
        version = live_params("after", "me", after, socket.scope.get("query_string", b""))
        deps = await live_deps(socket.app)
        token = await _ws_token(socket)
        principal = await deps.principal(token)
        session = _session(socket.app, deps, principal.player_id, version)
        try:
            await session.open()
        except Expired:
            raise Refusal(WS_RESYNC, *_expired(version), reason="resync") from None
        return deps, session, token, principal

    opened = await handshake(socket, open_, refusal)
    if opened is None:
        return
    deps, session, token, principal = opened
    assert token is not None
    await pump(socket, session, last_words=lambda reason: _last_words(session, reason),
               closing=lambda reason: (_last_words(session, reason or "ended")[0],
                                       "unauthorized" if reason == "token_revoked" else "resync"),
               counted=lambda n: ACCOUNT_STREAMS.labels("websocket").inc(n), dropped=lambda: deps.dropped("websocket"),
               follow=lambda: _follow(deps, session, token, principal),
               forget=lambda followed: deps.guard.forget(followed))


@get("/v1/stream/me", name="account_stream", tags=["live"], security=BEARER,
     summary="My account stream: your turn, matches started and finished, seats, rounds, rulings",
     responses={200: ResponseSpec(data_container=str, media_type=NDJSON, generate_examples=False,
                                  description="One JSON message a line (SSE events with Accept: text/event-stream): "
                                              "a snapshot, then the caller's notices (docs/live.md)",
                                  examples=[Example(summary="snapshot, then notices", value=EXAMPLE)]),
                400: _refusal("A bad `after`", ("invalid_field", "after must be an integer from 0 to 2^53")),
                401: _refusal("No token, or an unknown or revoked one",
                              ("unauthorized", "this token is unknown or was revoked")),
                503: _refusal("Live updates (Redis) or the database cannot be reached; retry after Retry-After",
                              ("unavailable", "live updates are unavailable: Connection refused"))})
async def account_stream(request: Request, after: AfterOrNone = None) -> Stream:
    """SSE when `Accept` names `text/event-stream`, else NDJSON. On SSE a `Last-Event-ID`
    header (what EventSource sends on reconnect) counts as `after`."""
    deps = await live_deps(request.app)
    token = _bearer(request.headers.get("authorization"))
    try:
        principal = await deps.principal(token)
    except Unauthorized as exc:
        raise HTTPException(status_code=401, detail=str(exc), headers={"WWW-Authenticate": "Bearer"}) from None
    sse, after = transport_of(request, after)
    session = _session(request.app, deps, principal.player_id, after)
    try:
        await session.open()
    except Expired:
        code, message, details = _expired(after)
        return Stream(iter([(frame_sse if sse else frame_ndjson)(_error(code, message, details))]),
                      media_type=SSE if sse else NDJSON, headers={"Cache-Control": "no-cache"})
    except UNAVAILABLE as error:
        raise ApiError(503, "unavailable", f"live updates are unavailable: {error}",
                       headers={"Retry-After": "1"}) from None
    assert token is not None
    return streamed(session, sse, last_words=lambda reason: _last_words(session, reason)[1],
                    counted=lambda transport, n: ACCOUNT_STREAMS.labels(transport).inc(n), dropped=deps.dropped,
                    follow=lambda: _follow(deps, session, token, principal),
                    forget=lambda followed: deps.guard.forget(followed))
