"""A bot turn is sent to the workers once, whichever scheduler sees it first (the fast path
or the `bot_turns` projection), on a real Redis broker: the tasks are counted in the bots'
queue itself. The sweeper, which has no claims, always re-sends. Off the event loop (the
API, the projector) the claims are made on the asyncio client and only a won turn wakes
the sends' thread."""

from __future__ import annotations

import asyncio

import pytest
import redis
import redis.asyncio as aioredis
from prometheus_client import REGISTRY

from infra.projections.bot_turns import Turn
from infra.settings import Settings
from services.workers.app import make_app, queues
from services.workers.claims import TTL, TurnClaims
from services.bots.reactor import scheduler, scheduler_off_loop
from services.workers.sends import Sends

pytestmark = [pytest.mark.redis]


@pytest.fixture
def broker(redis_url: str, redis_prefix: str):
    prefix = f"{redis_prefix}claims"
    settings = Settings(redis_url=redis_url, redis_prefix=prefix)
    app = make_app(settings)
    client = redis.Redis.from_url(redis_url)
    claims = TurnClaims(client, prefix)
    queue = f"{prefix}:{queues(prefix)['bots']}"
    try:
        yield app, claims, (lambda: client.llen(queue)), client
    finally:
        for key in client.scan_iter(match=f"{prefix}:*"):
            client.unlink(key)
        app.close()
        client.close()


def test_the_first_claim_of_a_turn_wins_and_later_ones_lose(broker) -> None:
    _, claims, _, client = broker
    assert claims.first([("m1", 4, "E"), ("m1", 4, "W")]) == [True, True]
    assert claims.first([("m1", 4, "E"), ("m1", 5, "E"), ("m2", 4, "E")]) == [False, True, True]
    assert claims.first([]) == []
    assert 0 < client.ttl(claims.key("m1", 4, "E")) <= TTL      # a claim outlives no match


def test_two_schedulers_send_a_turn_once_and_the_sweeper_sends_it_again(broker) -> None:
    app, claims, queued, _ = broker
    fast_path, projection = scheduler(app, claims), scheduler(app, claims)
    turn = Turn("m1", 7, ("N", "S"))
    fast_path([turn])
    projection([turn, Turn("m2", 3, ("E",))])
    assert queued() == 3                         # N and S of m1 once each, E of m2
    scheduler(app)([turn])                       # the sweeper: an overdue turn is re-sent
    assert queued() == 5


def test_without_redis_claims_every_scheduler_still_sends(broker) -> None:
    app, _, queued, _ = broker
    unreachable = TurnClaims(redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2), "nowhere")
    assert unreachable.first([("m1", 1, "N"), ("m1", 1, "E")]) == [True, True]
    scheduler(app, unreachable)([Turn("m1", 1, ("N",))])
    scheduler(app, unreachable)([Turn("m1", 1, ("N",))])
    assert queued() == 2                         # a duplicate is harmless; a withheld turn would stall


async def test_off_the_loop_a_turn_another_scheduler_claimed_wakes_no_send(broker, redis_url: str,
                                                                           redis_prefix: str) -> None:
    app, claims, queued, _ = broker
    client = aioredis.from_url(redis_url)
    sends = Sends("test_off_loop")
    sent = lambda: REGISTRY.get_sample_value("atout_broker_sends_total",            # noqa: E731
                                             {"sender": "test_off_loop", "outcome": "sent"}) or 0.0
    before = sent()
    try:
        schedule = scheduler_off_loop(app, TurnClaims(client, f"{redis_prefix}claims"), sends)
        assert claims.first([("m1", 7, "N")]) == [True]     # the projection, say, had N already
        await schedule([Turn("m1", 7, ("N", "S"))])        # the fast path: S is its own
        await schedule([Turn("m1", 7, ("N", "S"))])        # both claimed elsewhere: nothing handed on
        await asyncio.to_thread(sends.close)
        assert queued() == 1
        assert sent() == before + 1
        unreachable = TurnClaims(aioredis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2), "nowhere")
        assert await unreachable.first_async([("m1", 1, "N"), ("m1", 1, "E")]) == [True, True]
    finally:
        await client.aclose()
