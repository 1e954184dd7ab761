"""Starting a deal (A.3) and the admins' rulings on finished deals.

The deck arrives inside `StartDeal` (top card first): three cards at a time to each seat
from eldest, clockwise, until each holds nine; the sixteen left are the stock. The deal
passes to the left after every deal.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.cards import DECK_52, SEATS
from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal, verify
from domain.tricks import check_start_deal, deal_packets, next_dealer

from .messages import DealStarted, DealVoided, ScoreAdjusted
from .options import sides
from .scoring import settle
from .state import DIRECTION, State

PACKETS = (3, 3, 3)


def decide_start(state: State, command: StartDeal) -> list[Any]:
    expected = next_dealer(state.dealer, DIRECTION) if state.dealer is not None else None
    check_start_deal(command, DECK_52, expected, state.phase == "match_over", state.in_deal)
    hands, _, stock = deal_packets(command.deck, command.dealer, DIRECTION, PACKETS)
    return [DealStarted(deal=state.deals_played, dealer=command.dealer,
                        hands={s: tuple(hands[s]) for s in SEATS}, stock=tuple(stock),
                        stock_size=len(stock), fair=command.fair)]


def evolve_start(state: State, event: DealStarted) -> State:
    return replace(state, phase="auction", deals_played=state.deals_played + 1, dealer=event.dealer,
                   turn=next_dealer(event.dealer, DIRECTION), hands=tuple(event.hands[s] for s in SEATS),
                   stock=event.stock, bids=(), high=None, contract=None, face_up=(), reused=(), shed=(),
                   pending=(), drawn=(), took=None, buried=(), trick=None, tricks=(), fair=event.fair)


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
