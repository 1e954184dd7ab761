"""Bot benchmarks; prints one JSON object (not a test: run it by hand, outside make test).

    .venv/bin/python bench/bots.py [--deals 6] [--matches 12] [--parallel 4] [--skip-dispatch]

* `decision`: time of an `expert` decision (the policy call, from the seat's view to the
  action), p50/p99/max per game, over whole deals played by four experts on one core.
* `dispatch`: event committed -> bot action committed, through the real path: the
  projector's `bot_turns` projection (beside the default read models and the live
  publisher) schedules `bots.play_turn` on the Redis broker, a real `atout worker`
  subprocess loads the match, asks the policy and appends. Bots are `random`, so think
  time is ~0 and what is measured is the dispatch: the gap between the two events'
  commit timestamps (Postgres `now()` of each append), overall and split: after a bot's
  own action (the worker chains the next bot at once) and after another process's append
  (a human's card or the match start, scheduled by that process's after-commit hook, as
  the API does). Needs a Postgres server
  (`--database-url`, default the local one; a fresh database is made and dropped) and
  Redis (`--redis-url`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain.bots import policy_for  # noqa: E402
from domain.bots.arena import play_deal  # noqa: E402
from domain.cards import SEATS  # noqa: E402
from domain.games import load  # noqa: E402

CONFIGS = [("belote", {"variant": "classic"}), ("belote", {"variant": "coinche"}), ("cinch", {}),
           ("five_hundred", {})]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def figures(values: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values]
    return {"n": len(ms), "p50_ms": round(percentile(ms, 50), 1), "p99_ms": round(percentile(ms, 99), 1),
            "max_ms": round(max(ms), 1), "mean_ms": round(statistics.fmean(ms), 1)}


def decisions(deals: int, seed: int) -> dict[str, dict[str, float]]:
    out = {}
    for game_name, raw in CONFIGS:
        game = load(game_name)
        expert = policy_for(game_name, "expert")
        searched: list[float] = []

        def record(seat, seconds, expert=expert) -> None:
            if expert.last_worlds:
                searched.append(seconds)
            expert.last_worlds = 0

        for k in range(deals):
            rng = random.Random(f"{seed}/{k}")
            deck = list(game.deck)
            rng.shuffle(deck)
            play_deal(game, game.parse_options(raw), SEATS[k % 4], deck, {s: expert for s in SEATS}, rng,
                      on_decision=record)
        out[f"{game_name} {json.dumps(raw)}"] = figures(searched)
    return out


async def dispatch(database_url: str, redis_url: str, matches: int, parallel: int) -> dict[str, float]:
    import asyncpg
    import redis.asyncio as aioredis

    from domain import match as rules
    from infra.projections import ProjectionRunner, WakePublisher, default_projections, run_projector
    from infra.projections.bot_turns import BotTurns
    from infra.projections.publisher import Publisher
    from infra.settings import Settings
    from infra.store import PostgresEventStore, create_pool, migrate
    from infra.store.connection import connect
    from infra.vault import Vault
    from services.matches import MatchService
    from services.workers import fastpath
    from services.workers.app import make_app
    from services.workers.reactor import scheduler

    name = f"atout_bench_{secrets.token_hex(4)}"
    prefix = f"atout_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(database_url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = database_url.rsplit("/", 1)[0] + "/" + name
    conn = await connect(url)
    await migrate(conn)
    await conn.close()
    pool = await create_pool(url, max_size=6)
    redis = aioredis.from_url(redis_url)
    settings = Settings(database_url=url, redis_url=redis_url, redis_prefix=prefix)
    wake = WakePublisher(redis, prefix)

    hooks = []

    async def after_append(result) -> None:          # what services.bootstrap composes for the API
        await wake(result)
        for hook in hooks:
            await hook(result)

    svc = MatchService(PostgresEventStore(pool, after_append=after_append), Vault(pool))
    app = make_app(settings)
    hooks.append(fastpath.hook(svc, app))
    stop = asyncio.Event()
    projections = [*default_projections(), Publisher(redis_url=redis_url, prefix=prefix), BotTurns(scheduler(app))]
    projector = asyncio.create_task(run_projector(ProjectionRunner(PostgresEventStore(pool)), projections,
                                                  redis_url=redis_url, redis_prefix=prefix, stop=stop))
    env = {**os.environ, "ATOUT_DATABASE_URL": url, "ATOUT_REDIS_URL": redis_url, "ATOUT_REDIS_PREFIX": prefix,
           "ATOUT_LOG_LEVEL": "warning"}
    worker = subprocess.Popen([sys.executable, "-m", "services.cli", "worker", "--concurrency", "2"], cwd=ROOT,
                              env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    gaps: list[float] = []
    split: dict[str, list[float]] = {"after_a_bot": [], "after_another_process": []}
    try:
        await asyncio.sleep(3.0)                      # the worker's start
        seats = {s: "bot:random" for s in "NESW"}
        games = [CONFIGS[k % len(CONFIGS)] for k in range(matches)]
        ids: list[str] = []
        for start in range(0, matches, parallel):
            batch = []
            for game_name, raw in games[start:start + parallel]:
                created = await svc.create_match(game_name, {**raw, "deals": 1}, seats)
                await svc.start(created.match_id)
                batch.append(created.match_id)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                states = [await svc.load(m) for m in batch]
                if all(s.status == "finished" for s in states):
                    break
                await asyncio.sleep(0.2)
            ids += batch
        for match_id in ids:
            rows = await pool.fetch("SELECT stream_version, type, recorded_at, tx_id FROM events "
                                    "WHERE stream_id = $1 ORDER BY stream_version", f"match-{match_id}")
            first_of_tx: dict[int, str] = {}
            for row in rows:
                first_of_tx.setdefault(row["tx_id"], row["type"])
            action = rules.ActionTaken.__struct_config__.tag
            for before, row in zip(rows, rows[1:]):
                if row["type"] == action and before["stream_version"] > 1:
                    gap = (row["recorded_at"] - before["recorded_at"]).total_seconds()
                    gaps.append(gap)
                    by_bot = first_of_tx[before["tx_id"]] == action
                    split["after_a_bot" if by_bot else "after_another_process"].append(gap)
    finally:
        os.killpg(worker.pid, 15)
        worker.wait(15)
        stop.set()
        await asyncio.wait_for(projector, 10)
        app.close()
        await pool.close()
        async for key in redis.scan_iter(match=f"{prefix}*"):
            await redis.unlink(key)
        await redis.aclose()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    return {**figures(gaps), "matches": matches, "parallel": parallel,
            **{k: figures(v) for k, v in split.items() if v}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=6, help="deals of four experts per game (decision times)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--matches", type=int, default=12, help="one-deal matches of four random bots (dispatch)")
    parser.add_argument("--parallel", type=int, default=4, help="matches played at once (dispatch)")
    parser.add_argument("--database-url", default=os.environ.get("ATOUT_DATABASE_URL")
                        or "postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis-url", default=os.environ.get("ATOUT_REDIS_URL") or "redis://127.0.0.1:6379/0")
    parser.add_argument("--skip-dispatch", action="store_true")
    parser.add_argument("--skip-decision", action="store_true")
    args = parser.parse_args()
    out: dict = {"cpus": os.cpu_count()}
    if not args.skip_decision:
        out["expert_decision"] = decisions(args.deals, args.seed)
    if not args.skip_dispatch:
        out["dispatch"] = asyncio.run(dispatch(args.database_url, args.redis_url, args.matches, args.parallel))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
