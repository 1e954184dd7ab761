"""The admins' fair-play table: per player or partnership, the z-score of their signals.

Only deals that are public count: a match over, and a tournament table once the visibility
policy calls its board public (its round closed at every table) — so the table never says
anything about a deal still hidden from someone, an admin who plays included. The null
(`domain.fairplay.null_model`) is measured on every call from the bot seats' signals of the
last `NULL_DAYS`: bots play in every way of playing all the time, so it follows any change
of the sampler, the solver or the rules without a job to keep it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Awaitable, Callable, Literal

import asyncpg
import msgspec

from domain import fairplay

NULL_DAYS = 90
MAX_DAYS = 365
OVER = ("finished", "abandoned", "void")

_WHERE = """r.finished_at >= now() - make_interval(days => $1) AND s.status = ANY($3::text[])
  AND NOT (r.match_id = ANY($2::text[]))"""
PLAYERS = f"""
SELECT r.player_id AS who, r.game, sum(r.decisions)::int AS n, sum(r.total) AS total, sum(r.squares) AS squares,
       count(DISTINCT r.record_id)::int AS deals, max(r.finished_at) AS last_at
FROM review_signals r JOIN match_summaries s ON s.match_id = r.match_id
WHERE NOT r.bot AND {_WHERE}
GROUP BY 1, 2
"""
PARTNERSHIPS = f"""
SELECT least(r.player_id, r.partner_id) || ' ' || greatest(r.player_id, r.partner_id) AS who, r.game,
       sum(r.decisions)::int AS n, sum(r.total) AS total, sum(r.squares) AS squares,
       count(DISTINCT r.record_id)::int AS deals, max(r.finished_at) AS last_at
FROM review_signals r JOIN match_summaries s ON s.match_id = r.match_id
WHERE NOT r.bot AND r.partner_id IS NOT NULL AND r.partner_id NOT LIKE 'bot:%' AND {_WHERE}
GROUP BY 1, 2
"""
TOURNAMENT_TABLES = """
SELECT DISTINCT r.match_id FROM review_signals r JOIN match_summaries s ON s.match_id = r.match_id
WHERE s.tournament AND r.finished_at >= now() - make_interval(days => $1) AND s.status = ANY($2::text[])
"""
NULL = """
SELECT game, sum(decisions)::int AS n, sum(total) AS total, sum(squares) AS squares
FROM review_signals WHERE bot AND finished_at >= now() - make_interval(days => $1)
GROUP BY game
"""


class FairplayRow(msgspec.Struct, frozen=True):
    """One player's (or partnership's) signals over the window, against the bots' null."""

    kind: Literal["player", "partnership"]
    who: str                   # the player id, or the partnership's two ids (sorted, space-separated)
    players: list[str]
    deals: int
    decisions: int             # cards with a choice, in games whose null is measured
    z: float | None
    flagged: bool
    games: list[str]
    last_at: datetime


async def table(pool: asyncpg.Pool, is_public: Callable[[str], Awaitable[bool]], *,
                kind: Literal["player", "partnership"], days: int,
                flagged_only: bool) -> list[FairplayRow]:
    """Every row of the window, newest activity first."""
    async with pool.acquire() as conn:
        sealed = [r["match_id"] for r in await conn.fetch(TOURNAMENT_TABLES, days, list(OVER))]
        sealed = [m for m in sealed if not await is_public(m)]
        groups = await conn.fetch(PLAYERS if kind == "player" else PARTNERSHIPS, days, sealed, list(OVER))
        null = fairplay.null_model({r["game"]: fairplay.Tally(r["n"], r["total"], r["squares"])
                                    for r in await conn.fetch(NULL, NULL_DAYS)})
    by_who: dict[str, dict[str, Any]] = {}
    for r in groups:
        entry = by_who.setdefault(r["who"], {"tallies": {}, "deals": 0, "last_at": r["last_at"]})
        entry["tallies"][r["game"]] = fairplay.Tally(r["n"], r["total"], r["squares"])
        entry["deals"] += r["deals"]
        entry["last_at"] = max(entry["last_at"], r["last_at"])
    rows = []
    for who, entry in by_who.items():
        verdict = fairplay.verdict(entry["tallies"], null)
        if flagged_only and not verdict.flagged:
            continue
        rows.append(FairplayRow(kind=kind, who=who, players=who.split(" "), deals=entry["deals"], decisions=verdict.decisions,
                                z=verdict.z, flagged=verdict.flagged, games=sorted(entry["tallies"]),
                                last_at=entry["last_at"]))
    rows.sort(key=lambda row: (row.last_at, row.who), reverse=True)
    return rows
