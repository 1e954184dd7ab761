"""`atout worker`: the Celery worker that plays bots' turns, fires turn clocks, sweeps, and
reviews finished deals (`--queues` splits them between workers).

Settings come from ATOUT_* variables like every process (`atout serve` passes its embedded
servers' URLs to the worker it starts). `--beat` runs the beat scheduler inside the worker
(the sweeper's timer), for a single-machine setup; deployments run `atout beat` once.
"""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("worker", help="run the Celery worker (bots, clocks, sweeper)")
    parser.add_argument("--concurrency", type=int, default=None, help="worker processes (default: CPU cores)")
    parser.add_argument("--pool", default="prefork", help="Celery pool: prefork (default), solo, threads")
    parser.add_argument("--beat", action="store_true", help="also run the beat scheduler in this process")
    parser.add_argument("--queues", default=None,
                        help="the queues to consume, comma-separated, of bots, clock, reviews (default: all)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from infra.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"atout worker: {exc}", file=sys.stderr)
        return 2
    if not settings.database_url or not settings.redis_url:
        print("atout worker: set ATOUT_DATABASE_URL and ATOUT_REDIS_URL (atout serve starts its own worker "
              "on the embedded servers)", file=sys.stderr)
        return 2
    from infra.observability import WORKER_METRICS_PORT, instrument_celery
    from services.bootstrap import worker_app
    from services.workers.app import queues

    app = worker_app(settings)                # every feature's tasks and beat entries
    instrument_celery(metrics_port=WORKER_METRICS_PORT)

    names = queues(settings.redis_prefix)
    wanted = [q.strip() for q in args.queues.split(",")] if args.queues else list(names)
    unknown = [q for q in wanted if q not in names]
    if unknown or not wanted:
        print(f"atout worker: unknown queue(s) {', '.join(unknown) or '(none)'}; queues are {', '.join(names)}",
              file=sys.stderr)
        return 2
    app.conf.atout_reviews_beside_bots = "reviews" in wanted and "bots" in wanted   # services/reviews/tasks.py
    argv = ["worker", "-Q", ",".join(names[q] for q in wanted), "-P", args.pool,
            "--without-mingle", "--without-gossip", "-l", settings.log_level.upper() if settings.log_level != "trace"
            else "DEBUG", "-n", f"atout-{settings.redis_prefix}@%h"]
    if args.concurrency:
        argv += ["--concurrency", str(args.concurrency)]
    if args.beat:
        argv += ["-B", "-s", str(settings.data_path / "celerybeat-schedule")]
        settings.data_path.mkdir(parents=True, exist_ok=True)
    app.worker_main(argv)
    return 0
