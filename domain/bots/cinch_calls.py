"""Cinch's calls judged by solved worlds (`solved_calls.py` drives the search): each
candidate bid, pass or trump named leads — through `basic`'s auction, trump naming, discards,
draws and robbing — to a contract whose play is solved from the first lead.

A Cinch deal's score needs the points each side takes, not a threshold: a contract made
scores the difference of the two sides' points, so each contract reached is solved once,
exactly (`cinch.doubledummy.value`, about a millisecond from the first lead), for the
bidder's side; the other side takes what is left of the points in play (every counting card
in a hand is credited to someone, and the trumps shed face up are credited already).
Candidates that reach the same bidder, trump and hands share the solve.

Partnership Cinch only (`solved`). Individually the solver can only set the three others
against the bidder, and how they share the rest is a guess; priced with a third each, or
in proportion to each one's own solve against the others, the master's individual calls
measured worse than the expert's playouts (docs/bots.md), which keep that auction.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from domain.bots import cinch as family
from domain.bots.auction_worlds import first_lead
from domain.cinch import doubledummy as cinch_dd
from domain.cinch.options import side_table, sides
from domain.cinch.ranking import TABLES
from domain.cinch.scoring import credits, deal_score

if TYPE_CHECKING:
    from domain.bots.solved_calls import Within


def solved(options: Any) -> bool:
    """Partnership Cinch (see the module's docstring)."""
    return not options.individual


def points_in_play(state: Any) -> int:
    """The points the deal will credit, at its first lead: the counting cards in the hands
    (each goes to a trick's winner, or the Two to its holder) and the trumps shed face up
    credited to a side (a side's own sheds are dead)."""
    values = TABLES[state.deal.contract.trump].points
    shed = sum(values[c] for c, side in credits(state) if side is not None)
    return shed + sum(values.get(c, 0) for hand in state.deal.hands for c in hand)


def margin(state: Any, seat: Any, taken: int) -> float:
    """`seat`'s side's score margin when the side to lead ends with `taken` points and the
    other side with the rest of the points in play."""
    options = state.options
    leader = side_table(options)[state.deal.turn]
    other = next(s for s in sides(options) if s != leader)
    _, score = deal_score(options, state.deal.contract, {leader: taken, other: points_in_play(state) - taken})
    mine = side_table(options)[seat]
    return float(score[mine] - score[other if mine == leader else leader])


def world_values(game: Any, world: Any, commands: list[Any], seat: Any, rng: random.Random,
                 within: Within) -> dict[int, float]:
    """Each candidate's score margin for `seat` in one world, the contracts reached solved
    once each."""
    reached = [first_lead(game, family, world, command, rng) for command in commands]
    taken: dict[Any, int] = {}
    row: dict[int, float] = {}
    for i, state in enumerate(reached):
        if state is None:
            row[i] = 0.0
            continue
        deal = state.deal
        key = (deal.turn, deal.contract.trump, deal.hands, deal.shed)
        if key not in taken:
            taken[key] = within(lambda state=state: cinch_dd.value(state))
        row[i] = margin(state, seat, taken[key])
    return row


__all__ = ["margin", "points_in_play", "solved", "world_values"]
