"""The admins' rulings on finished Cinch deals (rules-cinch.md CD-11): a voided deal leaves
the match score, an adjustment adds its points; the match is then judged again."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.game import AdjustScore, RuleViolation, VoidDeal, verify

from domain.cinch.events import DealVoided, ScoreAdjusted
from domain.cinch.options import sides
from domain.cinch.scoring import settle
from domain.cinch.state import State


def _verify_ruled_deal(state: State, deal: int) -> None:
    verify(0 <= deal < len(state.history), "wrong_phase",
           f"deal {deal} has not been finished; rulings apply to finished deals", deal=deal)


def decide_void(state: State, command: VoidDeal) -> list[Any]:
    _verify_ruled_deal(state, command.deal)
    verify(not state.history[command.deal].voided, "wrong_phase", f"deal {command.deal} is already void")
    return [DealVoided(deal=command.deal, admin=command.admin, reason=command.reason)]


def decide_adjust(state: State, command: AdjustScore) -> list[Any]:
    _verify_ruled_deal(state, command.deal)
    known = sides(state.options)
    for side in command.score:
        if side not in known:
            raise RuleViolation("bad_action", f"unknown side {side!r}; the sides are {', '.join(known)}",
                                {"side": side})
    return [ScoreAdjusted(deal=command.deal, score=dict(command.score), admin=command.admin,
                          reason=command.reason)]


def _ruled(state: State, deal: int, **changes: Any) -> State:
    history = list(state.history)
    history[deal] = replace(history[deal], **changes)
    return settle(replace(state, history=tuple(history)))


def evolve_void(state: State, event: DealVoided) -> State:
    return _ruled(state, event.deal, voided=True)


def evolve_adjust(state: State, event: ScoreAdjusted) -> State:
    record = state.history[event.deal]
    return _ruled(state, event.deal, adjustments=record.adjustments + (dict(event.score),))
