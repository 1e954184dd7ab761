"""uvicorn's HTTP protocol with a deadline on a request's line and headers.

uvicorn times out an idle kept-alive connection (`timeout_keep_alive`), but nothing bounds a
request whose headers arrive a byte at a time — or stop half-way: each such connection is held
as long as its client likes (slowloris), and a few hundred of them use up the server's
connections and file descriptors. So a connection's request must have sent its whole head
within `header_timeout` seconds (`ATOUT_HEADER_TIMEOUT`, 10 by default) of the connection
opening, or of the request's first byte on a kept-alive connection; otherwise it is answered
408 `request_timeout` and closed. Its body and what follows (a stream, a WebSocket) are not
bounded by this: only the head, which every honest client sends at once.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import msgspec
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

log = logging.getLogger("atout.serve")


def refusal(timeout: float) -> bytes:
    body = msgspec.json.encode({"code": "request_timeout", "message": f"the request's headers did not arrive within "
                                f"{timeout:g} s", "details": {"header_timeout": timeout}})
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(body), body))


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """See the module docstring; `protocol(timeout)` makes the class uvicorn is given."""

    header_timeout = 10.0
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:   # the one before is still answered
            self._arm()
            return
        log.info("closed a connection whose request headers took over %gs", self.header_timeout,
                 extra={"client": "%s:%d" % self.client if self.client else None})
        self.transport.write(refusal(self.header_timeout))
        self.transport.close()


def protocol(timeout: float) -> type[HeaderTimeoutProtocol]:
    return type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout": timeout})
