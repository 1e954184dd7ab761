"""The fan-out and the publisher in one process, on real Postgres and Redis: a slow client
is dropped (and only it), a live session fills a hole in live versions from the store and
skips duplicates, and the publisher's messages are exactly the domain's redactions."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import random
import uuid

import msgspec
import pytest

from domain import match as rules
from domain.cards import Seat
from domain.playout import concrete
from infra.fanout import Dropped, Fanout
from infra.live_session import LiveSession, MatchStates
from infra.resp import read_frame
from infra.projections import ProjectionRunner
from infra.projections.publisher import Publisher, event_message, match_channel
from infra.store import PostgresEventStore, create_pool
from infra.vault import Vault
from services.matches.service import MatchService

pytestmark = [pytest.mark.db, pytest.mark.redis]


@pytest.fixture(scope="module")
async def pool(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=4)
    yield pool
    await pool.close()


@pytest.fixture
async def fanout(redis_url: str, redis_prefix: str):
    fanout = Fanout(redis_url, f"{redis_prefix}:fanout-{uuid.uuid4().hex[:6]}", queue_size=4)
    yield fanout
    await fanout.close()


def svc_of(pool) -> MatchService:
    return MatchService(PostgresEventStore(pool), Vault(pool), chain_length=10, rng=random.Random(1))


async def started(svc: MatchService) -> str:
    match_id = (await svc.create_match("belote", {"deals": 1}, {"N": "me", "E": "open", "S": "open", "W": "open"},
                                       player_id="fan-N")).match_id
    for seat in "ESW":
        await svc.take_seat(match_id, Seat(seat), player_id=f"fan-{seat}")
    await svc.start(match_id)
    return match_id


async def act(svc: MatchService, match_id: str, rng: random.Random) -> None:
    state = await svc.load(match_id)
    seat, action = rng.choice([(s, a) for s in Seat for a in msgspec.to_builtins(rules.view(state, s).table)["legal"]])
    await svc.act(match_id, {"seat": seat.value, **concrete(action, rng)}, player_id=f"fan-{seat.value}",
                  expected_version=state.version, command_id=uuid.uuid4())


def message(version: int) -> bytes:
    return json.dumps({"type": "event", "version": version, "event": None}).encode()


def test_resp_frames_split_anywhere_parse_the_same() -> None:
    """The fan-out reads whatever the socket gives: a frame may end in the next chunk."""
    data = b'{"a":"\r\n"}x'  # a length-prefixed payload may hold anything, CRLF included
    wire = (b"*3\r\n$9\r\nsubscribe\r\n$4\r\nch:N\r\n:1\r\n"
            b"*3\r\n$7\r\nmessage\r\n$4\r\nch:N\r\n$%d\r\n%s\r\n" % (len(data), data))
    expected = [[b"subscribe", b"ch:N", 1], [b"message", b"ch:N", data]]
    for cut in range(len(wire) + 1):
        buffer, frames = bytearray(), []
        for chunk in (wire[:cut], wire[cut:]):
            buffer += chunk
            used = 0
            while (parsed := read_frame(buffer, used)) is not None:
                frame, used = parsed
                frames.append(frame)
            del buffer[:used]
        assert frames == expected and not buffer, cut


async def test_a_slow_client_is_dropped_alone(fanout, redis_client) -> None:
    slow = await fanout.subscribe("m1", Seat.N)
    quick = await fanout.subscribe("m1", Seat.N)
    channel = match_channel(fanout.prefix, "m1", Seat.N)
    got = []
    for version in range(1, 11):
        await redis_client.publish(channel, message(version))
        got.append((await asyncio.wait_for(quick.get(), 5))[0])
    assert got == list(range(1, 11))
    with pytest.raises(Dropped):
        while True:
            await asyncio.wait_for(slow.get(), 5)
    assert fanout.drops == 1 and slow.dropped == "slow_consumer" and not quick.dropped
    await fanout.unsubscribe(slow)
    await fanout.unsubscribe(quick)
    assert fanout.clients == 0


async def test_session_fills_holes_from_the_store_and_skips_duplicates(pool, fanout, redis_client) -> None:
    svc, rng = svc_of(pool), random.Random(2)
    match_id = await started(svc)
    states = MatchStates(svc.store)
    session = LiveSession(fanout, states, match_id, "fan-E", after=None)
    await session.open()
    stream = session.messages()
    snapshot = json.loads(await anext(stream))
    assert snapshot["type"] == "snapshot" and snapshot["view"]["seat"] == "E"
    v0 = snapshot["version"]
    for _ in range(3):  # nothing is published: only the store knows these
        await act(svc, match_id, rng)
    version = (await svc.load(match_id)).version
    channel = match_channel(fanout.prefix, match_id, Seat.E)
    await redis_client.publish(channel, message(v0))  # a duplicate of what the snapshot covers
    await redis_client.publish(channel, message(version))  # the last one only: a hole before it
    received = [json.loads(await asyncio.wait_for(anext(stream), 5)) for _ in range(version - v0)]
    assert [m["version"] for m in received] == list(range(v0 + 1, version + 1))
    events = await svc.events(match_id, v0)
    state = await states.load(match_id)
    assert received[:-1] == [json.loads(event_message(v, rules.redact(state, e, Seat.E))) for v, e, _ in events][:-1]
    await session.close()
    assert fanout.clients == 0


async def test_publisher_publishes_each_audience_its_redaction(pool, redis_url, redis_prefix, redis_client) -> None:
    svc, rng = svc_of(pool), random.Random(3)
    prefix = f"{redis_prefix}:pub-{uuid.uuid4().hex[:6]}"
    runner = ProjectionRunner(PostgresEventStore(pool))
    publisher = Publisher(redis_url=redis_url, prefix=prefix, cache_size=1)  # misses refold from the store
    await runner.ensure(publisher)
    await runner.catch_up(publisher)  # whatever earlier tests left in the log
    match_id = await started(svc)
    pubsub = redis_client.pubsub()
    await pubsub.psubscribe(f"{prefix}:match:{match_id}:*")
    await started(svc)  # another match interleaved, evicting the first from the cache
    for _ in range(4):
        await act(svc, match_id, rng)
    events = await svc.events(match_id)
    got: dict[str, list[bytes]] = {}
    deadline = asyncio.get_running_loop().time() + 15
    # The log is read below the cluster's xmin horizon: a transaction running elsewhere
    # on this server may hold it back for a moment, so poll as the projector does.
    while sum(map(len, got.values())) < 5 * len(events):
        assert asyncio.get_running_loop().time() < deadline, got
        await runner.catch_up(publisher)
        while (item := await pubsub.get_message(timeout=0.1)) is not None:
            if item["type"] == "pmessage":
                got.setdefault(item["channel"].decode().rsplit(":", 1)[1], []).append(item["data"])
    await pubsub.aclose()
    state: rules.MatchState = rules.initial()
    expected: dict[str, list[bytes]] = {}
    for version, event, _ in events:
        for seat in (*Seat, None):
            audience = "spectator" if seat is None else seat.value
            expected.setdefault(audience, []).append(event_message(version, rules.redact(state, event, seat)))
        state = rules.evolve(state, event)
    assert got == expected

    # Events older than max_age are not published (nobody live waits for them).
    old = Publisher(redis_url=redis_url, prefix=prefix, max_age=0.0)
    before = old.published
    await old.apply(None, [(r, {}) for _, _, r in events], {})
    assert old.published == before
    await old.close()
    await publisher.close()
