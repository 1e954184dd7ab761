"""The admins' rulings on a belote match (rules-belote.md D-10): checked by the shared
`domain.rulings`; here, how they fold — a voided deal leaves the match total, an adjustment
adds its points, and the match is decided again."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain import rulings
from domain.game import AdjustScore, VoidDeal

from domain.belote.events import DealVoided, ScoreAdjusted
from domain.belote.options import SIDES
from domain.belote.scoring import settle
from domain.belote.state import State, in_deal


def deals(state: State) -> rulings.Deals:
    return rulings.Deals(state.deals_played, in_deal(state), state.voided, SIDES)


def decide_void(state: State, command: VoidDeal) -> list[Any]:
    return rulings.decide_void(deals(state), command)


def decide_adjust(state: State, command: AdjustScore) -> list[Any]:
    return rulings.decide_adjust(deals(state), command)


def evolve_voided(state: State, event: DealVoided) -> State:
    return settle(replace(state, voided=state.voided + (event.deal,)))


def evolve_adjusted(state: State, event: ScoreAdjusted) -> State:
    return settle(replace(state, adjustments=state.adjustments + ((event.deal, dict(event.score)),)))
