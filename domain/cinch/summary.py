"""What drives a match from outside: its status, and the per-deal object of `atout record
play` (shared/rules/README.md, "Match records" and its conventions 1–3)."""

from __future__ import annotations

from typing import Any

from domain.game import MatchStatus
from domain.tricks import next_dealer

from domain.cinch.options import side_table, sides
from domain.cinch.ranking import TABLES
from domain.cinch.state import DIRECTION, State


def status(state: State) -> MatchStatus:
    in_deal = state.in_deal
    return MatchStatus(
        phase="in_deal" if in_deal else state.phase,
        deals_played=state.deals_played,
        next_dealer=next_dealer(state.deal.dealer, DIRECTION) if state.deal.dealer is not None and not in_deal else None,
        match_score=dict(state.match_score),
        winner=state.winner,
        to_act=(state.deal.turn,) if in_deal and state.deal.turn is not None else ())


def deal_summary(state: State) -> dict[str, Any]:
    """The current or last deal. `contract` is null during the auction and set (trump null
    until named) once it is over; an unfinished deal lists its completed tricks, their
    points (no A.4.9 credits: those count at the end) and a zero score."""
    zero = {s: 0 for s in sides(state.options)}
    contract = None
    if state.deal.contract is not None:
        c = state.deal.contract
        contract = {"seat": str(c.seat), "team": side_table(state.options)[c.seat], "trump": c.trump,
                    "value": c.value}
    tricks = [{"leader": str(t.leader), "cards": list(t.cards), "winner": str(t.winner)} for t in state.deal.tricks]
    finished = state.deals_played > 0 and len(state.history) == state.deals_played
    if finished:
        record = state.history[-1]
        return {"contract": contract, "result": "made" if record.made else "failed", "tricks": tricks,
                "points": dict(record.points), "score": dict(record.score)}
    points = dict(zero)
    if state.deal.contract is not None and state.deal.contract.trump is not None:
        table = TABLES[state.deal.contract.trump]
        side = side_table(state.options)
        low_to_holder = state.options.low_point == "holder"
        for trick in state.deal.tricks:
            for seat, card in trick.plays:
                if card in table.points:
                    taker = seat if low_to_holder and card == table.low else trick.winner
                    points[side[taker]] += table.points[card]  # type: ignore[index]
    return {"contract": contract, "result": "incomplete", "tricks": tricks, "points": points, "score": zero}
