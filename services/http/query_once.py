"""Each query parameter at most once, and `after` read by one rule on every route.

Every parameter of the API is a single value (the document has no array in a query), but
Litestar reads `?after=1&after=7` as the last one, so a request the document calls invalid
would be answered as if it had asked once. An ASGI middleware refuses it first, on every
HTTP route: 400 `invalid_field` naming the parameter. A WebSocket cannot answer a 400 at its
handshake: it says so in its first message and closes 4400, as for any bad parameter
(`services.http.schemas.live_params`).

`after` (and an SSE reader's `Last-Event-ID`) is a version: plain decimal digits without a
leading zero, from 0 to `MAX_VERSION` (the largest integer every JSON client holds exactly). Litestar's integer parameters also read `1e1` and `1.0`, and Python's `int()`
fails on more than 4,300 digits, so every route and socket reads it with `version` instead:
anything else is 400 `invalid_field` naming the field (a socket: that error, then 4400).
"""

from __future__ import annotations

from collections import Counter
from typing import Any
from urllib.parse import parse_qsl

import msgspec
from litestar.types import ASGIApp, Receive, Scope, Send

from services.http.errors import ApiError, error_body, malformed

MAX_VERSION = 2**53
VERSION_DIGITS = len(str(MAX_VERSION))


def version(raw: str, field: str = "after", source: str = "query") -> int:
    """`raw` as a version, or ApiError 400 naming `field` (see the module docstring)."""
    digits = 0 < len(raw) <= VERSION_DIGITS and raw.isascii() and raw.isdigit() and (raw == "0" or raw[0] != "0")
    if digits and int(raw) <= MAX_VERSION:
        return int(raw)
    raise malformed(field, f"{field}: expected an integer from 0 to {MAX_VERSION} in decimal digits without a "
                           f"leading zero, got {raw[:40]!r}", source=source)


def repeated(query_string: bytes) -> str | None:
    """The first parameter given more than once, or None."""
    if b"&" not in query_string:
        return None
    counts = Counter(name for name, _ in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True))
    return next((name for name, n in counts.items() if n > 1), None)


def bad_after(query_string: bytes) -> ApiError | None:
    """The refusal of an `after` that is not a version, or None."""
    if b"after" not in query_string:
        return None
    for name, value in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True):
        if name == "after":
            try:
                version(value)
            except ApiError as error:
                return error
    return None


def _takes_after(scope: Scope) -> bool:
    handler = scope.get("route_handler")
    return handler is not None and "after" in handler.parsed_fn_signature.parameters


def refusal(name: str) -> tuple[str, str, dict[str, Any]]:
    return "invalid_field", f"{name}: given more than once; each query parameter is given once", {
        "field": name, "source": "query"}


class QueryOnce:
    """The middleware (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        query = (scope.get("query_string") or b"") if scope["type"] == "http" else b""
        name = repeated(query)
        after = bad_after(query) if name is None and _takes_after(scope) else None
        if name is None and after is None:
            await self.app(scope, receive, send)
            return
        said = refusal(name) if name is not None else (after.code, after.detail, after.details)
        body = msgspec.json.encode(error_body(*said))
        await send({"type": "http.response.start", "status": 400,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
