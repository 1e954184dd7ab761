"""The admins' rulings on a belote match: a voided deal leaves the match total, an
adjustment adds its points (belote.md D-10); the match is then decided again."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.game import AdjustScore, VoidDeal, verify

from domain.belote.events import DealVoided, ScoreAdjusted
from domain.belote.scoring import settle
from domain.belote.state import State, in_deal


def _verify_ruled_deal(state: State, deal: int) -> None:
    verify(0 <= deal < state.deals_played, "bad_action", f"there is no deal {deal} to rule on", deal=deal)
    verify(not (in_deal(state) and deal == state.deals_played - 1), "wrong_phase",
           f"deal {deal} is still being played", deal=deal)


def decide_void(state: State, command: VoidDeal) -> list[Any]:
    _verify_ruled_deal(state, command.deal)
    verify(command.deal not in state.voided, "bad_action", f"deal {command.deal} is already void")
    return [DealVoided(command.deal, command.admin, command.reason)]


def decide_adjust(state: State, command: AdjustScore) -> list[Any]:
    _verify_ruled_deal(state, command.deal)
    for side, points in command.score.items():
        verify(side in ("NS", "EW") and isinstance(points, int) and not isinstance(points, bool),
               "bad_action", f"an adjustment gives integer points to NS or EW, got {side!r}: {points!r}")
    return [ScoreAdjusted(command.deal, dict(command.score), command.admin, command.reason)]


def evolve_voided(state: State, event: DealVoided) -> State:
    return settle(replace(state, voided=state.voided + (event.deal,)))


def evolve_adjusted(state: State, event: ScoreAdjusted) -> State:
    return settle(replace(state, adjustments=state.adjustments + ((event.deal, dict(event.score)),)))
