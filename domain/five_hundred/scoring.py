"""Avondale scoring of a deal (B.7) and the end of the match (B.8).

The match score and winner are always recomputed from the per-deal history, so an admin's
ruling (a voided deal, an adjusted score) moves them exactly as if it had been made when
that deal ended: the first deal after which a side qualifies decides the match.
"""

from __future__ import annotations

from typing import Final, Sequence

from msgspec.structs import replace

from domain.five_hundred.bids import BIDS
from domain.five_hundred.events import DealScored
from domain.five_hundred.options import Options
from domain.five_hundred.state import AWAITING_DEAL, MATCH_OVER, SIDE_NAMES, Contract, DealRecord, State

SLAM: Final = 250
DEFENDER_TRICK: Final = 10


def score_deal(contract: Contract, won: tuple[int, int]) -> tuple[str, tuple[int, int]]:
    """(result, score per side) of a played deal; `won` is tricks per side (NS, EW)."""
    bid = BIDS[contract.bid]
    side = contract.side
    other = 1 - side
    taken = won[side]
    out = [0, 0]
    if bid.misere:
        # B.7.5: ±250 / ±500; the defenders score nothing (CB-3 a).
        made = taken == 0
        out[side] = bid.value if made else -bid.value
    else:
        made = taken >= bid.tricks  # type: ignore[operator]
        if not made:
            out[side] = -bid.value                          # B.7.3
        elif taken == 10:
            out[side] = max(bid.value, SLAM)                # B.7.2
        else:
            out[side] = bid.value                           # B.7.1: no overtricks
        out[other] = DEFENDER_TRICK * won[other]            # B.7.4
    return ("made" if made else "failed"), (out[0], out[1])


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]


def match_score(history: Sequence[DealRecord]) -> tuple[int, int]:
    total = (0, 0)
    for record in history:
        if not record.voided:
            total = _add(total, record.score)
        total = _add(total, record.adjust)
    return total


def _winner_after(record: DealRecord, total: tuple[int, int], target: int) -> str | None:
    """B.8 after one deal: the contractors win at `target`+ if they made their contract
    (front door, B.8.1/B.8.3); else a side at -`target` or below loses (B.8.2)."""
    if not record.voided and record.result == "made" and record.contract is not None:
        side = record.contract.side
        if total[side] >= target:
            return SIDE_NAMES[side]
    out = [total[0] <= -target, total[1] <= -target]
    if out[0] and out[1]:
        # Only reachable through adjusted scores: the side less deep in the hole survives.
        if total[0] == total[1]:
            return None
        return SIDE_NAMES[0] if total[0] > total[1] else SIDE_NAMES[1]
    if out[0]:
        return SIDE_NAMES[1]
    if out[1]:
        return SIDE_NAMES[0]
    return None


def outcome(history: Sequence[DealRecord], options: Options) -> tuple[tuple[int, int], bool, str | None]:
    """(match score, match over, winner) from the deals played so far."""
    if options.deals is not None:
        total = match_score(history)
        if len(history) < options.deals:
            return total, False, None
        if total[0] == total[1]:
            return total, True, None
        return total, True, SIDE_NAMES[0] if total[0] > total[1] else SIDE_NAMES[1]
    total = (0, 0)
    for record in history:
        if not record.voided:
            total = _add(total, record.score)
        total = _add(total, record.adjust)
        winner = _winner_after(record, total, options.target)
        if winner is not None:
            return match_score(history), True, winner
    return total, False, None


def settle(state: State, history: tuple[DealRecord, ...]) -> State:
    """Between deals (the only time history changes): the match score and winner follow
    from the whole history, so a ruling can end, change or reopen the match."""
    score, over, winner = outcome(history, state.options)
    return replace(state, history=history, score=score, winner=winner, phase=MATCH_OVER if over else AWAITING_DEAL)


def evolve_scored(state: State, event: DealScored) -> State:
    deal = state.deal
    record = DealRecord(deal=event.deal, dealer=deal.dealer, contract=deal.contract,  # type: ignore[arg-type]
                        result=event.result, tricks=deal.tricks, points=(event.points["NS"], event.points["EW"]),
                        score=(event.score["NS"], event.score["EW"]))
    return replace(settle(state, state.history + (record,)), deal=replace(state.deal, turn=None))
