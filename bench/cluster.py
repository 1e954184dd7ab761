"""Scaling benchmark: the API benchmark (bench/api.py) through nginx with 1, 2 and 3 replicas.

    python bench/cluster.py [--replicas 1,2,3] [--tables 100] [--seconds 15] [--rate 150] [--pg URL] [--redis URL]

For each replica count, on a fresh database: the cluster of tests/e2e/system_support.py
(`atout migrate`, the benchmark's projector, N × `atout serve`, nginx with deploy/nginx.conf
in front; no workers: the tables are all human), `--tables` matches seated and followed on a
WebSocket per seat through the proxy, then bench/api.py's phases: `max` (every table as fast
as its answers come back) and `paced` (`--rate` actions/s in total). Printed as JSON:
per replica count, actions/s, the action p99 and the fan-out p99 (commit to arrival on the
other seats' sockets), plus the CPU each process spent per action, and the load average.

On two shared cores more replicas cannot add throughput (they share the same cores with
Postgres, Redis, nginx and the load generator); what this shows there is that nothing
degrades or breaks as replicas are added, and on a larger machine the slope.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import sys
import tempfile
from pathlib import Path

import asyncpg
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests" / "e2e")]

import api
from system_support import cluster


async def measure(args: argparse.Namespace, replicas: int) -> dict:
    from infra.store import PostgresEventStore, create_pool
    from infra.vault import Vault
    from services.matches.service import MatchService

    name = f"atout_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(args.pg)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url, prefix = api._with_db(args.pg, name), f"atout_bench_{secrets.token_hex(4)}"
    try:
        with tempfile.TemporaryDirectory(prefix="atout-cluster-bench-") as data, \
                cluster(Path(data), url, args.redis, prefix, replicas=replicas, workers=0, projectors=1, beat=False,
                        projector_command=[sys.executable, str(ROOT / "bench" / "api.py"), "--role", "projector"]
                        ) as running:
            port = running.procs["nginx-0"].port
            assert port is not None
            http = api.Http(port)
            players = []
            for i in range(args.players):
                status, body = await http.request("POST", "/v1/players", {"name": f"bench {i}"})
                assert status == 201, body
                players.append(json.loads(body))
            pool = await create_pool(url, max_size=8)
            conn = await asyncpg.connect(url)
            try:
                svc = MatchService(PostgresEventStore(pool), Vault(pool))
                rng = random.Random(args.seed)
                tables = []
                for t in range(args.tables):
                    seated = [players[(4 * t + k) % len(players)] for k in range(4)]
                    table = api.Table(port, seated, svc, random.Random(rng.random()))
                    await table.open(port, {"deals": 500})
                    tables.append(table)
                pids = {**{p.name: p.popen.pid for p in running.of("serve")},
                        "projector": running.procs["projector-0"].popen.pid,
                        "bench": os.getpid()}
                for i, worker in enumerate(psutil.Process(running.procs["nginx-0"].popen.pid).children()):
                    pids[f"nginx-{i}"] = worker.pid             # nginx works in its workers
                result: dict = {"replicas": replicas, "load_average_at_start": os.getloadavg()}
                result["max"] = await api.phase(tables, 0, args.seconds, conn, pids)
                result[f"paced_{args.rate:g}"] = await api.phase(tables, args.rate, args.seconds, conn, pids)
                for table in tables:
                    for ws in table.sockets:
                        await ws.close()
                return result
            finally:
                await conn.close()
                await pool.close()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def summary(runs: list[dict], rate: float) -> list[dict]:
    """One row per replica count: the figures the scaling question is about."""
    rows = []
    for run in runs:
        top, paced = run["max"], run[f"paced_{rate:g}"]
        rows.append({"replicas": run["replicas"], "max_actions_per_s": top["accepted_per_s"],
                     "max_action_p99_ms": top["action_ms"]["p99"], "max_fanout_p99_ms": top["fanout_ms"]["p99"],
                     f"paced_{rate:g}_actions_per_s": paced["accepted_per_s"],
                     f"paced_{rate:g}_action_p99_ms": paced["action_ms"]["p99"],
                     f"paced_{rate:g}_fanout_p99_ms": paced["fanout_ms"]["p99"],
                     "refused": {k: v for k, v in {**top["statuses"], **paced["statuses"]}.items() if int(k) != 200}})
    return rows


async def bench(args: argparse.Namespace) -> dict:
    runs = [await measure(args, n) for n in args.replicas]
    return {"cores": os.cpu_count(), "load_average_at_start": runs[0]["load_average_at_start"] if runs else None,
            "load_average_at_end": os.getloadavg(), "tables": args.tables, "sockets": 4 * args.tables,
            "table": summary(runs, args.rate), "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", type=lambda text: [int(n) for n in text.split(",")], default=[1, 2, 3])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--players", type=int, default=160, help="tokens to spread the per-token rate limit over")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rate", type=float, default=150.0, help="actions/s in total of the paced phase")
    parser.add_argument("--pg", default=os.environ.get("ATOUT_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--redis", default=os.environ.get("ATOUT_BENCH_REDIS", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--seed", type=int, default=1)
    print(json.dumps(asyncio.run(bench(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
