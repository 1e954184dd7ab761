"""The WebSocket side of a live stream — a match, its chat, an account: the handshake (accept,
open the session, or say why not in one error message and close with the stream's code), then
the session's messages until the client goes or the session drops it, closed with the
stream's own code and reason, and what was set up undone whatever happened (the guard's
watch, the gauge, the session).

A client that stops reading (its TCP window full) leaves the sender stuck in a write, unable
to see its own drop: a drop therefore also cancels the sender after `STUCK_SENDER` seconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from litestar import WebSocket
from litestar.exceptions import WebSocketDisconnect

from infra.fanout import Dropped
from services.live.routes.deps import until_disconnect

STUCK_SENDER = 2.0       # seconds a dropped WebSocket's sender may take to say so and close

T = TypeVar("T")
Refuse = Callable[[Exception], "tuple[int, str, bytes] | None"]


async def handshake(socket: WebSocket, open_: Callable[[], Awaitable[T]], refuse: Refuse) -> T | None:
    """Accept `socket` and open its stream with `open_`. An error `refuse` maps to a close code,
    its reason and the one error message is said, and the socket closed: None then, as when
    the client left during the handshake. Any other error propagates."""
    await socket.accept()
    try:
        return await open_()
    except WebSocketDisconnect:
        return None
    except Exception as exc:
        refused = refuse(exc)
        if refused is None:
            raise
        close, reason, message = refused
        await socket.send_data(message)
        await socket.close(close, reason)
        return None


async def pump(socket: WebSocket, session: Any, *, last_words: Callable[[str], tuple[int, bytes]],
               closing: Callable[[str | None], tuple[int, str]], counted: Callable[[int], None],
               dropped: Callable[[], None], follow: Callable[[], Any], forget: Callable[[Any], None]) -> None:
    """Serve `session` on `socket` to its end. `last_words(reason)`: the close code and the
    last message sent when the session drops the client; `closing(reason)`: the close code
    and text once the sender is done (`None`: the stream ended); `counted(±1)`: the
    transport's gauge; `dropped()`: counts a drop; `follow()`: the guard's watch on the
    caller (a handle, or None), undone by `forget(handle)`."""
    counted(1)
    watcher = asyncio.create_task(until_disconnect(socket))
    sender = asyncio.create_task(_send_all(socket, session, last_words))

    def on_drop(reason: str) -> None:
        dropped()
        asyncio.get_running_loop().call_later(STUCK_SENDER, lambda: sender.done() or sender.cancel())

    assert session.client is not None
    session.client.on_drop = on_drop
    followed = follow()
    try:
        done, _ = await asyncio.wait({watcher, sender}, return_when=asyncio.FIRST_COMPLETED)
        if sender in done and not sender.cancelled() and sender.exception() is None:
            await socket.close(*closing(sender.result()))
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the client went away while we closed
    finally:
        if followed is not None:
            forget(followed)
        for task in (watcher, sender):
            task.cancel()
        await asyncio.gather(watcher, sender, return_exceptions=True)
        counted(-1)
        await session.close()


async def _send_all(socket: WebSocket, session: Any, last_words: Callable[[str], tuple[int, bytes]]) -> str | None:
    """Send until the stream ends (None) or the client is dropped (the reason)."""
    try:
        async for message in session.messages():
            await socket.send({"type": "websocket.send", "text": message.decode()})  # type: ignore[union-attr]
    except Dropped as exc:
        reason = str(exc) or "resync"
        await socket.send_data(last_words(reason)[1])
        return reason
    return None
