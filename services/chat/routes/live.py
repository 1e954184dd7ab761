"""The live table chat: `GET /v1/matches/{id}/chat/stream` (SSE or NDJSON) and `WS …/chat/ws`.

The match streams' conventions (services/live/routes/streams.py): auth by header or a WebSocket's first
`{"type":"auth","token":…}`, `after=` to resume, SSE ids are versions and `Last-Event-ID`
counts as `after`, every message has `type` and `version` — here the chat stream's version,
not the match's. First `{"type":"snapshot","version":V,"view":{…}}` (where the reader writes,
whether free text is his now, the presets), then with `after=` the messages after it, then
live `{"type":"event","version":V,"event":{"type":"chat_message",…}}`, `"event": null` for a
message this reader may not read. The stream does not end with the match (the chat goes on);
`resync` (WebSocket 4008) when it falls behind or its reader sat down (reason `seated`).
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, WebSocket, get, websocket
from litestar.exceptions import HTTPException
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.params import FromPath, FromQuery
from litestar.response import Stream

from services.chat import service as chats
from services.chat.session import ChatSession
from services.http import asyncapi as A
from services.http.asyncapi import Channel, Message
from services.http.errors import ApiError
from services.http.schemas import BEARER, AfterOrNone, PathStr, live_params
from services.live.routes.deps import Unauthorized, live_deps
from services.live.routes.http import NDJSON, streamed, transport_of
from services.live.routes.socket import handshake, pump
from services.live.routes.streams import (
    UNAVAILABLE,
    WS_FORBIDDEN,
    WS_NOT_FOUND,
    WS_RESYNC,
    Refusal,
    _bearer,
    _ending,
    _follow_caller,
    _refusal,
    _ws_token,
    refusal,
)
from services.matches.service import UnknownMatch
from services.refusals import Refused
from services.visibility import seat_of

EXAMPLE = ('{"type":"snapshot","version":2,"view":{"match_id":"5b0c1f9e-…","status":"playing","phase":"playing",'
           '"seat":"E","channel":"table","free_text":false,"presets":["hello","well_played"],"max_text":280,'
           '"version":2}}\n'
           '{"type":"event","version":3,"event":{"type":"chat_message","message_id":"2c9a…","channel":"table",'
           '"player_id":"0f8e…","name":"Ada","seat":"N","preset":"well_played","text":null,"phase":"playing",'
           '"match_version":41,"at":"2026-12-01T14:03:10.120+00:00"}}\n'
           '{"type":"event","version":4,"event":null}\n')


# --- the messages, for the AsyncAPI document -------------------------------------------------

class ChatView(msgspec.Struct):
    match_id: str
    status: str
    phase: str                  # waiting, playing, over
    seat: str | None            # the reader's seat; None: a spectator
    channel: str                # where he writes: table (a seat) or spectators
    free_text: bool             # False for a seat while the match is played: presets only
    presets: list[str]
    max_text: int
    version: int


class ChatSnapshot(msgspec.Struct, tag_field="type", tag="snapshot"):
    """A chat stream's first message: where the reader writes, at the chat's `version`."""

    version: int
    view: ChatView


class ChatMessage(msgspec.Struct, tag_field="type", tag="chat_message"):
    message_id: str
    channel: str                # table or spectators
    player_id: str
    name: str | None            # None once the player is erased
    seat: str | None
    preset: str | None          # a catalogue code (clients translate it), or
    text: str | None            # free text
    phase: str                  # the match's when it was sent: waiting, playing, over
    match_version: int
    at: str


class ChatEvent(msgspec.Struct, tag_field="type", tag="event"):
    """One message with its chat-stream version; `event` null for one this reader may not read."""

    version: int
    event: ChatMessage | None


CHANNELS = (
    Channel("chatSocket", "/v1/matches/{match_id}/chat/ws", "ws",
            "A match's table chat as the caller may read it: the snapshot, then every message (null for one he may "
            "not read); versions are the chat stream's. Closes 4401 unauthorized, 4403 board_sealed, 4404 "
            "unknown_match, 4008 resync (reason seated: reconnect as the seat), 1013 unavailable (docs/chat.md).",
            (Message("chatSnapshot", ChatSnapshot, "where the reader writes, and the presets"),
             Message("chatEvent", ChatEvent, "one chat message, or null"), A.ERROR), (A.AUTH,), 
            {"after": "resume: only the messages after this chat version follow the snapshot"}),
    Channel("chatStream", "/v1/matches/{match_id}/chat/stream", "http",
            "The same messages as chatSocket on SSE or NDJSON (by Accept); SSE ids are versions and Last-Event-ID "
            "counts as after.",
            (Message("chatSnapshot", ChatSnapshot, "where the reader writes, and the presets"),
             Message("chatEvent", ChatEvent, "one chat message, or null"), A.ERROR), (),
            {"after": "resume: only the messages after this chat version follow the snapshot"}),
)


# --- sessions ---------------------------------------------------------------------------------

async def _session(app: Any, deps: Any, match_id: str, principal: Any, after: int | None, route: str) -> ChatSession:
    """Raises UnknownMatch, Refused (403), or the fan-out's errors."""
    runtime = app.state.runtime
    service = chats.ChatService(runtime)
    state, reader = await service.reader(match_id, principal, route)

    async def seated_now() -> bool:
        return seat_of(await runtime.matches.load(match_id), principal.player_id) is not None

    async def blocked_among(senders: list[str]) -> frozenset[str]:
        return await chats.blocked_among(runtime, principal.player_id, senders)

    session = ChatSession(deps.fanout, service, state, reader, after, seated_now, blocked_among)
    await session.open()
    deps.sessions.add(session)    # drained with the match streams at shutdown
    return session


