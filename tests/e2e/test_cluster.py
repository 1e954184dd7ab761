"""A cluster on one machine, as docker-compose and k8s run it: nginx (deploy/nginx.conf) in
front of three `atout serve` replicas, two workers, two projectors (one standing by on the
projector lock) and a beat, on the session's Postgres and Redis (system_support.cluster).

Every client goes through the proxy, which spreads requests and streams over the replicas
(the `X-Upstream` header says which one answered). A seat following a match through one
replica sees the actions applied through the others, in order, each once; the bots answer
whichever replica the human used; a player connected through any replica counts as
connected. Then, under a bounded load (about LOAD_RATE actions/s for LOAD_SECONDS), one
replica, one worker and the active projector are killed with SIGKILL: no accepted action
is lost or applied twice (the event store says), the dead replica's clients resume through
the proxy with `after=` and miss nothing, the standby projector takes over, and every match
finishes. The figures are printed (`-s`) and written to test-artifacts/cluster-faults.json.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time

import asyncpg
import httpx
import pytest
import redis.asyncio as aioredis
from cluster_clients import (
    SEATS,
    Follower,
    Tally,
    act,
    check_sequence,
    finish,
    new_match,
    register,
)
from system_support import NGINX, PROJECTOR_RUNNING, ROOT, cluster

from domain import match as rules
from domain.match_events import ActionTaken
from infra.projections.publisher import decode
from infra.store import PostgresEventStore, create_pool
from infra.vault import Vault
from services.matches.service import MatchService
from tests.databases import own_database

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow,
              pytest.mark.skipif(NGINX is None, reason="no nginx: .ci/run installs Debian's package")]

GRACE = 3.0          # ATOUT_DISCONNECT_GRACE
TTL = 4.0            # ATOUT_PRESENCE_TTL: a killed replica's connections run out after this
LOAD_RATE = 100      # actions/s in total
LOAD_SECONDS = 16.0
HUMAN_TABLES = 14     # and two tables of one human and three bots
KILLS = {"serve": 4.0, "worker": 7.0, "projector": 10.0}   # seconds into the load


@pytest.fixture(scope="module")
async def fresh_database(database_url: str):
    async with own_database(database_url, "atout_cluster", migrated=False) as url:
        yield url


@pytest.fixture(scope="module")
def system(tmp_path_factory, fresh_database: str, redis_url: str, redis_prefix: str):
    data = tmp_path_factory.mktemp("cluster")
    with cluster(data, fresh_database, redis_url, f"{redis_prefix}_cluster", ATOUT_DISCONNECT_GRACE=str(GRACE),
                 ATOUT_PRESENCE_TTL=str(TTL), ATOUT_RATE_LIMIT_REQUESTS="0", ATOUT_BOT_OVERDUE="1",
                 ATOUT_SWEEP_EVERY="1") as running:
        yield running


@pytest.fixture
async def svc(fresh_database: str, system):
    pool = await create_pool(fresh_database, max_size=8)
    yield MatchService(PostgresEventStore(pool), Vault(pool))
    await pool.close()


@pytest.fixture
async def http(system):
    async with httpx.AsyncClient(base_url=system.base, timeout=10) as client:
        yield client


async def test_a_seat_sees_actions_applied_through_the_other_replicas(system, svc, http) -> None:
    players = [await register(http, f"spread {i}") for i in range(5)]
    humans = await new_match(http, players[:4])                     # four humans
    against_bots = await new_match(http, players[4:], bots=3)       # one human, three bots
    followers = [Follower(system.base, humans, p["token"], "ws" if i % 2 else "sse")
                 for i, p in enumerate(players[:4])] + [Follower(system.base, against_bots, players[4]["token"])]
    opened = [asyncio.Event() for _ in followers]
    tasks = [asyncio.create_task(f.run(e)) for f, e in zip(followers, opened)]
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 20)
    tokens = {s: p["token"] for s, p in zip(SEATS, players)}
    rng, tally = random.Random(7), Tally()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(f.finished for f in followers):
        acted = await act(http, svc, humans, tokens, rng, tally)
        acted |= await act(http, svc, against_bots, {"N": players[4]["token"]}, rng, tally, frozenset("N"))
        if not acted:
            await asyncio.sleep(0.02)
    await finish(followers, tasks, 30)
    assert set(tally.statuses) == {200}, tally.statuses
    replicas = {p.port for p in system.of("serve")}
    assert {int(u.rsplit(":", 1)[1]) for ups in tally.upstreams.values() for u in ups} == replicas
    for follower in followers:
        state = await svc.load(follower.match_id)
        assert state.status == "finished"
        check_sequence(follower, state.version)
        own = set(follower.upstreams)
        assert tally.upstreams[follower.match_id] - own, "some action applied through another replica"
    bots = [e for _, e in await actions(svc, against_bots) if e.seat != "N"]
    assert bots and {e.by for e in bots} == {"bot"}                 # the workers answered each human action


async def actions(svc, match_id: str) -> list:
    """(version, ActionTaken) of a match, from the store."""
    state, out = rules.initial(), []
    for recorded in await svc.store.read_stream(f"match-{match_id}", 0):
        event = decode(state, recorded)
        if isinstance(event, ActionTaken):
            out.append((recorded.stream_version, event))
        state = rules.evolve(state, event)
    return out


async def test_a_player_connected_through_another_replica_is_not_taken_over(system, svc, http) -> None:
    player = await register(http, "two tabs")
    # many deals: while the seat is taken over the bots play at full speed, and a deal all four
    # pass is thrown in within a few actions, so two deals could end before the player is back
    match_id = await new_match(http, [player], bots=3, deals=20)
    url = system.base.replace("http://", "ws://") + f"/v1/matches/{match_id}/ws"
    from websockets.asyncio.client import connect

    auth = {"Authorization": f"Bearer {player['token']}"}
    tabs = [await connect(url, additional_headers=auth)]
    while len(tabs) < 4 and len({t.response.headers["X-Upstream"] for t in tabs}) < 2:
        tabs.append(await connect(url, additional_headers=auth))
    first, other = tabs[0], next(t for t in tabs if t.response.headers["X-Upstream"] !=
                                 tabs[0].response.headers["X-Upstream"])
    for tab in tabs:
        if tab not in (first, other):
            await tab.close()
    version = await north_to_act(svc, match_id)
    await first.close()                              # one tab closed; the other, on another replica, stays
    await asyncio.sleep(GRACE + TTL + 1.5)
    assert (await svc.load(match_id)).version == version, "taken over while connected through another replica"
    await other.close()                              # now gone everywhere: the bot takes over after the grace
    deadline = time.monotonic() + GRACE + 15
    while (await svc.load(match_id)).version == version:
        assert time.monotonic() < deadline, "never taken over"
        await asyncio.sleep(0.2)
    north = [e for v, e in await actions(svc, match_id) if v > version and e.seat == "N"]
    assert north and north[0].by == "takeover"
    back = await connect(url, additional_headers=auth)   # reclaimed through whichever replica the proxy picks
    try:
        await asyncio.sleep(1.0)                         # a takeover already running may still land
        version = await north_to_act(svc, match_id)
        await asyncio.sleep(GRACE + 1.5)
        assert (await svc.load(match_id)).version == version, "the reclaimed seat was played for"
    finally:
        await back.close()


def ms(values: list[float], q: float) -> float | None:
    return round(sorted(values)[min(len(values) - 1, int(q * len(values)))] * 1000, 1) if values else None


async def north_to_act(svc, match_id: str, seconds: float = 30) -> int:
    deadline = time.monotonic() + seconds
    while True:
        state = await svc.load(match_id)
        if state.status == "playing" and "N" in {s.value for s in state.game.status(state.game_state).to_act}:
            return state.version
        assert state.status == "playing" and time.monotonic() < deadline, state.status
        await asyncio.sleep(0.1)


async def test_kill_a_replica_a_worker_and_the_projector_under_load(system, svc, http, fresh_database,
                                                                    redis_url: str) -> None:
    tables = [[await register(http, f"load {t}{s}") for s in SEATS] for t in range(HUMAN_TABLES)]
    soloists = [await register(http, f"solo {t}") for t in range(2)]
    tally, followers, tasks = Tally(), [], []
    pacer = asyncio.Semaphore(0)
    until = time.monotonic() + LOAD_SECONDS
    matches: list[str] = []

    async def follow(match_id: str, players: list[dict]) -> None:
        opened = []
        for i, p in enumerate(players):
            follower = Follower(system.base, match_id, p["token"], "sse" if i == 3 else "ws")
            followers.append(follower)
            opened.append(asyncio.Event())
            tasks.append(asyncio.create_task(follower.run(opened[-1])))
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 20)

    async def table(t: int, players: list[dict], bots: int) -> None:
        rng = random.Random(t)
        tokens = {s: p["token"] for s, p in zip(SEATS, players)}
        seats = frozenset("N") if bots else None
        while time.monotonic() < until:                   # match after match while the load lasts
            match_id = await new_match(http, players, bots=bots)
            matches.append(match_id)
            await follow(match_id, players[:1] if bots else players)
            while True:                                   # ... and each one to its end
                if time.monotonic() < until:
                    await pacer.acquire()
                if not await act(http, svc, match_id, tokens, rng, tally, seats):
                    state = await svc.load(match_id)
                    if state.status != "playing":
                        break
                    await asyncio.sleep(0.05)

    async def pace() -> None:                             # LOAD_RATE permits a second, however late the loop
        began, released = time.monotonic(), 0
        while time.monotonic() < until:
            await asyncio.sleep(0.005)
            due = int((time.monotonic() - began) * LOAD_RATE)
            for _ in range(due - released):
                pacer.release()
            released = due
        for _ in range(10_000):
            pacer.release()

    faults: dict[str, float] = {}

    async def kill() -> None:
        started = time.monotonic()
        for kind, at in KILLS.items():
            await asyncio.sleep(max(0.0, started + at - time.monotonic()))
            victim = system.active_projector() if kind == "projector" else system.of(kind)[1 if kind == "serve" else 0]
            if kind == "projector":
                assert all(PROJECTOR_RUNNING not in p.log.read_text() for p in system.of("projector") if p is not victim)
            faults[f"{kind}_killed_at"] = time.monotonic()
            victim.kill()
            if kind == "projector":
                standby = next(p for p in system.of("projector") if p.alive())
                while PROJECTOR_RUNNING not in standby.log.read_text():
                    await asyncio.sleep(0.005)
                faults["projector_takeover_s"] = round(time.monotonic() - faults["projector_killed_at"], 3)

    started = time.monotonic()
    players = [*tables, *([s] for s in soloists)]
    await asyncio.gather(pace(), kill(), *(table(t, p, 3 if len(p) == 1 else 0) for t, p in enumerate(players)))
    load_seconds = time.monotonic() - started
    in_window = sum(1 for t in tally.times if t <= until)   # after it, each table's match is played to its end
    await finish(followers, tasks, 60)
    projector_killed = faults["projector_killed_at"]
    resumed_at = min((t for f in followers for t in f.arrivals if t > projector_killed), default=None)

    conn = await asyncpg.connect(fresh_database)
    try:
        rows = await conn.fetch("SELECT command_id::text AS command_id, count(*) AS n FROM events "
                                "WHERE command_id = ANY($1::uuid[]) GROUP BY 1", list(tally.accepted))
        applied = {r["command_id"]: r["n"] for r in rows}
        by = await conn.fetch("SELECT data->>'by' AS by, count(*) AS n FROM events WHERE stream_id = ANY($1::text[])"
                              " AND type = 'action_taken' GROUP BY 1",
                              [f"match-{m}" for m in matches])
    finally:
        await conn.close()
    lost = [c for c in tally.accepted if c not in applied]
    twice = [c for c, n in applied.items() if n != 1]
    for follower in followers:
        state = await svc.load(follower.match_id)
        assert state.status == "finished", follower.match_id
        check_sequence(follower, state.version)
    resumed = sorted(s for f in followers for s in f.resumed)
    figures = {
        "load_seconds": round(load_seconds, 1), "target_rate": LOAD_RATE, "matches": len(matches),
        "streams": len(followers), "actions_accepted": len(tally.accepted),
        "accepted_per_s_under_load": round(in_window / LOAD_SECONDS, 1), "statuses": tally.statuses,
        "action_ms": {"p50": ms(tally.latencies, 0.5), "p99": ms(tally.latencies, 0.99)},
        "load_ms": {"p50": ms(tally.loads, 0.5), "p99": ms(tally.loads, 0.99)},
        "retried_requests": tally.retries, "lost": len(lost), "applied_twice": len(twice),
        "actions_by": {r["by"]: r["n"] for r in by},
        "streams_resumed": len(resumed), "resume_s": {"max": round(resumed[-1], 2) if resumed else None,
                                                      "p50": round(resumed[len(resumed) // 2], 2) if resumed else None},
        "load_average_1m": os.getloadavg()[0],
        "projector_takeover_s": faults.get("projector_takeover_s"),
        "fanout_back_after_projector_kill_s": None if resumed_at is None else round(resumed_at - projector_killed, 3),
    }
    print("\ncluster faults:", json.dumps(figures))
    out = ROOT / "test-artifacts"
    out.mkdir(exist_ok=True)
    (out / "cluster-faults.json").write_text(json.dumps(figures, indent=2))
    assert not lost and not twice, figures
    assert figures["actions_by"].get("player") == len(tally.accepted), figures   # nothing else acted for a human
    client = aioredis.from_url(redis_url)                 # the dead replica's claims ran out: nobody is
    try:                                                  # left "present" by it (every stream is closed)
        deadline = time.monotonic() + TTL * 3
        while (claims := await client.smembers(system.env["ATOUT_REDIS_PREFIX"] + ":presence")):
            assert time.monotonic() < deadline, f"claims left: {claims}"
            await asyncio.sleep(0.2)
    finally:
        await client.aclose()
    for kind in KILLS:                                    # the load went on through every fault
        killed = faults[f"{kind}_killed_at"]
        assert any(killed < t < killed + 5 for t in tally.times), (kind, figures)
    assert resumed, "no stream was on the killed replica"
    assert figures["projector_takeover_s"] is not None and resumed_at is not None, figures
    assert set(tally.statuses) <= {200, 409}, figures
