"""The admins' rulings on Five Hundred deals (rules-five-hundred.md D-12, D-13): made
between deals, on deals already played; the match is then decided again by replaying the
deal history."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.five_hundred.events import DealVoided, ScoreAdjusted
from domain.five_hundred.scoring import settle
from domain.five_hundred.state import IN_DEAL, SIDE_NAMES, State
from domain.game import AdjustScore, VoidDeal, verify


def _between_deals(state: State, deal: int) -> None:
    verify(state.phase not in IN_DEAL, "wrong_phase", "a ruling is made between deals")
    verify(0 <= deal < len(state.history), "bad_action", f"deal {deal} has not been played")


def decide_void(state: State, command: VoidDeal) -> list[Any]:
    _between_deals(state, command.deal)
    verify(not state.history[command.deal].voided, "bad_action", f"deal {command.deal} is already void")
    return [DealVoided(deal=command.deal, admin=command.admin, reason=command.reason)]


def decide_adjust(state: State, command: AdjustScore) -> list[Any]:
    verify(set(command.score) <= set(SIDE_NAMES) and
           all(isinstance(v, int) and not isinstance(v, bool) for v in command.score.values()),
           "bad_action", "an adjustment gives integer points to NS and/or EW")
    _between_deals(state, command.deal)
    return [ScoreAdjusted(deal=command.deal, score=dict(command.score), admin=command.admin, reason=command.reason)]


def evolve_voided(state: State, event: DealVoided) -> dict[str, Any]:
    history = list(state.history)
    history[event.deal] = msgspec.structs.replace(history[event.deal], voided=True)
    return settle(state, tuple(history))


def evolve_adjusted(state: State, event: ScoreAdjusted) -> dict[str, Any]:
    history = list(state.history)
    record = history[event.deal]
    adjust = (record.adjust[0] + event.score.get("NS", 0), record.adjust[1] + event.score.get("EW", 0))
    history[event.deal] = msgspec.structs.replace(record, adjust=adjust)
    return settle(state, tuple(history))
