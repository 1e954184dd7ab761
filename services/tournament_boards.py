"""A tournament's boards: the decks its board matches are dealt, and each board's score.

Why apart from the service: the decks come from the committed shuffle (below) or from an
imported match record (docs/tournaments.md, "Boards"), and neither needs the service's state.
"""

from __future__ import annotations

from typing import Any

from domain import fair
from domain import match as match_rules
from domain.cards import Seat, next_seat
from domain.game import load


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
