"""What drives a match from outside: its status, and the per-deal object of `atout record
play` (shared/rules/README.md conventions 1-3)."""

from __future__ import annotations

from typing import Any

from domain.cards import SEATS, Seat
from domain.game import MatchStatus

from domain.belote import coinche
from domain.belote.state import State, in_deal, no_points


def _status(state: State, to_act: tuple[Seat, ...] = ()) -> MatchStatus:
    if state.over:
        phase, dealer = "match_over", None
    elif in_deal(state):
        phase, dealer = "in_deal", state.next_dealer
    else:
        phase, dealer = "awaiting_deal", state.next_dealer
    return MatchStatus(phase, state.deals_played, dealer, dict(state.match_score), state.winner, to_act)


def status(state: State) -> MatchStatus:
    """`to_act` is public (the API shows it to every seat): the seat in turn, and under House
    the seats that may coinche or surcoinche out of turn. Seats that may still decline their
    combinations are not listed — that would tell the table who holds one."""
    deal = state.deal
    if deal is None or deal.phase == "over" or state.over:
        return _status(state)
    if deal.phase == "play" or state.options.variant != "coinche":
        return _status(state, (deal.turn,))
    to_act = tuple(s for s in SEATS if s == deal.turn or coinche.may_act_out_of_turn(state.options, deal, s))
    return _status(state, to_act)


def contract_json(state: State) -> dict[str, Any] | None:
    deal = state.deal
    if deal is None or deal.contract is None:
        return None
    c = deal.contract
    out: dict[str, Any] = {"seat": str(c.seat), "team": c.team, "trump": c.trump}
    if state.options.variant == "coinche":
        out["value"] = c.value
        out["multiplier"] = c.multiplier
    return out


def deal_summary(state: State) -> dict[str, Any]:
    deal = state.deal
    if deal is None or deal.result == "thrown_in":
        return {"contract": None, "result": "thrown_in" if deal else "incomplete", "tricks": [],
                "points": no_points(), "score": no_points()}
    tricks = [{"leader": str(t.leader), "cards": list(t.cards), "winner": str(t.winner)} for t in deal.tricks]
    over = deal.phase == "over"
    return {"contract": contract_json(state), "result": deal.result if over else "incomplete",
            "tricks": tricks, "points": dict(deal.points), "score": dict(deal.score) if over else no_points()}
