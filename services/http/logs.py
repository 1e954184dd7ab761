"""Structured JSON logs, one object per line, each carrying the request's correlation id.

The correlation id is the `command_id` of an action (the client's own id, so a client's
retry, the API's log line, the event's metadata and a worker's log line all share it) or,
for other requests, the `X-Request-Id` header or a fresh id. It lives in a context
variable so that any logger called while serving the request picks it up, and it is sent
back as `X-Correlation-Id`.
"""

from __future__ import annotations

import contextvars
import json
import logging
import time
import uuid
from typing import Any

CORRELATION_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("correlation_id", default=None)

# Attributes every LogRecord has; anything else on a record came from `extra=` and is logged.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}


def bind(correlation_id: str) -> None:
    CORRELATION_ID.set(correlation_id)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        correlation = CORRELATION_ID.get()
        if correlation is not None:
            entry["correlation_id"] = correlation
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure(level: str = "info") -> None:
    """JSON lines on stderr for this process (uvicorn's loggers included)."""
    numeric = logging.DEBUG if level == "trace" else getattr(logging, level.upper(), logging.INFO)
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(numeric)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    if numeric > logging.DEBUG:
        logging.getLogger("pgserver").setLevel(logging.WARNING)


class CorrelationMiddleware:
    """Pure ASGI: bind a correlation id per HTTP request and echo it in the response."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = dict(scope.get("headers") or ()).get(b"x-request-id", b"").decode("latin-1")[:100]
        token = CORRELATION_ID.set(incoming or uuid.uuid4().hex)

        async def send_with_id(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or ())
                headers.append((b"x-correlation-id", (CORRELATION_ID.get() or "").encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            CORRELATION_ID.reset(token)
