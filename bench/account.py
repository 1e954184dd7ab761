"""Account stream benchmark: what the `account_events` projection costs the projector per
match event (and per notice), beside the match publisher on the same log, and what the
alternative — each open account stream polling its head — would cost per read. One JSON object.

    .venv/bin/python bench/account.py [--matches 40] [--rated]

It connects to ATOUT_BENCH_DATABASE_URL (default: the local Postgres as `postgres`) and
ATOUT_BENCH_REDIS_URL (default: the local Redis), creates its own database and drops it at
the end. The matches are played by four human players, random legal actions, through the
game service (real events of every kind; `--rated`: rated matches, which the ratings
producer's fold rates, each one a `rating_changed` per player); then each projection catches
up from zero.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg  # noqa: E402
import msgspec  # noqa: E402

from domain import match as rules  # noqa: E402
from domain.cards import Seat  # noqa: E402
from domain.playout import concrete  # noqa: E402
from infra.projections import ProjectionRunner  # noqa: E402
from infra.projections.account_events import AccountEvents  # noqa: E402
from infra.projections.account_producers import DisputeNotices, MatchNotices  # noqa: E402
from infra.projections.tournament_notices import TournamentNotices  # noqa: E402
from infra.projections.publisher import Publisher  # noqa: E402
from infra.projections.rating_notices import RatingNotices  # noqa: E402
from infra.store import PostgresEventStore, connect, create_pool, migrate  # noqa: E402
from infra.vault import Vault  # noqa: E402
from services.matches.service import MatchService  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from store import with_database  # noqa: E402


async def play(svc: MatchService, rng: random.Random, rated: bool) -> None:
    players = {seat: f"bench-{uuid.uuid4().hex[:8]}" for seat in "NESW"}
    created = await svc.create_match("belote", {"deals": 1}, {"N": "me", "E": "open", "S": "open", "W": "open"},
                                     player_id=players["N"], rated=rated)
    match_id = created.match_id
    for seat in "ESW":
        await svc.take_seat(match_id, Seat(seat), player_id=players[seat])
    await svc.start(match_id)
    while (state := await svc.load(match_id)).status == "playing":
        choices = [(seat, a) for seat in Seat for a in msgspec.to_builtins(rules.view(state, seat).table)["legal"]]
        seat, action = rng.choice(choices)
        await svc.act(match_id, {**concrete(action, rng), "seat": str(seat)}, player_id=players[str(seat)],
                      expected_version=state.version, command_id=uuid.uuid4())


async def catch_up(runner: ProjectionRunner, projection) -> float:
    await runner.ensure(projection)
    began = time.perf_counter()
    await runner.catch_up(projection)
    return time.perf_counter() - began


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--rated", action="store_true", help="rated matches (rating_changed notices)")
    args = parser.parse_args()
    url = os.environ.get("ATOUT_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    redis_url = os.environ.get("ATOUT_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
    name = f"atout_bench_account_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        conn = await connect(with_database(url, name))
        await migrate(conn)
        await conn.close()
        pool = await create_pool(with_database(url, name), max_size=4)
        store = PostgresEventStore(pool)
        svc, rng = MatchService(store, Vault(pool)), random.Random(7)
        began = time.perf_counter()
        for _ in range(args.matches):
            await play(svc, rng, args.rated)
        played = time.perf_counter() - began
        events = await pool.fetchval("SELECT count(*) FROM events")
        runner = ProjectionRunner(store, batch_size=1000)
        prefix = f"bench-account-{secrets.token_hex(3)}"
        account = AccountEvents([MatchNotices(), TournamentNotices(), DisputeNotices(), RatingNotices()],
                                redis_url=redis_url, prefix=prefix)
        publisher = Publisher(redis_url=redis_url, prefix=prefix)
        publisher.max_age = __import__("datetime").timedelta(days=1)
        account_s = await catch_up(runner, account)
        publisher_s = await catch_up(runner, publisher)
        notices = await pool.fetchval("SELECT count(*) FROM account_events")
        players = [r[0] for r in await pool.fetch("SELECT player_id FROM account_heads LIMIT 200")]
        reads, began = 0, time.perf_counter()
        while time.perf_counter() - began < 2.0:
            for player in players:
                await pool.fetchval("SELECT seq FROM account_heads WHERE player_id = $1", player)
                reads += 1
        poll_us = (time.perf_counter() - began) / reads * 1e6
        await account.close()
        await publisher.close()
        await pool.close()
        print(json.dumps({
            "matches": args.matches, "rated": args.rated, "events": events, "notices": notices, "notices_published": account.published,
            "play_seconds": round(played, 2),
            "account_events_us_per_event": round(account_s / events * 1e6, 1),
            "account_events_us_per_notice": round(account_s / max(1, notices) * 1e6, 1),
            "publisher_us_per_event": round(publisher_s / events * 1e6, 1),
            "poll_read_us": round(poll_us, 1),
            # the alternative: 1,000 open, idle account streams each reading its head once a second
            "poll_cpu_seconds_per_second_1000_idle_streams": round(poll_us * 1000 / 1e6, 3),
        }))
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
