"""What an action costs in Redis, on a real Redis: the rate limiter's shared count taken in
blocks (never past the limit over every process together, one call per block) and the API's
wake-up written without waiting (the projector still hears of the newest commit)."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis.asyncio as aioredis

from infra.projections import WakeWire, events_channel
from infra.ratelimit import RateLimit, RateLimiter
from infra.store.model import AppendResult

pytestmark = [pytest.mark.redis]


def counted(limiter: RateLimiter) -> list[int]:
    calls: list[int] = []
    lease = limiter._lease

    async def counting(*, keys, args):
        calls.append(args[1])
        return await lease(keys=keys, args=args)

    limiter._lease = counting
    return calls


async def test_a_limit_shared_by_two_processes_is_never_passed_and_costs_a_call_per_block(
        redis_client, redis_prefix: str) -> None:
    limit = RateLimit(requests=160, window=3600)
    if 3600 - time.time() % 3600 < 5:
        await asyncio.sleep(6)   # one window for the whole test
    processes = [RateLimiter(redis_client, f"{redis_prefix}:blocks", limit) for _ in range(2)]
    calls = [counted(limiter) for limiter in processes]
    answers = []
    for n in range(400):
        answers.append(await processes[n % 2].hit("t:steady"))
    allowed = sum(answer is None for answer in answers)
    # At most the limit; at most one unused block per process short of it (blocks up to 160/16).
    assert 160 - 2 * (10 - 1) <= allowed <= 160
    assert all(answer is None for answer in answers[:100])
    assert all(answer is not None and 0 < answer <= 3600 for answer in answers[-50:])
    shared = int(await redis_client.get(f"{redis_prefix}:blocks:ratelimit:t:steady:{int(time.time() // 3600)}"))
    assert shared >= allowed
    # Blocks of 1, 2, 4, 8, then 10: far fewer calls than requests; none once the window is spent.
    assert sum(len(c) for c in calls) < 60 and all(max(c) == 10 for c in calls)
    before = sum(len(c) for c in calls)
    assert await processes[0].hit("t:steady") is not None
    assert sum(len(c) for c in calls) == before
    # Another caller has a count of his own.
    assert await processes[0].hit("t:other") is None


async def test_a_caller_s_requests_side_by_side_spend_only_what_they_use(redis_client, redis_prefix: str) -> None:
    """A browser sends a screen's requests together: they wait for one lease at a time rather
    than each leasing a block, so none is refused while the window has room."""
    if 3600 - time.time() % 3600 < 5:
        await asyncio.sleep(6)   # one window for the whole test
    limiter = RateLimiter(redis_client, f"{redis_prefix}:side", RateLimit(requests=300, window=3600))
    calls = counted(limiter)
    first = await asyncio.gather(*[limiter.hit("t:burst") for _ in range(300)])
    assert sum(answer is not None for answer in first) == 0
    assert len(calls) < 40                                            # blocks, not a call each
    more = await asyncio.gather(*[limiter.hit("t:burst") for _ in range(50)])
    assert all(answer is not None for answer in more)                 # and never past the limit
    assert int(await redis_client.get(f"{redis_prefix}:side:ratelimit:t:burst:{int(time.time() // 3600)}")) >= 300


async def test_a_small_limit_is_still_counted_one_request_at_a_time(redis_client, redis_prefix: str) -> None:
    processes = [RateLimiter(redis_client, f"{redis_prefix}:small", RateLimit(requests=3, window=30))
                 for _ in range(2)]
    answers = [await processes[n % 2].hit("t:small") for n in range(4)]
    assert [answer is None for answer in answers] == [True, True, True, False]


async def test_the_wake_wire_always_tells_the_newest_commit(redis_url: str, redis_prefix: str) -> None:
    prefix = f"{redis_prefix}:wire"
    listener = aioredis.from_url(redis_url)
    pubsub = listener.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(events_channel(prefix))
    wire = WakeWire(redis_url, prefix)
    try:
        async def heard_up_to(last: int) -> list[int]:
            heard: list[int] = []
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and (not heard or heard[-1] != last):
                message = await pubsub.get_message(timeout=0.5)
                if message is not None:
                    heard.append(int(message["data"].split(b'"version":')[1].rstrip(b"}")))
            return heard

        for version in range(1, 21):   # paced: each commit told, a reply awaited between them or not
            await wire(AppendResult("match-x", version, version, []))
            await asyncio.sleep(0.005)
        paced = await heard_up_to(20)
        assert paced and paced[-1] == 20 and paced == sorted(paced)
        started = time.perf_counter()
        for version in range(21, 221):   # a burst: fewer messages, the newest last
            await wire(AppendResult("match-x", version, version, []))
        assert time.perf_counter() - started < 0.5    # no round trip awaited per call
        burst = await heard_up_to(220)
        assert burst and burst[-1] == 220 and burst == sorted(burst) and len(burst) < 200
    finally:
        await wire.close()
        await pubsub.aclose()
        await listener.aclose()
    nowhere = WakeWire("redis://127.0.0.1:1", prefix)   # Redis unreachable: the append goes on
    await nowhere(AppendResult("match-x", 1, 1, []))
    await asyncio.sleep(0.1)
    await nowhere(AppendResult("match-x", 2, 2, []))
    await nowhere.close()
