"""The shared fixtures reach real servers, and keep each session to itself."""

from __future__ import annotations

import asyncio

import pytest

pytestmark = [pytest.mark.db, pytest.mark.redis]


async def test_postgres_round_trip(pg) -> None:
    await pg.execute("CREATE TABLE fixture_probe (id int PRIMARY KEY, note text NOT NULL)")
    try:
        await pg.executemany("INSERT INTO fixture_probe VALUES ($1, $2)", [(1, "one"), (2, "two")])
        rows = await pg.fetch("SELECT id, note FROM fixture_probe ORDER BY id")
        assert [tuple(r) for r in rows] == [(1, "one"), (2, "two")]
    finally:
        await pg.execute("DROP TABLE fixture_probe")


async def test_session_database_is_throw_away(pg, database_url: str) -> None:
    name = await pg.fetchval("SELECT current_database()")
    assert name not in {"postgres", "template0", "template1"}
    assert name.startswith("atout_test_")
    assert database_url.split("?")[0].endswith("/" + name)


async def test_redis_set_get_under_prefix(redis_client, redis_prefix: str) -> None:
    key = f"{redis_prefix}:probe"
    await redis_client.set(key, b"value", ex=60)
    assert await redis_client.get(key) == b"value"
    assert redis_prefix.startswith("atout_test_")


async def test_redis_pubsub_round_trip(redis_url: str, redis_client, redis_prefix: str) -> None:
    import redis.asyncio as aioredis

    channel = f"{redis_prefix}:events"
    subscriber = aioredis.from_url(redis_url)
    pubsub = subscriber.pubsub()
    try:
        await pubsub.subscribe(channel)
        confirm = await pubsub.get_message(timeout=5)
        assert confirm is not None and confirm["type"] == "subscribe"
        assert await redis_client.publish(channel, b"hello") == 1
        message = None
        async with asyncio.timeout(5):
            while message is None:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
        assert message["channel"] == channel.encode()
        assert message["data"] == b"hello"
    finally:
        await pubsub.aclose()
        await subscriber.aclose()
