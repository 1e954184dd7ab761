"""`atout projector`: run the projections as a process until SIGTERM or SIGINT."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

import msgspec

from infra.heap import settle_heap
from infra.projections import ProjectionRunner, close_projections, run_projector
from infra.settings import Settings, SettingsError, load_settings
from infra.store import PostgresEventStore, create_pool
from infra.store.connection import database_url_for_cli
from services.commands.projections import all_projections


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("projector", help="keep the read models up to date")
    parser.add_argument("--database-url", help="Postgres URL (default: ATOUT_DATABASE_URL, else embedded)")
    parser.add_argument("--redis-url", help="Redis URL for wake-ups (default: ATOUT_REDIS_URL; none: poll only)")
    parser.add_argument("--redis-prefix", help="key and channel prefix (default: ATOUT_REDIS_PREFIX or atout)")
    parser.add_argument("--poll-interval", type=float, default=0.5, help="seconds between polls (default 0.5)")
    parser.add_argument("--batch-size", type=int, default=1000, help="events per transaction (default 1000)")
    parser.add_argument("--only", help="comma-separated projection names (default: all of them)")
    parser.set_defaults(func=run)


def _settings(args: argparse.Namespace) -> Settings:
    settings = load_settings()
    return msgspec.structs.replace(settings, redis_url=args.redis_url or settings.redis_url,
                                   redis_prefix=args.redis_prefix or settings.redis_prefix)


async def _run(settings: Settings, args: argparse.Namespace) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    assert settings.database_url is not None
    built = all_projections(settings)
    projections = built
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {p.name for p in projections}
        if unknown:
            await close_projections(built)
            raise SystemExit(f"atout projector: unknown projection(s) {', '.join(sorted(unknown))}")
        projections = [p for p in projections if p.name in wanted]
    pool = await create_pool(settings.database_url, max_size=4)
    settle_heap()
    try:
        runner = ProjectionRunner(PostgresEventStore(pool), batch_size=args.batch_size)
        await run_projector(
            runner, projections, redis_url=settings.redis_url, redis_prefix=settings.redis_prefix,
            poll_interval=args.poll_interval, batch_delay=settings.projector_delay, stop=stop,
        )
    finally:
        await close_projections(built)
        await pool.close()


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=os.environ.get("ATOUT_LOG_LEVEL", "info").upper(), stream=sys.stderr)
    try:
        settings = _settings(args)
    except SettingsError as error:
        print(f"atout projector: {error}", file=sys.stderr)
        return 2
    try:
        with database_url_for_cli(args.database_url, create=True) as url:
            asyncio.run(_run(msgspec.structs.replace(settings, database_url=url), args))
    except (OSError, RuntimeError) as error:
        print(f"atout projector: {error}", file=sys.stderr)
        return 2
    return 0
