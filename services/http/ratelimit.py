"""Rate limits in front of routes: who a caller is to the limiter (`infra.ratelimit` counts,
and says why it fails open), and the 429 with `Retry-After` past the limit.
"""

from __future__ import annotations

import math

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from infra.ratelimit import RateLimit
from services.http.auth import runtime_of
from services.http.errors import ApiError


def caller_key(connection: ASGIConnection) -> str:
    principal = connection.state.get("principal")
    if principal is not None:
        return f"t:{principal.token_id}"
    client = connection.client
    return f"ip:{client.host if client else 'unknown'}"


async def rate_limited(connection: ASGIConnection, _: BaseRouteHandler) -> None:
    """Guard (after authentication): 429 with Retry-After once the caller's window is full."""
    wait = await runtime_of(connection.app.state).limiter.hit(caller_key(connection))
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise ApiError(429, "rate_limited", f"too many requests; retry in {seconds}s",
                       {"retry_after": seconds}, headers={"Retry-After": str(seconds)})


REGISTRATION_WINDOW = 3600.0


async def registration_limited(connection: ASGIConnection, _: BaseRouteHandler) -> None:
    """Guard of registration: at most ATOUT_REGISTRATIONS_PER_HOUR per client address per
    clock hour (429 `registration_limited` with Retry-After past it); off when that setting is
    0 or rate limiting is off (ATOUT_RATE_LIMIT_REQUESTS=0)."""
    runtime = runtime_of(connection.app.state)
    per_hour = runtime.settings.registrations_per_hour
    wait = await runtime.limiter.hit("reg:" + caller_key(connection), RateLimit(per_hour, REGISTRATION_WINDOW))
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise ApiError(429, "registration_limited", f"at most {per_hour} registrations an hour from one address; "
                       f"retry in {seconds}s", {"retry_after": seconds, "limit": per_hour},
                       headers={"Retry-After": str(seconds)})
