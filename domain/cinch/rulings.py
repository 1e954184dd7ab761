"""The admins' rulings on finished Cinch deals (rules-cinch.md CD-11): checked by the shared
`domain.rulings`; here, how they fold — the deal's record is marked void or gains the
adjustment, and the match is judged again from the whole history."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain import rulings
from domain.game import AdjustScore, VoidDeal

from domain.cinch.events import DealVoided, ScoreAdjusted
from domain.cinch.options import sides
from domain.cinch.scoring import settle
from domain.cinch.state import State


def deals(state: State) -> rulings.Deals:
    voided = {d for d, record in enumerate(state.history) if record.voided}
    return rulings.Deals(state.deals_played, state.in_deal, voided, sides(state.options))


def decide_void(state: State, command: VoidDeal) -> list[Any]:
    return rulings.decide_void(deals(state), command)


def decide_adjust(state: State, command: AdjustScore) -> list[Any]:
    return rulings.decide_adjust(deals(state), command)


def _ruled(state: State, deal: int, **changes: Any) -> State:
    history = list(state.history)
    history[deal] = replace(history[deal], **changes)
    return settle(replace(state, history=tuple(history)))


def evolve_voided(state: State, event: DealVoided) -> State:
    return _ruled(state, event.deal, voided=True)


def evolve_adjusted(state: State, event: ScoreAdjusted) -> State:
    record = state.history[event.deal]
    return _ruled(state, event.deal, adjustments=record.adjustments + (dict(event.score),))
