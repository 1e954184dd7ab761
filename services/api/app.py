"""The Litestar application factory.

The app is built from explicit lists (routes, startup/shutdown hooks, lifespan
context managers) so later features plug in by adding to `ROUTES` or passing hooks,
without this file learning about them. Settings travel on `app.state.settings`
(already resolved: embedded server URLs filled in), never through globals.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from http import HTTPStatus
from typing import Any

from litestar import Litestar, Request, Response
from litestar.datastructures import State
from litestar.exceptions import HTTPException

from infra.settings import Settings
from services.api import health

log = logging.getLogger(__name__)

# Route handlers (functions, controllers or routers) mounted on every app.
ROUTES: list[Any] = [*health.ROUTES]


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    """The one error shape of the public contract: `{"code","message","details"}`."""
    return {"code": code, "message": message, "details": details if details is not None else {}}


def _status_code_name(status: int) -> str:
    try:
        return HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")
    except ValueError:
        return "error"


def _http_exception(_: Request, exc: HTTPException) -> Response:
    code = getattr(exc, "code", None) or _status_code_name(exc.status_code)
    details = exc.extra if exc.extra else None
    return Response(error_body(code, exc.detail, details), status_code=exc.status_code, headers=exc.headers)


def _unhandled(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return Response(error_body("internal_error", "internal server error"), status_code=500)


def create_app(
    settings: Settings,
    *,
    route_handlers: Sequence[Any] = (),
    on_startup: Sequence[Callable[..., Any]] = (),
    on_shutdown: Sequence[Callable[..., Any]] = (),
    lifespan: Sequence[Callable[..., Any]] = (),
    debug: bool = False,
) -> Litestar:
    """Build the app; `route_handlers` and hooks are added after the built-in ones."""
    return Litestar(
        route_handlers=[*ROUTES, *route_handlers],
        on_startup=list(on_startup),
        on_shutdown=list(on_shutdown),
        lifespan=list(lifespan),
        state=State({"settings": settings}),
        exception_handlers={HTTPException: _http_exception, Exception: _unhandled},
        debug=debug,
    )