@websocket("/v1/matches/{match_id:str}/chat/ws", name="chat_ws")
async def chat_ws(socket: WebSocket, match_id: FromPath[str], after: FromQuery[str | None] = None) -> None:
    async def open_() -> tuple[Any, ChatSession, str | None, Any]:
        version = live_params("match_id", match_id, after, socket.scope.get("query_string", b""))
        deps = await live_deps(socket.app)
        token = await _ws_token(socket)
        principal = await deps.principal(token)
        try:
            session = await _session(socket.app, deps, match_id, principal, version, "chat_ws")
        except Refused as refused:
            raise Refusal(WS_FORBIDDEN, refused.code, refused.message, {"match_id": match_id}) from None
        except UnknownMatch:
            raise Refusal(WS_NOT_FOUND, "unknown_match", f"no match {match_id!r}", {"match_id": match_id}) from None
        return deps, session, token, principal

    opened = await handshake(socket, open_, refusal)
    if opened is None:
        return
    deps, session, token, principal = opened

    def closing(reason: str | None) -> tuple[int, str]:
        code = _ending(session, reason or "ended")[0]  # type: ignore[arg-type]
        return code, (reason or "ended") if code != WS_RESYNC else "resync"

    await pump(socket, session, last_words=lambda reason: _ending(session, reason),  # type: ignore[arg-type]
               closing=closing, counted=lambda n: deps.opened("websocket", n), dropped=lambda: deps.dropped("websocket"),
               follow=lambda: _follow_caller(deps, session, match_id, token, principal),
               forget=lambda followed: deps.guard.forget(followed))


@get("/v1/matches/{match_id:str}/chat/stream", name="chat_stream", tags=["live"], security=BEARER,
     summary="The match's chat, live (SSE or NDJSON by Accept)",
     responses={200: ResponseSpec(data_container=str, media_type=NDJSON, generate_examples=False,
                                  description="One JSON message a line (SSE events with Accept: text/event-stream): "
                                              "a snapshot, then the chat's messages (docs/chat.md)",
                                  examples=[Example(summary="snapshot, then messages", value=EXAMPLE)]),
                400: _refusal("A bad `after`", ("invalid_field", "after must be an integer from 0 to 2^53")),
                401: _refusal("No token, or an unknown or revoked one",
                              ("unauthorized", "this token is unknown or was revoked")),
                403: _refusal("Not for this reader: a sealed tournament table, or a privileged read while playing "
                              "in its tournament", ("board_sealed", "a tournament board is shown only to its seats"),
                              ("privileged_while_playing", "you read only what your seat may see")),
                404: _refusal("No such match", ("unknown_match", "no match '5b0c1f9e-…'")),
                503: _refusal("Live updates (Redis) or the database cannot be reached; retry after Retry-After",
                              ("unavailable", "live updates are unavailable: Connection refused"))})
async def chat_stream(request: Request, match_id: PathStr, after: AfterOrNone = None) -> Stream:
    """SSE when `Accept` names `text/event-stream`, else NDJSON. On SSE a `Last-Event-ID`
    header (what EventSource sends on reconnect) counts as `after`."""
    deps = await live_deps(request.app)
    token = _bearer(request.headers.get("authorization"))
    try:
        principal = await deps.principal(token)
    except Unauthorized as exc:
        raise HTTPException(status_code=401, detail=str(exc), headers={"WWW-Authenticate": "Bearer"}) from None
    sse, after = transport_of(request, after)
    try:
        session = await _session(request.app, deps, match_id, principal, after, "chat_stream")
    except UNAVAILABLE as error:
        raise ApiError(503, "unavailable", f"live updates are unavailable: {error}",
                       headers={"Retry-After": "1"}) from None
    return streamed(session, sse, last_words=lambda reason: _ending(session, reason)[1],  # type: ignore[arg-type]
                    counted=deps.opened, dropped=deps.dropped,
                    follow=lambda: _follow_caller(deps, session, match_id, token, principal),
                    forget=lambda followed: deps.guard.forget(followed))


ROUTES = [chat_ws, chat_stream]
