"""What drives a match from outside: `status` (where the match stands) and `deal_summary`
(the README's per-deal record-play object, with its conventions 1–3)."""

from __future__ import annotations

from typing import Any

from domain.five_hundred.bids import BIDS, TRICKS
from domain.five_hundred.state import AUCTION, IN_DEAL, MATCH_OVER, SIDE_NAMES, Contract, State
from domain.game import MatchStatus
from domain.tricks import Trick, next_dealer


def contract_json(contract: Contract | None) -> dict[str, Any] | None:
    """Convention 3: seat, team, trump (null in NT and misère), and tricks or contract."""
    if contract is None:
        return None
    spec = BIDS[contract.bid]
    out: dict[str, Any] = {"seat": str(contract.seat), "team": SIDE_NAMES[contract.side], "trump": spec.trump}
    if spec.kind == TRICKS:
        out["tricks"] = spec.tricks
    else:
        out["contract"] = spec.kind
    return out


def trick_json(trick: Trick) -> dict[str, Any]:
    return {"leader": str(trick.leader), "cards": [card for _, card in trick.plays],
            "winner": None if trick.winner is None else str(trick.winner)}


def _sides(pair: tuple[int, int]) -> dict[str, int]:
    return {SIDE_NAMES[0]: pair[0], SIDE_NAMES[1]: pair[1]}


def deal_summary(state: State) -> dict[str, Any]:
    if state.phase in IN_DEAL:
        # Convention 1: completed tricks only, no score; the contract once the auction is over.
        return {"contract": None if state.phase == AUCTION else contract_json(state.deal.contract),
                "result": "incomplete", "tricks": [trick_json(t) for t in state.deal.tricks],
                "points": _sides(state.deal.won), "score": _sides((0, 0))}
    if not state.history:
        return {"contract": None, "result": None, "tricks": [], "points": _sides((0, 0)), "score": _sides((0, 0))}
    record = state.history[-1]
    return {"contract": contract_json(record.contract), "result": record.result,
            "tricks": [trick_json(t) for t in record.tricks], "points": _sides(record.points),
            "score": _sides(record.score)}


def status(state: State) -> MatchStatus:
    """Asked before every step by the drivers: positional arguments, no detours."""
    phase = state.phase
    score = {"NS": state.score[0], "EW": state.score[1]}
    if phase in IN_DEAL:
        turn = state.deal.turn
        return MatchStatus("in_deal", state.deals_played, None, score, state.winner, (turn,) if turn is not None else ())
    nxt = next_dealer(state.deal.dealer, "clockwise") if state.deal.dealer is not None and phase != MATCH_OVER else None
    return MatchStatus("match_over" if phase == MATCH_OVER else "awaiting_deal", state.deals_played, nxt, score, state.winner)
