"""Reviewing finished deals off the request path, and reading the reviews back.

The backlog is every `hand_records` row without a `deal_reviews` row, taken newest first:
the players of a deal just finished are the ones waiting for its review, and an old backlog
(after a reset) drains behind them. A worker claims a batch by inserting their rows (an insert is atomic: of two workers that pick the same deal,
one inserts and the other's `ON CONFLICT` takes nothing), reviews each from its record
(`domain.review`, seeded by the deal's id, so a review rebuilt is the same review), and
writes the review with its per-seat fair-play signals in one transaction. A claim older
than `CLAIM_TIMEOUT` without a review is a worker that died: the next pass takes it over.
A deal that cannot be reviewed keeps its reason in `failure` and is not tried again until
its row is deleted — deleting rows is how reviews are rebuilt (`atout reviews reset`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence
from typing import Any, Literal

import asyncpg
import msgspec

from domain import review as deal_review
from domain.cards import Seat, partner_of
from domain.games import load
from infra.projections.match_summaries import jsonb

log = logging.getLogger(__name__)

CLAIM_TIMEOUT = 300          # seconds a claim holds before another worker may take the deal over
BATCH = 4                    # deals per pass (a pass is a few seconds of one core at most)

CLAIM = """
WITH waiting AS (
    SELECT h.record_id, h.match_id, h.deal, s.game
    FROM hand_records h
    JOIN match_summaries s ON s.match_id = h.match_id
    LEFT JOIN deal_reviews r ON r.record_id = h.record_id
    WHERE r.record_id IS NULL
       OR (r.review IS NULL AND r.failure IS NULL AND r.claimed_at < now() - make_interval(secs => $2))
    ORDER BY h.finished_at DESC
    LIMIT $1
)
INSERT INTO deal_reviews (record_id, match_id, deal, game)
SELECT record_id, match_id, deal, game FROM waiting
ON CONFLICT (record_id) DO UPDATE SET claimed_at = now()
    WHERE deal_reviews.review IS NULL AND deal_reviews.failure IS NULL
      AND deal_reviews.claimed_at < now() - make_interval(secs => $2)
