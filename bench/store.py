"""Event store benchmark: durable appends/s against the server's raw commit ceiling, and
projection rebuild speed over a million events. Prints one JSON object.

    .venv/bin/python bench/store.py [--seconds 3] [--rounds 3] [--events 1000000]

It connects to ATOUT_BENCH_DATABASE_URL (default: the local Postgres as `postgres`),
creates its own database, and drops it at the end.

Appends and the raw ceiling run in the same process, at the same concurrency, through the
same kind of pool, in short slices interleaved round by round so that a noisy machine
hurts both alike; each figure is the median of the rounds. One append is one command: the 1 or 2 events of
one action (a card played, sometimes with the trick it wins). The raw ceiling is one
single-row INSERT into a plain table per transaction; `raw_held` measures the same with a
connection held by each worker (no pool), the client-side best case. Appends that queue
behind the store's statement in flight share the next one (`infra/store/batch.py`), so
with many writers the store can pass that ceiling; `appends_per_statement` says how much
they shared, and `verdict` checks the targets.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg  # noqa: E402

from infra.projections import Lobby, MatchSummaries, ProjectionRunner, rebuild  # noqa: E402
from infra.store import NewEvent, PostgresEventStore, connect, create_pool, migrate  # noqa: E402

CARD = b'{"seat":"N","card":"AS","trick":3,"by_bot":false}'
TRICK = b'{"winner":"E","points":21,"trick":3}'
RAW_TABLE = "CREATE TABLE raw_ceiling (id bigserial PRIMARY KEY, stream text NOT NULL, payload jsonb NOT NULL)"


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


async def timed(seconds: float, workers: int, step) -> tuple[float, float]:
    """Run `step(worker)` in a loop on `workers` tasks for `seconds`; return (steps, elapsed)."""
    deadline = time.perf_counter() + seconds
    counts = [0] * workers

    async def loop(w: int) -> None:
        while time.perf_counter() < deadline:
            await step(w)
            counts[w] += 1

    began = time.perf_counter()
    await asyncio.gather(*(loop(w) for w in range(workers)))
    return sum(counts), time.perf_counter() - began


async def bench_concurrency(url: str, concurrency: int, seconds: float, rounds: int) -> dict:
    """Raw (held connections), raw (through the pool) and appends, in short slices whose
    order rotates every round, so that a slow stretch of the disk or a neighbour's burst
    falls on all three alike."""
    pool = await create_pool(url, min_size=concurrency, max_size=concurrency)
    held = [await connect(url) for _ in range(concurrency)]
    store = PostgresEventStore(pool)
    streams = [f"bench-{uuid.uuid4()}" for _ in range(concurrency)]
    versions = [0] * concurrency
    turn = [0] * concurrency

    async def append(w: int) -> None:
        turn[w] += 1
        events = [NewEvent("card_played", CARD)]
        if turn[w] % 4 == 0:  # every fourth card closes a trick
            events.append(NewEvent("trick_won", TRICK))
        result = await store.append(streams[w], versions[w], events, command_id=uuid.uuid4())
        versions[w] = result.last_version

    async def raw(w: int) -> None:
        await pool.execute("INSERT INTO raw_ceiling (stream, payload) VALUES ($1, $2)", streams[w], CARD)

    async def raw_held(w: int) -> None:
        await held[w].execute("INSERT INTO raw_ceiling (stream, payload) VALUES ($1, $2)", streams[w], CARD)

    steps = {"raw_held": raw_held, "raw": raw, "append": append}
    rates: dict[str, list[float]] = {key: [] for key in [*steps, "append_events"]}
    statements = appended = 0
    try:
        for round_ in range(rounds):
            keys = list(steps)
            for key in keys[round_ % 3:] + keys[: round_ % 3]:
                events_before = sum(versions)
                count, elapsed = await timed(seconds, concurrency, steps[key])
                rates[key].append(count / elapsed)
                if key == "append":
                    rates["append_events"].append((sum(versions) - events_before) / elapsed)
                    appended += count
        if store.batcher is not None:
            statements = store.batcher.alone + store.batcher.batches
    finally:
        for conn in held:
            await conn.close()
        await pool.close()
    med = {key: statistics.median(values) for key, values in rates.items()}
    return {
        "appends_per_s": round(med["append"]),
        "events_per_s": round(med["append_events"]),
        "raw_inserts_per_s": round(med["raw"]),
        "raw_held_inserts_per_s": round(med["raw_held"]),
        "ratio_to_raw": round(med["append"] / med["raw"], 3),
        "ratio_to_raw_held": round(med["append"] / med["raw_held"], 3),
        # Above 1, appends queued behind the one in flight and shared statements.
        "appends_per_statement": round(appended / statements, 2) if statements else 1.0,
        "rounds": {key: [round(v) for v in values] for key, values in rates.items()},
    }


async def bench_appends(url: str, seconds: float, rounds: int) -> dict:
    return {str(c): await bench_concurrency(url, c, seconds, rounds) for c in (1, 8, 32)}


# What the store is held to against the raw ceiling of the same run: writers must not make
# an append dearer, nor more writers fewer appends.
TARGETS = {"ratio_to_raw_at_8": 0.80, "ratio_to_raw_at_32": 0.75}


def verdict(appends: dict) -> dict:
    checks = {
        "ratio_to_raw_at_8": appends["8"]["ratio_to_raw"] >= TARGETS["ratio_to_raw_at_8"],
        "ratio_to_raw_at_32": appends["32"]["ratio_to_raw"] >= TARGETS["ratio_to_raw_at_32"],
        "appends_at_32_not_below_8": appends["32"]["appends_per_s"] >= appends["8"]["appends_per_s"],
    }
    return {"targets": TARGETS, "checks": checks, "ok": all(checks.values())}


def match_events(match: int) -> list[tuple[str, bytes]]:
    """One synthetic match: lobby events, 8 deals of bids, cards and tricks, the end."""
    seats = {"N": None, "E": None, "S": None, "W": None}
    events = [("match_created", json.dumps({"game": "belote", "options": {"target": 1000}, "seats": seats}).encode())]
    events += [
        ("seat_taken", json.dumps({"seat": s, "holder": {"kind": "player", "player_id": f"p{match}{s}"}}).encode())
        for s in seats
    ]
    events.append(("match_started", b'{"first_dealer":"N"}'))
    for deal in range(8):
        events += [("bid_made", b'{"seat":"N","bid":"pass"}')] * 4
        for trick in range(8):
            events += [("card_played", CARD)] * 4 + [("trick_won", TRICK)]
        score = {"NS": 90 * (deal + 1), "EW": 72 * (deal + 1)}
        events.append(("deal_finished", json.dumps({"deal": deal, "match_score": score}).encode()))
    events.append(("match_finished", b'{"winner":"NS","match_score":{"NS":720,"EW":576}}'))
    return events


async def load_log(url: str, total: int) -> int:
    """COPY about `total` events in transactions of ~100k (so the log spans many tx_ids)."""
    conn = await connect(url)
    loaded, match, rows = 0, 0, []
    try:
        while loaded < total:
            stream = f"match-{match:07d}"
            for version, (kind, data) in enumerate(match_events(match), 1):
                rows.append((stream, version, uuid.uuid4(), kind, 1, data))
            match += 1
            if len(rows) >= 100_000 or loaded + len(rows) >= total:
                await conn.copy_records_to_table(
                    "events", records=rows,
                    columns=["stream_id", "stream_version", "event_id", "type", "schema_version", "data"],
                )
                loaded, rows = loaded + len(rows), []
        await conn.execute("ANALYZE events")
    finally:
        await conn.close()
    return loaded


async def bench_rebuild(url: str, total: int, batch_size: int) -> dict:
    began = time.perf_counter()
    loaded = await load_log(url, total)
    load_seconds = time.perf_counter() - began
    pool = await create_pool(url, max_size=4)
    report = {"events": loaded, "load_seconds": round(load_seconds, 1), "batch_size": batch_size}
    try:
        runner = ProjectionRunner(PostgresEventStore(pool), batch_size=batch_size)
        for projection in (MatchSummaries(), Lobby()):
            result = await rebuild(runner, projection)
            rows = await pool.fetchval(f"SELECT count(*) FROM {projection.table}")
            report[projection.name] = {
                "events_per_s": round(result.events_per_second),
                "seconds": round(result.seconds, 2),
                "events": result.events,
                "rows": rows,
            }
    finally:
        await pool.close()
    return report


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one measurement slice")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds per concurrency")
    parser.add_argument("--events", type=int, default=1_000_000, help="events in the rebuild log")
    parser.add_argument("--batch-size", type=int, default=5000, help="rebuild events per transaction")
    args = parser.parse_args()

    admin_url = os.environ.get("ATOUT_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    name = f"atout_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(admin_url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = with_database(admin_url, name)
    try:
        conn = await connect(url)
        await migrate(conn)
        await conn.execute(RAW_TABLE)
        server = {
            "version": await conn.fetchval("SHOW server_version"),
            "fsync": await conn.fetchval("SHOW fsync"),
            "synchronous_commit": await conn.fetchval("SHOW synchronous_commit"),
        }
        await conn.close()
        report = {
            "server": server,
            "cpus": os.cpu_count(),
            "seconds_per_measurement": args.seconds,
            "load_average_before": round(os.getloadavg()[0], 2),
            "appends": await bench_appends(url, args.seconds, args.rounds),
            "rebuild": await bench_rebuild(url, args.events, args.batch_size),
        }
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    report["verdict"] = verdict(report["appends"])
    report["load_average_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
