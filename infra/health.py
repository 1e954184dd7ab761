"""Readiness checks: can this process reach Postgres and Redis right now?

Each check opens its own short-lived connection instead of borrowing from a pool,
so a probe tells the truth about the server even when a pool is exhausted or not
yet created, and works before any later work wires pools into the app.
"""

from __future__ import annotations

import asyncio

import asyncpg
import msgspec
import redis.asyncio as aioredis

DEFAULT_TIMEOUT = 2.0


class CheckResult(msgspec.Struct, frozen=True):
    ok: bool
    error: str | None = None


async def check_postgres(url: str, timeout: float = DEFAULT_TIMEOUT) -> CheckResult:
    """`SELECT 1` on a fresh asyncpg connection."""
    try:
        async with asyncio.timeout(timeout):
            conn = await asyncpg.connect(url, timeout=timeout)
            try:
                await conn.fetchval("SELECT 1")
            finally:
                await conn.close(timeout=timeout)
    except Exception as exc:  # any failure means "not ready", and the reason is reported
        return CheckResult(False, _describe(exc))
    return CheckResult(True)


async def check_redis(url: str, timeout: float = DEFAULT_TIMEOUT) -> CheckResult:
    """`PING` on a fresh redis connection."""
    client = aioredis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    try:
        async with asyncio.timeout(timeout):
            await client.ping()
    except Exception as exc:
        return CheckResult(False, _describe(exc))
    finally:
        await client.aclose()
    return CheckResult(True)


async def check_all(database_url: str | None, redis_url: str | None,
                    timeout: float = DEFAULT_TIMEOUT) -> dict[str, CheckResult]:
    """Both checks, concurrently, so a probe costs one timeout at worst, not two."""
    async def missing() -> CheckResult:
        return CheckResult(False, "not configured")

    pg, rd = await asyncio.gather(
        check_postgres(database_url, timeout) if database_url else missing(),
        check_redis(redis_url, timeout) if redis_url else missing(),
    )
    return {"postgres": pg, "redis": rd}


def _describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "timed out"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
