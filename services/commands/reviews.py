"""`atout reviews status` and `atout reviews reset [MATCH_ID...]`; both print one JSON object.

Reviews are a pure function of each deal's record: resetting deletes them and the workers
review those deals again (a new solver or sampler, a rule fixed), from the hand records.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from infra.store import create_pool
from infra.store.connection import database_url_for_cli


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("reviews", help="deal reviews: the backlog, and reviewing again")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    status = verbs.add_parser("status", help="finished deals not reviewed yet, and the oldest's age")
    status.set_defaults(func=run)
    reset = verbs.add_parser("reset", help="delete reviews (of the matches named, or all): the workers redo them")
    reset.add_argument("match_ids", nargs="*", help="only these matches (default: every review)")
    reset.set_defaults(func=run)
    for verb in (status, reset):
        verb.add_argument("--database-url", help="Postgres URL (default: ATOUT_DATABASE_URL, else embedded)")


async def _run(url: str, args: argparse.Namespace) -> dict:
    from services.reviews.service import ReviewService

    pool = await create_pool(url, max_size=2)
    try:
        service = ReviewService(pool, 0)
        if args.verb == "reset":
            return {"ok": True, "deleted": await service.reset(args.match_ids)}
        deals, oldest = await service.backlog()
        return {"ok": True, "backlog": deals, "oldest_seconds": round(oldest, 1)}
    finally:
        await pool.close()


def run(args: argparse.Namespace) -> int:
    try:
        with database_url_for_cli(args.database_url) as url:
            print(json.dumps(asyncio.run(_run(url, args))))
    except (OSError, RuntimeError) as error:
        print(f"atout reviews {args.verb}: {error}", file=sys.stderr)
        return 2
    return 0
