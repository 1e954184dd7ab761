"""A tournament's boards: the decks its board matches are dealt, and each board's score.

Why apart from the service: the decks come from the committed shuffle (below) or from an
imported match record (docs/tournaments.md, "Boards"), and neither needs the service's state.
"""

from __future__ import annotations

import json
from typing import Any

import asyncpg

from domain import fair
from domain import match as match_rules
from domain.cards import Seat, next_seat
from domain.games import load
from domain.tournaments import boards as imported_rules


def board_deals(game: str, tournament_id: str, secret: bytes, board_count: int, boards: list[int]
                ) -> list[dict[str, Any]]:
    """The predefined deals of a round: board b's deck is the shuffle of seed c_b with the
    context `tournament:<id>:board:<b>` and no entropy; the dealer rotates from N."""
    rules_ = load(game)
    dealer, out = Seat.N, []
    for b in boards:
        seed = fair.chain_element(secret, board_count, b)
        out.append({"dealer": str(dealer), "deck": fair.shuffle_deck(len(rules_.deck), seed,
                                                                     fair.tournament_context(tournament_id, b))})
        dealer = next_seat(dealer, rules_.direction)
    return out


def board_scores(events: list[tuple[int, Any, Any]], boards: list[int]) -> dict[str, dict[str, int]]:
    """Each board's score from the match's `deal_finished` events (the match score's deltas)."""
    out, before = {}, {}
    finished = [e for _, e, _ in events if isinstance(e, match_rules.DealFinished)]
    for board, deal in zip(boards, finished):
        out[str(board)] = {side: deal.match_score.get(side, 0) - before.get(side, 0) for side in deal.match_score}
        before = deal.match_score
    return out


# --- boards imported as a match record (domain/tournaments/boards.py) ----------------------

async def keep(pool: asyncpg.Pool, tournament_id: str, game: str, record: Any, per_round: int) -> int:
    """Validate the record's boards and keep them (never in an event); how many there are."""
    deals = imported_rules.parse_record(game, record, per_round)
    await pool.execute("INSERT INTO tournament_boards (tournament_id, deals) VALUES ($1, $2)"
                       " ON CONFLICT (tournament_id) DO NOTHING", tournament_id, json.dumps(deals).encode())
    return len(deals)


async def _deals(pool: asyncpg.Pool, tournament_id: str) -> list[dict[str, Any]]:
    # jsonb travels as raw JSON bytes on the store's connections (infra/store/connection.py)
    return json.loads(await pool.fetchval("SELECT deals FROM tournament_boards WHERE tournament_id = $1",
                                          tournament_id))


async def imported(pool: asyncpg.Pool, tournament_id: str, boards: list[int]) -> list[dict[str, Any]]:
    """The predefined deals of a round: board b is the record's deal b (1-based)."""
    deals = await _deals(pool, tournament_id)
    return [deals[b - 1] for b in boards]


async def digests(pool: asyncpg.Pool, tournament_id: str, secret: bytes, board_count: int) -> list[str]:
    """One digest a board, `sha256(c_b || board)`, for the boards the tournament will play."""
    deals = await _deals(pool, tournament_id)
    return [imported_rules.digest(fair.chain_element(secret, board_count, b), deals[b - 1])
            for b in range(1, min(board_count, len(deals)) + 1)]