RETURNING record_id
"""

RECORDS = """
SELECT h.record_id, h.match_id, h.deal, h.dealer, h.deck, h.actions, h.finished_at, s.game, s.options, s.seats
FROM hand_records h JOIN match_summaries s ON s.match_id = h.match_id
WHERE h.record_id = ANY($1::text[])
"""

BACKLOG = """
SELECT count(*) AS deals, EXTRACT(EPOCH FROM now() - min(h.finished_at))::float8 AS oldest
FROM hand_records h LEFT JOIN deal_reviews r ON r.record_id = h.record_id
WHERE r.record_id IS NULL OR (r.review IS NULL AND r.failure IS NULL)
"""


class Analysis(msgspec.Struct, frozen=True):
    """What the analysis route answers: `ready` with the review, `pending` while the workers
    have not reviewed the deal yet, `failed` with the reason (a game without a solver)."""

    match_id: str
    deal: int
    status: Literal["ready", "pending", "failed"]
    review: deal_review.DealReview | None = None
    failure: str | None = None


def seed_of(record_id: str) -> int:
    return int.from_bytes(hashlib.sha256(record_id.encode()).digest()[:8], "big")


def review_record(row: dict[str, Any], worlds: int) -> deal_review.DealReview:
    game = load(row["game"])
    options = game.parse_options(jsonb(row["options"]) or {})
    return deal_review.review(game, options, row["dealer"], jsonb(row["deck"]), jsonb(row["actions"]),
                              worlds=worlds, seed=seed_of(row["record_id"]))


def signal_rows(row: dict[str, Any], review: deal_review.DealReview) -> list[tuple[Any, ...]]:
    """One row per seat that played a card with a choice: who held it, his partner, and his
    signals summed (what `domain.fairplay` folds)."""
    seats = jsonb(row["seats"]) or {}
    game = load(row["game"])
    sides = game.sides(game.parse_options(jsonb(row["options"]) or {}))
    sums: dict[str, list[float]] = {}
    for card in review.cards:
        if card.signal is None:
            continue
        tally = sums.setdefault(card.seat, [0, 0.0, 0.0])
        tally[0] += 1
        tally[1] += card.signal
        tally[2] += card.signal * card.signal
    out = []
    for seat, (n, total, squares) in sorted(sums.items()):
        holder = seats.get(seat) or {}
        bot = holder.get("kind") == "bot"
        partner = None
        if len(sides) == 2:
            partner = _who(seats.get(str(partner_of(Seat(seat)))) or {})
        out.append((row["record_id"], row["match_id"], seat, _who(holder), partner, row["game"], bot, int(n),
                    float(total), float(squares), row["finished_at"]))
    return out


def _who(holder: dict[str, Any]) -> str | None:
    if not holder:
        return None
    if holder.get("kind") == "bot":
        return f"bot:{holder.get('level') or 'basic'}"
    return holder.get("player_id")


class ReviewService:
    def __init__(self, pool: asyncpg.Pool, worlds: int) -> None:
        self.pool, self.worlds = pool, worlds

    async def review_pending(self, limit: int = BATCH) -> int:
        """Claim up to `limit` unreviewed deals and review them; how many were reviewed."""
        async with self.pool.acquire() as conn:
            claimed = [r["record_id"] for r in await conn.fetch(CLAIM, limit, float(CLAIM_TIMEOUT))]
            if not claimed:
                return 0
            rows = [dict(r) for r in await conn.fetch(RECORDS, claimed)]
        done = 0
        for row in rows:
            try:
                review = await asyncio.to_thread(review_record, row, self.worlds)
            except Exception as exc:   # a deal the solver cannot take: say why, never retry in a loop
                log.exception("could not review %s", row["record_id"])
                await self._fail(row["record_id"], f"{type(exc).__name__}: {exc}"[:500])
                continue
            await self._store(row, review)
            done += 1
        return done

    async def _store(self, row: dict[str, Any], review: deal_review.DealReview) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            stored = await conn.execute(
                "UPDATE deal_reviews SET review = $2::jsonb, reviewed_at = now() WHERE record_id = $1 AND review IS NULL",
                row["record_id"], msgspec.json.encode(review))
            if stored.endswith(" 0"):
                return        # another worker took the claim over and finished first
            await conn.executemany(
                "INSERT INTO review_signals (record_id, match_id, seat, player_id, partner_id, game, bot, decisions,"
                " total, squares, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
                " ON CONFLICT DO NOTHING", [r for r in signal_rows(row, review) if r[3] is not None])

    async def _fail(self, record_id: str, reason: str) -> None:
        async with self.pool.acquire() as conn:
            await conn.execute("UPDATE deal_reviews SET failure = $2 WHERE record_id = $1 AND review IS NULL",
                               record_id, reason)

    async def analysis(self, match_id: str, deal: int) -> Analysis:
        async with self.pool.acquire() as conn:
            row = await conn.fetchrow("SELECT review, failure FROM deal_reviews WHERE record_id = $1",
                                      f"{match_id}/{deal}")
        if row is None or (row["review"] is None and row["failure"] is None):
            return Analysis(match_id=match_id, deal=deal, status="pending")
        if row["review"] is None:
            return Analysis(match_id=match_id, deal=deal, status="failed", failure=row["failure"])
        raw = row["review"]
        review = msgspec.json.decode(raw.encode() if isinstance(raw, str) else raw, type=deal_review.DealReview)
        return Analysis(match_id=match_id, deal=deal, status="ready", review=review)

    async def backlog(self) -> tuple[int, float]:
        """Deals finished and not yet reviewed, and the age of the oldest, in seconds."""
        async with self.pool.acquire() as conn:
            row = await conn.fetchrow(BACKLOG)
        return int(row["deals"]), float(row["oldest"] or 0.0)

    async def reset(self, match_ids: Sequence[str] = ()) -> int:
        """Delete reviews (of `match_ids`, or all): the workers review those deals again."""
        async with self.pool.acquire() as conn:
            if match_ids:
                result = await conn.execute("DELETE FROM deal_reviews WHERE match_id = ANY($1::text[])", list(match_ids))
            else:
                result = await conn.execute("DELETE FROM deal_reviews")
        return int(result.split()[-1])
