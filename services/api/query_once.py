"""Each query parameter at most once.

Every parameter of the API is a single value (the document has no array in a query), but
Litestar reads `?after=1&after=7` as the last one, so a request the document calls invalid
would be answered as if it had asked once. An ASGI middleware refuses it first, on every
HTTP route: 400 `invalid_field` naming the parameter. A WebSocket cannot answer a 400 at its
handshake: it says so in its first message and closes 4400, as for any bad parameter
(`services.api.schemas.live_params`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any
from urllib.parse import parse_qsl

import msgspec
from litestar.types import ASGIApp, Receive, Scope, Send

from services.api.errors import error_body


def repeated(query_string: bytes) -> str | None:
    """The first parameter given more than once, or None."""
    if b"&" not in query_string:
        return None
    counts = Counter(name for name, _ in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True))
    return next((name for name, n in counts.items() if n > 1), None)


def refusal(name: str) -> tuple[str, str, dict[str, Any]]:
    return "invalid_field", f"{name}: given more than once; each query parameter is given once", {
        "field": name, "source": "query"}


class QueryOnce:
    """The middleware (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        name = repeated(scope.get("query_string") or b"") if scope["type"] == "http" else None
        if name is None:
            await self.app(scope, receive, send)
            return
        body = msgspec.json.encode(error_body(*refusal(name)))
        await send({"type": "http.response.start", "status": 400,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
