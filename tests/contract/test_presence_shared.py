"""Presence shared by replicas: two `SharedPresence`s (two API processes) on one Redis and
one store. A player connected through either counts as connected; the last connection
closed anywhere records the disconnect; a replica that dies without closing anything has
its claims run out and swept into a disconnect; and the stream settles to the truth
whatever order the replicas' writes land in."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
import redis.asyncio as aioredis

from infra.presence import SEAT_CONNECTED, SEAT_DISCONNECTED, away, last_of, record
from infra.presence_shared import SharedPresence
from infra.store import PostgresEventStore, create_pool

pytestmark = [pytest.mark.db, pytest.mark.redis]

TTL = 1.2


@pytest.fixture
async def store(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, min_size=1, max_size=4)
    yield PostgresEventStore(pool)
    await pool.close()


@pytest.fixture
async def replicas(redis_url: str, redis_prefix: str, store):
    clients = [aioredis.from_url(redis_url) for _ in range(2)]
    prefix = f"{redis_prefix}:{uuid.uuid4().hex[:6]}"
    pair = [SharedPresence(c, prefix, store, ttl=TTL) for c in clients]
    yield pair
    for presence, client in zip(pair, clients):
        await presence.close()
        await client.aclose()


async def types(store, match_id: str) -> list[str]:
    return [e.type for e in await store.read_stream("presence-" + match_id, 0)]


async def test_a_player_connected_through_another_replica_is_still_connected(store, replicas) -> None:
    one, two = replicas
    match_id = uuid.uuid4().hex
    await one.connected(store, match_id, ["N"])
    await two.connected(store, match_id, ["N"])        # the same player, a second tab on another replica
    await one.disconnected(store, match_id, ["N"])     # closes the first
    await one.flush(), await two.flush()
    assert await away(store, match_id) == {}
    assert await types(store, match_id) == [SEAT_CONNECTED]
    assert await one.is_present(match_id, "N") and await two.is_present(match_id, "N")
    await two.disconnected(store, match_id, ["N"])     # the last one, anywhere
    await one.flush(), await two.flush()
    assert list(await away(store, match_id)) == ["N"]
    assert await types(store, match_id) == [SEAT_CONNECTED, SEAT_DISCONNECTED]
    await one.connected(store, match_id, ["N"])        # reclaimed through the other replica
    await one.flush()
    assert await away(store, match_id) == {}


async def test_a_killed_replicas_connections_run_out(store, replicas) -> None:
    one, two = replicas
    match_id = uuid.uuid4().hex
    await one.connected(store, match_id, ["N", "E"])
    await two.connected(store, match_id, ["E"])
    await one.flush(), await two.flush()
    started = time.time()
    # `one` is killed: it never refreshes, never closes. `two` keeps refreshing and sweeping.
    for _ in range(int(TTL * 3 / 0.2)):
        await two.refresh()
        await two.sweep()
        await asyncio.sleep(0.2)
    await two.flush()
    gone = await away(store, match_id)
    assert list(gone) == ["N"]                          # E is still connected through `two`
    assert started - 0.5 <= gone["N"] <= started + 0.5  # dated from the dead replica's last claim
    assert await two.is_present(match_id, "E") and not await two.is_present(match_id, "N")
    assert await two.sweep() == 0                       # swept once


async def test_a_claim_that_ran_out_while_alive_is_connected_again(store, replicas) -> None:
    one, two = replicas
    match_id = uuid.uuid4().hex
    await one.connected(store, match_id, ["S"])
    await asyncio.sleep(TTL + 0.2)                      # `one` stalled past its claim
    await two.sweep()
    await two.flush()
    assert list(await away(store, match_id)) == ["S"]
    await one.refresh()                                 # alive again, its connection still open
    await one.flush()
    assert await away(store, match_id) == {}


async def test_writes_landing_out_of_order_are_settled(store, replicas) -> None:
    one, two = replicas
    match_id = uuid.uuid4().hex
    await one.connected(store, match_id, ["W"])
    await one.flush()
    await one.disconnected(store, match_id, ["W"])     # through `one`: gone ...
    await two.connected(store, match_id, ["W"])        # ... and back through `two` at once
    await one.flush(), await two.flush()
    # whatever the order of the two settlings, the last word is the live one
    assert last_of(await store.read_stream("presence-" + match_id, 0), "W") == SEAT_CONNECTED
    await record(store, match_id, "W", SEAT_DISCONNECTED)   # a stale write landing last
    await two.settle(store, match_id, "W")
    assert await away(store, match_id) == {}
