"""Ratings benchmark: openskill rating updates per second (one rated match: four players, two
partnerships), and a full rebuild of the `ratings` projection over a synthetic log of finished
rated matches. Prints one JSON object.

    .venv/bin/python bench/ratings.py [--matches 100000] [--players 5000] [--updates 20000]

It connects to ATOUT_BENCH_DATABASE_URL (default: the local Postgres as `postgres`), creates
its own database, and drops it at the end. The log holds, per match, its `match_created`
(rated, four human seats, a pool drawn among the six) and its `match_finished`, interleaved
the way finishes arrive (matches overlap); players are drawn from `--players`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg  # noqa: E402

from infra.projections import ProjectionRunner, rebuild  # noqa: E402
from infra.projections.ratings import MODEL, Ratings, rate  # noqa: E402
from infra.store import PostgresEventStore, connect, create_pool, migrate  # noqa: E402

WAYS = [("belote", {}), ("belote", {"variant": "sans_atout"}), ("belote", {"variant": "coinche"}),
        ("cinch", {}), ("cinch", {"mode": "individual"}), ("five_hundred", {})]


def bench_updates(count: int) -> dict:
    rng = random.Random(1)
    players = {f"p{i}": (MODEL.mu + rng.uniform(-5, 5), MODEL.sigma * rng.uniform(0.3, 1)) for i in range(400)}
    names = list(players)
    began = time.perf_counter()
    for _ in range(count):
        n, e, s, w = rng.sample(names, 4)
        players.update(rate(players, [((n, s), 1), ((e, w), 2)]))
    seconds = time.perf_counter() - began
    return {"updates": count, "seconds": round(seconds, 2), "updates_per_s": round(count / seconds)}


def log_rows(matches: int, people: int) -> list[tuple]:
    rng = random.Random(2)
    rows: list[tuple] = []
    pending: list[tuple[str, str, dict]] = []
    for m in range(matches):
        stream, (game, options) = f"match-{m:07d}", rng.choice(WAYS)
        seats = {s: {"kind": "player", "player_id": f"player-{rng.randrange(people)}"} for s in "NESW"}
        if len({h["player_id"] for h in seats.values()}) < 4:
            seats = {s: {"kind": "player", "player_id": f"player-{(m * 4 + i) % people}"} for i, s in enumerate("NESW")}
        created = {"match_id": f"{m:07d}", "game": game, "options": options, "seats": seats, "commitment": "00",
                   "chain_length": 10, "rated": True}
        rows.append((stream, 1, uuid.uuid4(), "match_created", 1, json.dumps(created).encode()))
        individual = options.get("mode") == "individual"
        winner = rng.choice("NESW") if individual else rng.choice(["NS", "EW"])
        score = {s: rng.randrange(52) for s in "NESW"} if individual else {"NS": rng.randrange(1000), "EW": 500}
        pending.append((stream, winner, score))
        if len(pending) > 20 or m == matches - 1:      # matches overlap: finishes come a little later
            for stream_id, won, sc in rng.sample(pending, len(pending)):
                rows.append((stream_id, 2, uuid.uuid4(), "match_finished", 1,
                             json.dumps({"winner": won, "match_score": sc}).encode()))
            pending = []
    return rows


async def bench_rebuild(url: str, matches: int, people: int, batch_size: int) -> dict:
    rows = log_rows(matches, people)
    conn = await connect(url)
    try:
        for i in range(0, len(rows), 50_000):
            await conn.copy_records_to_table(
                "events", records=rows[i:i + 50_000],
                columns=["stream_id", "stream_version", "event_id", "type", "schema_version", "data"])
    finally:
        await conn.close()
    pool = await create_pool(url, max_size=4)
    try:
        store = PostgresEventStore(pool)
        await store.settle()
        runner = ProjectionRunner(store, batch_size=batch_size)
        result = await rebuild(runner, Ratings())
        return {"matches": matches, "players": people, "events": result.events, "batch_size": batch_size,
                "seconds": round(result.seconds, 2), "matches_per_s": round(matches / result.seconds),
                "rated_players": await pool.fetchval("SELECT count(*) FROM ratings"),
                "history_rows": await pool.fetchval("SELECT count(*) FROM rating_history")}
    finally:
        await pool.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000, help="finished rated matches in the log")
    parser.add_argument("--players", type=int, default=5_000, help="distinct players")
    parser.add_argument("--updates", type=int, default=20_000, help="rating updates timed alone")
    parser.add_argument("--batch-size", type=int, default=5000, help="rebuild events per transaction")
    args = parser.parse_args()
    admin_url = os.environ.get("ATOUT_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    name = f"atout_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(admin_url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = urlunsplit(urlsplit(admin_url)._replace(path="/" + name))
    try:
        conn = await connect(url)
        await migrate(conn)
        await conn.close()
        report = {"cpus": os.cpu_count(), "model": "openskill PlackettLuce", "updates": bench_updates(args.updates),
                  "rebuild": await bench_rebuild(url, args.matches, args.players, args.batch_size)}
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
