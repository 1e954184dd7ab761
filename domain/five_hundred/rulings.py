"""The admins' rulings on Five Hundred deals (rules-five-hundred.md D-12, D-13): checked by
the shared `domain.rulings`, made only between deals; here, how they fold — the deal's
record is marked void or adjusted, and the match is decided again by replaying the history."""

from __future__ import annotations

from typing import Any

import msgspec

from domain import rulings
from domain.five_hundred.events import DealVoided, ScoreAdjusted
from domain.five_hundred.scoring import settle
from domain.five_hundred.state import IN_DEAL, SIDE_NAMES, State
from domain.game import AdjustScore, VoidDeal


def deals(state: State) -> rulings.Deals:
    voided = {d for d, record in enumerate(state.history) if record.voided}
    return rulings.Deals(state.deals_played, state.phase in IN_DEAL, voided, SIDE_NAMES, between_deals=True)


def decide_void(state: State, command: VoidDeal) -> list[Any]:
    return rulings.decide_void(deals(state), command)


def decide_adjust(state: State, command: AdjustScore) -> list[Any]:
    return rulings.decide_adjust(deals(state), command)


def evolve_voided(state: State, event: DealVoided) -> State:
    history = list(state.history)
    history[event.deal] = msgspec.structs.replace(history[event.deal], voided=True)
    return settle(state, tuple(history))


def evolve_adjusted(state: State, event: ScoreAdjusted) -> State:
    history = list(state.history)
    record = history[event.deal]
    adjust = (record.adjust[0] + event.score.get("NS", 0), record.adjust[1] + event.score.get("EW", 0))
    history[event.deal] = msgspec.structs.replace(record, adjust=adjust)
    return settle(state, tuple(history))
