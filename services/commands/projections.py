"""`atout projections status` and `atout projections rebuild NAME`; both print one JSON object."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from infra.projections import Projection, ProjectionRunner, RebuildBusy, rebuild
from infra.settings import Settings
from infra.store import PostgresEventStore, create_pool
from infra.store.connection import database_url_for_cli


def all_projections(settings: Settings | None = None) -> list[Projection]:
    """What the projector runs: every feature's projections (`services.bootstrap.FEATURES`)."""
    from services import bootstrap  # the whole composition: only for the commands that need it

    return bootstrap.projections(settings)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("projections", help="read models: status and rebuild")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    status = verbs.add_parser("status", help="each projection's position and lag")
    status.set_defaults(func=run_status)
    again = verbs.add_parser("rebuild", help="rebuild a projection from the log, then swap it in")
    again.add_argument("name", help="the projection to rebuild")
    again.add_argument("--batch-size", type=int, default=5000, help="events per transaction (default 5000)")
    again.set_defaults(func=run_rebuild)
    for verb in (status, again):
        verb.add_argument("--database-url", help="Postgres URL (default: ATOUT_DATABASE_URL, else embedded)")


async def _status(url: str) -> dict:
    pool = await create_pool(url, max_size=2)
    try:
        return await ProjectionRunner(PostgresEventStore(pool)).status(all_projections())
    finally:
        await pool.close()


async def _rebuild(url: str, name: str, batch_size: int) -> dict:
    by_name = {p.name: p for p in all_projections() if p.tables}
    if name not in by_name:
        return {"ok": False, "error": f"unknown projection {name!r}", "known": sorted(by_name)}
    pool = await create_pool(url, max_size=3)
    try:
        runner = ProjectionRunner(PostgresEventStore(pool), batch_size=batch_size)
        report = await rebuild(runner, by_name[name])
    finally:
        await pool.close()
    return {
        "ok": True,
        "name": report.name,
        "events": report.events,
        "batches": report.batches,
        "seconds": round(report.seconds, 3),
        "events_per_second": round(report.events_per_second),
    }


def run_status(args: argparse.Namespace) -> int:
    try:
        with database_url_for_cli(args.database_url) as url:
            print(json.dumps(asyncio.run(_status(url))))
    except (OSError, RuntimeError) as error:
        print(f"atout projections status: {error}", file=sys.stderr)
        return 2
    return 0


def run_rebuild(args: argparse.Namespace) -> int:
    try:
        with database_url_for_cli(args.database_url) as url:
            result = asyncio.run(_rebuild(url, args.name, args.batch_size))
    except RebuildBusy as error:
        result = {"ok": False, "error": str(error)}
    except (OSError, RuntimeError) as error:
        print(f"atout projections rebuild: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0 if result["ok"] else 1
