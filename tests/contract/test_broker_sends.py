"""The async schedulers' sends leave from a thread of their own (`services.workers.sends`):
a broker that stops answering holds neither the event loop nor, for long, the thread; past
the limit sends are dropped and counted; on a real Redis broker every send arrives, in order."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import threading
import time

import pytest
import redis
from prometheus_client import REGISTRY

from infra.projections.bot_turns import Turn
from infra.settings import Settings
from services.workers.app import BROKER_SOCKET_TIMEOUT, make_app, queues
from services.bots.reactor import scheduler
from services.workers.sends import Sends


def _count(sender: str, outcome: str) -> float:
    return REGISTRY.get_sample_value("atout_broker_sends_total", {"sender": sender, "outcome": outcome}) or 0.0


@pytest.fixture
def stalled_broker():
    """A TCP port that accepts connections and never answers: a broker gone silent."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    try:
        yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    finally:
        listener.close()


async def test_a_stalled_broker_holds_neither_the_event_loop_nor_the_thread_for_long(stalled_broker) -> None:
    app = make_app(Settings(redis_url=stalled_broker, redis_prefix="stalled"))
    sends = Sends("test_stalled")
    schedule = scheduler(app)
    failed = _count("test_stalled", "failed")
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticking = asyncio.create_task(ticker())
    try:
        started = time.monotonic()
        assert sends.submit(schedule, [Turn("m1", 3, ("E",))]) is True     # queued at once, nothing awaited
        assert time.monotonic() - started < 0.5
        await asyncio.sleep(0.5)
        assert ticks >= 10                                  # the loop went on while the send hung
        # The broker's socket timeout ends the send (a publish and one retry), and the
        # thread is free for the next one rather than stuck for ever.
        deadline = time.monotonic() + 4 * BROKER_SOCKET_TIMEOUT + 5
        while _count("test_stalled", "failed") == failed and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert _count("test_stalled", "failed") == failed + 1
    finally:
        ticking.cancel()
        await asyncio.to_thread(sends.close, 0.1)
        app.close()


def test_sends_past_the_limit_are_dropped_and_counted() -> None:
    release, ran = threading.Event(), []
    sends = Sends("test_limit", limit=2)
    dropped = _count("test_limit", "dropped")
    assert sends.submit(lambda: (release.wait(10), ran.append(0)))      # taken by the thread, waiting
    deadline = time.monotonic() + 5
    while sends._queue.qsize() and time.monotonic() < deadline:          # the thread has taken it
        time.sleep(0.01)
    assert [sends.submit(ran.append, k) for k in (1, 2, 3, 4)] == [True, True, False, False]
    assert _count("test_limit", "dropped") == dropped + 2
    release.set()
    sends.close()
    assert ran == [0, 1, 2]                                             # in order, the dropped never


@pytest.mark.redis
def test_on_a_real_broker_every_send_arrives_in_order(redis_url: str, redis_prefix: str) -> None:
    prefix = f"{redis_prefix}sends"
    app = make_app(Settings(redis_url=redis_url, redis_prefix=prefix))
    client = redis.Redis.from_url(redis_url)
    queue = f"{prefix}:{queues(prefix)['bots']}"
    sends = Sends("test_real")
    try:
        schedule = scheduler(app)
        for version in range(1, 6):
            assert sends.submit(schedule, [Turn("m1", version, ("N",))])
        sends.close()                                                    # the waiting sends leave first
        bodies = [json.loads(m) for m in reversed(client.lrange(queue, 0, -1))]
        versions = [json.loads(base64.b64decode(b["body"]))[0][2] for b in bodies]
        assert versions == [1, 2, 3, 4, 5]
    finally:
        for key in client.scan_iter(match=f"{prefix}:*"):
            client.unlink(key)
        app.close()
        client.close()


def own_ports() -> set[int]:
    """The local TCP ports of this process's open sockets (Linux's /proc): Redis names each
    client by its address, and other test processes open and close theirs meanwhile."""
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # closed since it was listed
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                if fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


@pytest.mark.redis
async def test_the_bot_turns_projection_closed_lets_its_thread_and_connections_go(redis_url: str,
                                                                                  redis_prefix: str) -> None:
    """A projector that stops, or the embedded one built again after a failure, closes its
    projections: the scheduler's sends thread ends and its Redis connections (the claims'
    client, the broker's) close, rather than one more of each staying behind per restart."""
    from infra.projections import close_projections
    from services.bots import reactor

    prefix = f"{redis_prefix}closing"
    client = redis.Redis.from_url(redis_url)

    def connections() -> set[str]:
        """This process's Redis connections (not other test workers'); the ports are read after
        the list, which the client's own first connection is opened for."""
        listed = client.client_list()
        ports = own_ports()
        return {c["id"] for c in listed if int(c["addr"].rsplit(":", 1)[1]) in ports}

    queue = f"{prefix}:{queues(prefix)['bots']}"
    before = connections()
    projection = reactor.projection(Settings(redis_url=redis_url, redis_prefix=prefix))
    try:
        await projection.schedule([Turn("m1", 1, ("N",))])             # a claim, then a send from the thread
        deadline = time.monotonic() + 5
        while not client.llen(queue) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert client.llen(queue) == 1
        threads = [t for t in threading.enumerate() if t.name == "broker-sends-bot_turns" and t.is_alive()]
        opened = connections() - before                                 # the claims' and the broker's
        assert threads and len(opened) >= 2, opened
        await close_projections([projection])
        deadline = time.monotonic() + 5
        while connections() & opened and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not connections() & opened and not any(t.is_alive() for t in threads)
        await close_projections([projection])                          # a second close is harmless
    finally:
        for key in client.scan_iter(match=f"{prefix}:*"):
            client.unlink(key)
        client.close()
