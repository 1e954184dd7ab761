"""The process's Redis client under a burst: more commands at once than it has connections
wait for one (each is answered) instead of failing with "Too many connections", which would
drop the projector's wake-ups and let the rate limit fail open when the API is busiest."""

from __future__ import annotations

import asyncio
import uuid

import redis.asyncio as aioredis

from services.bootstrap import REDIS_CONNECTIONS, shared_redis
import pytest

pytestmark = [pytest.mark.redis]


async def test_a_burst_beyond_the_pool_waits_and_every_command_is_answered(redis_url: str) -> None:
    client = shared_redis(redis_url)
    key = f"atout-test-empty-{uuid.uuid4()}"
    try:
        # Each BLPOP holds its connection for 50 ms: three times the pool at once.
        answers = await asyncio.gather(*(client.blpop([key], timeout=0.05) for _ in range(3 * REDIS_CONNECTIONS)))
        assert answers == [None] * (3 * REDIS_CONNECTIONS)
    finally:
        await client.aclose()


async def test_redis_py_s_default_pool_fails_past_its_cap(redis_url: str) -> None:
    """Why the shared client is a blocking pool: the default one raises instead of waiting."""
    client = aioredis.from_url(redis_url, max_connections=4)
    key = f"atout-test-empty-{uuid.uuid4()}"
    try:
        answers = await asyncio.gather(*(client.blpop([key], timeout=0.05) for _ in range(12)),
                                       return_exceptions=True)
        assert any(isinstance(a, aioredis.ConnectionError) for a in answers), answers
    finally:
        await client.aclose()
