"""Quick-play matching benchmark: the pure matching function (`domain.quickplay.match`) on a
queue held at about `--queued` players of spread ratings, under a synthetic stream of joins and
leaves, one call per simulated tick of `--tick` seconds. Prints one JSON object.

    .venv/bin/python bench/quickplay.py [--queued 10000] [--ticks 120] [--tick 1.0] [--seed 1]

Ratings are display ratings drawn from a normal law (mean 15, sd 10: newcomers near 0, the
best near 45). One entry in ten is a partnership, one in five consents to bots after 30 to
120 s, one player in a hundred blocks another queued player. Each tick, `--leave` of the queue
leaves, and new players join at the rate that keeps the queue at `--queued` (the first tick
starts with the full queue, joined over the last minute): every tick then matches a queue of
`--queued`, the heaviest load. With `--arrivals R` players join at R a second instead (a small
server: `--queued 0 --arrivals 0.5 --ticks 1800`), which shows the waits and the widening bands. What it prints: the time of one
matching call (wall and CPU time: mean, p50, p95, max, and at the largest queue; on a shared
machine the CPU time is the one to read), players seated per second of
simulated time (by people and by bots), the mean and p95 wait of the players seated, and the
rating spread at the people's tables (mean, p95, max). The match creation is not in it: it
scales with the tables opened, not with the queue.

    .venv/bin/python bench/quickplay.py --database [--queued 10000]

times instead the tick's reading and matching against Postgres (`matcher.plan`: the waiting
entries, the blocks among their players, the rules over every queue), on a database of its
own (ATOUT_BENCH_DATABASE_URL, default the local Postgres as `postgres`; dropped at the end)
holding `--queued` entries over the twelve queues of the six ways of playing, rated and casual.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain import quickplay as qp  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _poisson(rng: random.Random, mean: float) -> int:
    count, total = 0, rng.expovariate(1.0)
    while total < mean:
        count += 1
        total += rng.expovariate(1.0)
    return count


def run(queued: int, ticks: int, tick: float, leave: float, seed: int, arrivals: float | None = None) -> dict:
    rng = random.Random(seed)
    serial = 0
    entries: dict[str, qp.Entry] = {}
    blocks: list[tuple[str, str]] = []

    def join(at: float) -> None:
        nonlocal serial
        serial += 1
        size = 2 if rng.random() < 0.1 else 1
        players = tuple(f"p{serial}-{i}" for i in range(size))
        bots = rng.uniform(30, 120) if rng.random() < 0.2 else None
        entry = qp.Entry(entry_id=f"e{serial}", players=players, rating=rng.gauss(15, 10), joined=at,
                         bots_after=bots)
        entries[entry.entry_id] = entry
        if len(entries) > 1 and rng.random() < 0.01:
            other = rng.choice(list(entries.values()))
            blocks.append((players[0], other.players[0]))

    now = 0.0
    for _ in range(queued):
        join(now - rng.uniform(0, 60))
    times, cpus, sizes, waits, spreads = [], [], [], [], []
    by_people = by_bots = left = 0
    for t in range(ticks):
        for entry_id in [e for e in entries if rng.random() < leave]:
            del entries[entry_id]
            left += 1
        if arrivals is None:
            while len(entries) < queued:                  # the queue held at `queued`: the heaviest ticks
                join(now - rng.uniform(0, tick))
        else:
            for _ in range(_poisson(rng, arrivals * tick)):
                join(now - rng.uniform(0, tick))
        sizes.append(len(entries))
        queue = list(entries.values())
        started, cpu = time.perf_counter(), time.process_time()
        tables = qp.match(queue, now, t.to_bytes(8, "big"), blocks=blocks)
        times.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
        for table in tables:
            for entry_id in table.entries:
                entry = entries.pop(entry_id)
                waits += [now - entry.joined] * len(entry.players)
                if table.bots:
                    by_bots += len(entry.players)
                else:
                    by_people += len(entry.players)
            if not table.bots:
                spreads.append(table.spread)
        now += tick
        if len(blocks) > 4 * queued:
            blocks = blocks[-queued:]
    simulated = ticks * tick
    largest = max(range(len(sizes)), key=lambda i: (sizes[i], -i))
    return {
        "queued": queued, "arrivals_per_second": arrivals, "ticks": ticks, "tick_seconds": tick, "leave_per_tick": leave, "seed": seed,
        "tick_ms": {"mean": round(statistics.mean(times) * 1000, 2), "p50": round(_pct(times, 0.5) * 1000, 2),
                    "p95": round(_pct(times, 0.95) * 1000, 2), "max": round(max(times) * 1000, 2),
                    "at_largest_queue": round(times[largest] * 1000, 2), "largest_queue": sizes[largest]},
        "tick_cpu_ms": {"mean": round(statistics.mean(cpus) * 1000, 2), "p50": round(_pct(cpus, 0.5) * 1000, 2),
                        "p95": round(_pct(cpus, 0.95) * 1000, 2), "max": round(max(cpus) * 1000, 2)},
        "queue_mean": round(statistics.mean(sizes)),
        "seated_per_second": round((by_people + by_bots) / simulated, 1),
        "seated_with_people_per_second": round(by_people / simulated, 1),
        "seated_with_bots_per_second": round(by_bots / simulated, 1),
        "left": left,
        "wait_seconds": {"mean": round(statistics.mean(waits), 2) if waits else None,
                         "p95": round(_pct(waits, 0.95), 2)},
        "spread": {"mean": round(statistics.mean(spreads), 3) if spreads else None,
                   "p95": round(_pct(spreads, 0.95), 3), "max": round(max(spreads, default=0.0), 3)},
        "band": {"start": qp.BAND_START, "growth_per_second": qp.BAND_GROWTH, "open_after": qp.BAND_OPEN_AFTER},
    }


WAYS = [("belote", {}, "belote_classic"), ("belote", {"variant": "sans_atout"}, "belote_sans_atout"),
        ("belote", {"variant": "coinche"}, "belote_coinche"), ("cinch", {}, "cinch_partnership"),
        ("cinch", {"mode": "individual"}, "cinch_individual"), ("five_hundred", {}, "five_hundred")]


async def bench_database(queued: int, seed: int, runs: int = 5) -> dict:
    """The tick's reading and matching (`services.quickplay.matcher.plan`) against Postgres: a
    database of its own with `queued` waiting entries over the twelve queues of the six ways
    of playing (rated and casual), one player in a hundred blocking another."""
    import os
    import secrets
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    import asyncpg
    import msgspec

    from infra.projections.social import SocialTies
    from infra.store import connect, create_pool, migrate
    from services.quickplay import matcher

    admin_url = os.environ.get("ATOUT_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    name = f"atout_bench_quickplay_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(admin_url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = urlunsplit(urlsplit(admin_url)._replace(path=f"/{name}"))
    rng = random.Random(seed)
    try:
        conn = await connect(url)
        await migrate(conn)
        for sql in SocialTies().create({"social_ties": "social_ties"}):
            await conn.execute(sql)
        rows, players = [], []
        for i in range(queued):
            game, options, pool_name = rng.choice(WAYS)
            rated = rng.random() < 0.5
            key = msgspec.json.encode({"game": game, "options": options, "rated": rated}).decode()
            group = [f"p{i}"] if pool_name == "cinch_individual" or rng.random() > 0.1 else [f"p{i}", f"q{i}"]
            players.append(group[0])
            rows.append((str(uuid.uuid4()), key, game, msgspec.json.encode(options), pool_name, rated, group,
                         rng.gauss(15, 10), b"x", rng.uniform(0, 60)))
        await conn.executemany(
            "INSERT INTO quickplay_entries (entry_id, queue, game, options, pool, rated, players, rating, status, "
            "request_hash, joined_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'waiting', $9, "
            "now() - make_interval(secs => $10))", rows)
        await conn.executemany("INSERT INTO social_ties (player_id, kind, other_id, since) VALUES ($1, 'block', $2, "
                               "now()) ON CONFLICT DO NOTHING",
                               [(p, rng.choice(players)) for p in players if rng.random() < 0.01])
        await conn.close()
        pool = await create_pool(url, max_size=2)
        times, cpus, tables = [], [], 0
        for run in range(runs):
            started, cpu = time.perf_counter(), time.process_time()
            planned, waiting = await matcher.plan(pool, run.to_bytes(8, "big"))
            times.append(time.perf_counter() - started)
            cpus.append(time.process_time() - cpu)
            tables = len(planned)
        await pool.close()
        return {"queued_entries": queued, "waiting_players_read": waiting, "queues": 12, "tables_planned": tables,
                "plan_ms": {"mean": round(statistics.mean(times) * 1000, 1), "min": round(min(times) * 1000, 1),
                            "max": round(max(times) * 1000, 1)},
                "plan_cpu_ms": {"mean": round(statistics.mean(cpus) * 1000, 1), "min": round(min(cpus) * 1000, 1)}}
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queued", type=int, default=10_000)
    parser.add_argument("--ticks", type=int, default=120)
    parser.add_argument("--tick", type=float, default=1.0)
    parser.add_argument("--leave", type=float, default=0.002, help="share of the queue leaving each tick")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--arrivals", type=float, default=None,
                        help="joins per second (Poisson) instead of holding the queue at --queued")
    parser.add_argument("--database", action="store_true",
                        help="time the tick's reading and matching against Postgres (matcher.plan) instead")
    args = parser.parse_args()
    if args.database:
        import asyncio
        print(json.dumps(asyncio.run(bench_database(args.queued, args.seed))))
        return
    print(json.dumps(run(args.queued, args.ticks, args.tick, args.leave, args.seed, args.arrivals)))


if __name__ == "__main__":
    main()
