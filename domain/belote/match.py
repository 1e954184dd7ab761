"""The match around the deals: starting a deal, closing it, the per-deal score history that
rulings act on, match end at the target (or after `deals` deals), status and the record-play
summary of a deal (README conventions 1-3)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.cards import DECK_32, SEATS, Seat
from domain.game import AdjustScore, MatchStatus, StartDeal, VoidDeal, verify
from domain.tricks import add_scores, check_start_deal, deal_packets, leader_after_deals, leader_at_target

from domain.belote.events import DealScored, DealStarted, DealVoided, ScoreAdjusted, ThrownIn
from domain.belote.state import Deal, State, no_points
from domain.belote.turns import DIRECTION, NEXT

PACKETS = {"classic": (3, 2), "sans_atout": (3, 2), "coinche": (3, 2, 3)}


def in_deal(state: State) -> bool:
    return state.deal is not None and state.deal.phase != "over"


def decide_start(state: State, command: StartDeal) -> list[Any]:
    check_start_deal(command, DECK_32, state.next_dealer, state.over, in_deal(state))
    return [DealStarted(state.deals_played, command.dealer, state.options.variant, tuple(command.deck),
                        command.fair)]


def first_cards(event: DealStarted) -> tuple[dict[Seat, tuple[str, ...]], str | None, tuple[str, ...]]:
    """(hands, turn-up, cards left for after the auction) of a deal, from its deck."""
    hands, _, rest = deal_packets(event.deck, event.dealer, DIRECTION, PACKETS[event.variant])
    turn_up = rest[0] if event.variant == "classic" else None
    return {s: tuple(hands[s]) for s in SEATS}, turn_up, tuple(rest[1:] if turn_up else rest)


def evolve_started(state: State, event: DealStarted) -> State:
    """Classic and sans atout: 5 cards each (3-2), then the turn-up in classic; Coinche 3-2-3."""
    hands, turn_up, rest = first_cards(event)
    eldest = NEXT[event.dealer]
    deal = Deal(number=event.deal, dealer=event.dealer, eldest=eldest, phase="auction", turn=eldest,
                hands=hands, stock=rest, turn_up=turn_up)
    return replace(state, deal=deal, deals_played=state.deals_played + 1, next_dealer=eldest)


def _settle(state: State) -> State:
    """Recompute the match score from the history and rulings; between deals, decide the
    match: a side at the target with strictly more points wins (§7.1), or after `deals`
    deals the side ahead (a tie is a tie). A ruling can reopen a finished match."""
    score = no_points()
    for d, deal_score in enumerate(state.history):
        if d not in state.voided:
            score = add_scores(score, deal_score)
    for _, adjustment in state.adjustments:
        score = add_scores(score, adjustment)
    score = {"NS": score["NS"], "EW": score["EW"]}
    if in_deal(state):
        return replace(state, match_score=score)
    options = state.options
    if options.deals is not None:
        over = state.deals_played >= options.deals
        winner = leader_after_deals(score) if over else None
    else:
        winner = leader_at_target(score, options.target)
        over = winner is not None
    return replace(state, match_score=score, winner=winner, over=over,
                   pool=0 if over else state.pool)


def evolve_thrown_in(state: State, event: ThrownIn) -> State:
    deal = replace(state.deal, phase="over", turn=None, result="thrown_in", score=no_points())
    return _settle(replace(state, deal=deal, history=state.history + (no_points(),)))


def evolve_scored(state: State, event: DealScored) -> State:
    deal = replace(state.deal, phase="over", turn=None, result=event.result, points=event.points,
                   score=event.score)
    return _settle(replace(state, deal=deal, history=state.history + (event.score,), pool=event.pool))


# --- rulings ------------------------------------------------------------------------------

def _verify_ruled_deal(state: State, deal: int) -> None:
    verify(0 <= deal < state.deals_played, "bad_action", f"there is no deal {deal} to rule on", deal=deal)
    verify(not (in_deal(state) and deal == state.deals_played - 1), "wrong_phase",
           f"deal {deal} is still being played", deal=deal)


def decide_void(state: State, command: VoidDeal) -> list[Any]:
    _verify_ruled_deal(state, command.deal)
    verify(command.deal not in state.voided, "bad_action", f"deal {command.deal} is already void")
    return [DealVoided(command.deal, command.admin, command.reason)]


def decide_adjust(state: State, command: AdjustScore) -> list[Any]:
    _verify_ruled_deal(state, command.deal)
    for side, points in command.score.items():
        verify(side in ("NS", "EW") and isinstance(points, int) and not isinstance(points, bool),
               "bad_action", f"an adjustment gives integer points to NS or EW, got {side!r}: {points!r}")
    return [ScoreAdjusted(command.deal, dict(command.score), command.admin, command.reason)]


def evolve_voided(state: State, event: DealVoided) -> State:
    return _settle(replace(state, voided=state.voided + (event.deal,)))


def evolve_adjusted(state: State, event: ScoreAdjusted) -> State:
    return _settle(replace(state, adjustments=state.adjustments + ((event.deal, dict(event.score)),)))


# --- what drivers and records see -----------------------------------------------------------

def status(state: State, to_act: tuple[Seat, ...] = ()) -> MatchStatus:
    if state.over:
        phase, dealer = "match_over", None
    elif in_deal(state):
        phase, dealer = "in_deal", state.next_dealer
    else:
        phase, dealer = "awaiting_deal", state.next_dealer
    return MatchStatus(phase, state.deals_played, dealer, dict(state.match_score), state.winner, to_act)


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


