"""`atout migrate`: apply the pending SQL migrations, print what was applied as JSON."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from infra.store.connection import connect, database_url_for_cli
from infra.store.migrate import MigrationError, load_migrations, migrate


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("migrate", help="apply the database migrations (idempotent)")
    parser.add_argument("--database-url", help="Postgres URL (default: ATOUT_DATABASE_URL, else embedded)")
    parser.set_defaults(func=run)


async def _migrate(url: str) -> list[str]:
    conn = await connect(url)
    try:
        return await migrate(conn)
    finally:
        await conn.close()


def run(args: argparse.Namespace) -> int:
    try:
        with database_url_for_cli(args.database_url, create=True) as url:
            applied = asyncio.run(_migrate(url))
    except MigrationError as error:
        print(json.dumps({"ok": False, "error": str(error)}))
        return 1
    except (OSError, RuntimeError) as error:
        print(f"atout migrate: {error}", file=sys.stderr)
        return 2
    print(json.dumps({"ok": True, "applied": applied, "known": len(load_migrations())}))
    return 0
