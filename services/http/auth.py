"""Bearer tokens to principals, and the guards that put them in front of routes.

Authentication is a guard, not a handler argument, because Litestar runs guards before it
decodes the body: so a missing token answers 401 before a malformed body answers 400, as
the contract's order of checks requires. The principal is kept on the connection's state
and handed to handlers by the `principal` dependency.

`principal_from_token(app_state, token)` is the one way to turn a token into a caller:
the live streams (services/live/routes/streams.py) use it too, for a WebSocket's first message.
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency, Provide
from litestar.handlers import BaseRouteHandler

from infra.players import Principal
from services.http.errors import ApiError

__all__ = ["Principal", "principal_from_token", "authenticate", "authenticated", "requires", "runtime_of",
           "bearer_token", "DEPENDENCIES"]


def runtime_of(app_state: Any) -> Any:
    """The bootstrap Runtime of this app (pools, services), or 503 while there is none."""
    runtime = getattr(app_state, "runtime", None)
    if runtime is None:
        raise ApiError(503, "not_ready", "the service is starting or has no database configured")
    return runtime


async def principal_from_token(app_state: Any, token: str | None) -> Principal | None:
    """The caller a token stands for, or None for no token, an unknown or a revoked one."""
    if not token:
        return None
    return await runtime_of(app_state).players.principal(token)


def bearer_token(headers: Any) -> str | None:
    value = headers.get("authorization") or ""
    scheme, _, token = value.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


async def authenticate(connection: ASGIConnection) -> Principal:
    """The caller of this request (cached on the request), or 401."""
    cached = connection.state.get("principal")
    if cached is not None:
        return cached
    token = bearer_token(connection.headers)
    if token is None:
        raise ApiError(401, "unauthorized", "send 'Authorization: Bearer <token>' (POST /v1/players gives one)",
                       headers={"WWW-Authenticate": "Bearer"})
    principal = await principal_from_token(connection.app.state, token)
    if principal is None:
        raise ApiError(401, "invalid_token", "this token is unknown or was revoked",
                       headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
    connection.state["principal"] = principal
    connection.state["token"] = token
    return principal


async def authenticated(connection: ASGIConnection, _: BaseRouteHandler) -> None:
    """Guard: a valid bearer token (401 otherwise)."""
    await authenticate(connection)


def requires(role: str) -> Any:
    """Guard factory: the caller's role is `role` or above (403 otherwise)."""

    async def guard(connection: ASGIConnection, _: BaseRouteHandler) -> None:
        principal = await authenticate(connection)
        if not principal.has_role(role):
            raise ApiError(403, "forbidden", f"this needs the {role} role", {"required_role": role,
                                                                              "role": principal.role})

    guard.__name__ = f"requires_{role}"
    return guard


async def _provide_principal(request: Request, runtime: NamedDependency[Any]) -> Principal:
    """`runtime` is asked for only to order the two: dependencies that do not depend on each
    other are resolved in an anyio task group, a task group and two tasks per request."""
    return await authenticate(request)


async def _provide_runtime(request: Request) -> Any:
    return runtime_of(request.app.state)


DEPENDENCIES = {"principal": Provide(_provide_principal), "runtime": Provide(_provide_runtime)}
