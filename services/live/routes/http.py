"""The HTTP side of a live stream — a match, its chat, an account — once its session is open:
SSE when `Accept` names `text/event-stream` (a `Last-Event-ID` counts as `after`, as
EventSource sends it on reconnect; a comment every `KEEPALIVE` seconds on a quiet stream),
else NDJSON; the session's messages framed until it ends or drops the client (the stream's
last words then), and what was set up undone whatever happened (the guard's watch, the
gauge, the session).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

from litestar import Request
from litestar.response import Stream

from infra.fanout import Dropped, envelope
from services.http.query_once import version

KEEPALIVE = 15.0         # seconds between SSE comments on a quiet stream
SSE, NDJSON = "text/event-stream", "application/x-ndjson"


def frame_sse(message: bytes | None) -> bytes:
    if message is None:
        return b": keep-alive\n\n"
    version = envelope(message).version
    return (b"data: %s\n\n" % message) if version is None else (b"id: %d\ndata: %s\n\n" % (version, message))


def frame_ndjson(message: bytes | None) -> bytes:
    return b"" if message is None else message + b"\n"


def transport_of(request: Request, after: int | None) -> tuple[bool, int | None]:
    """Whether the reader asked for SSE, and where to resume (`after`, else an SSE reader's
    `Last-Event-ID`, read by the rule of `after`: another value is a 400 naming the header)."""
    sse = SSE in request.headers.get("accept", "")
    last_id = request.headers.get("last-event-id", "").strip()
    if after is None and sse and last_id:
        after = version(last_id, "Last-Event-ID", "header")
    return sse, after


def streamed(session: Any, sse: bool, *, last_words: Callable[[str], bytes], counted: Callable[[str, int], None],
             dropped: Callable[[str], None], follow: Callable[[], Any], forget: Callable[[Any], None]) -> Stream:
    """The response serving `session` to its end. `last_words(reason)`: the message sent when
    the session drops the reader; `counted(transport, ±1)`: the gauge; `dropped(transport)`
    counts a drop; `follow()`: the guard's watch on the caller (a handle, or None), undone by
    `forget(handle)`."""
    frame = frame_sse if sse else frame_ndjson
    transport = "sse" if sse else "ndjson"
    assert session.client is not None, "open the session first"
    session.client.on_drop = lambda _: dropped(transport)

    async def body() -> AsyncIterator[bytes]:
        counted(transport, 1)
        followed = follow()
        try:
            async for message in session.messages(KEEPALIVE if sse else None):
                yield frame(message)
        except Dropped as exc:
            yield frame(last_words(str(exc) or "resync"))
        finally:
            if followed is not None:
                forget(followed)
            counted(transport, -1)
            await session.close()

    return Stream(body(), media_type=SSE if sse else NDJSON,
                  headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
