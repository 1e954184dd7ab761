"""The admins' rulings — void a deal, adjust a score — checked once for every game.

A ruling changes a result, so every game must refuse the same rulings with the same codes;
what differs is only how a game folds the two events into its own score history, which each
game's `rulings.py` does. The checks, in the README's order:

1. an adjustment naming a side the game does not have, or points that are not an integer
   (a bool is not one): `bad_action`;
2. a deal that has not been started: `bad_action`;
3. the deal still being played, or any deal while one is played in a game that rules only
   between deals (Five Hundred): `wrong_phase`;
4. voiding a deal already void: `bad_action`.
"""

from __future__ import annotations

from typing import Any, Collection, NamedTuple

from domain.game import AdjustScore, DealVoided, ScoreAdjusted, VoidDeal, verify


class Deals(NamedTuple):
    """What the checks need to know of a match, whatever the game."""

    started: int                   # deals started so far; the current or last one is started - 1
    in_deal: bool                  # the last started deal is still being played
    voided: Collection[int]        # deals already void
    sides: tuple[str, ...]         # the scoring sides an adjustment may name
    between_deals: bool = False    # the game rules only while no deal is being played


def verify_deal(deals: Deals, deal: int) -> None:
    verify(0 <= deal < deals.started, "bad_action", f"there is no deal {deal} to rule on", deal=deal)
    verify(not (deals.in_deal and deals.between_deals), "wrong_phase",
           "a ruling is made between deals", deal=deal)
    verify(not (deals.in_deal and deal == deals.started - 1), "wrong_phase",
           f"deal {deal} is still being played", deal=deal)


def verify_score(deals: Deals, score: dict[Any, Any]) -> None:
    for side, points in score.items():
        verify(side in deals.sides and isinstance(points, int) and not isinstance(points, bool),
               "bad_action", f"an adjustment gives integer points to {', '.join(deals.sides)}; "
               f"got {side!r}: {points!r}", side=str(side))


def decide_void(deals: Deals, command: VoidDeal) -> list[Any]:
    verify_deal(deals, command.deal)
    verify(command.deal not in deals.voided, "bad_action", f"deal {command.deal} is already void",
           deal=command.deal)
    return [DealVoided(deal=command.deal, admin=command.admin, reason=command.reason)]


def decide_adjust(deals: Deals, command: AdjustScore) -> list[Any]:
    verify_score(deals, command.score)
    verify_deal(deals, command.deal)
    return [ScoreAdjusted(deal=command.deal, score=dict(command.score), admin=command.admin,
                          reason=command.reason)]
