"""Counting the fourteen points and scoring a deal (A.2, A.4.9, A.6, A.7.3), and the match
standing (game to the target, or exactly `deals` deals).

The standing is recomputed from the per-deal history whenever it changes, so an admin's
ruling (a voided deal, an adjusted score) moves the match score and the winner exactly as
if the deal had been scored that way: a finished match may change winner, or reopen when no
side is over the target any more.
"""

from __future__ import annotations

from typing import Mapping

from msgspec.structs import replace

from domain.cards import Card
from domain.tricks import leader_after_deals

from domain.cinch.events import DealScored
from domain.cinch.options import Options, side_table, sides
from domain.cinch.ranking import TABLES
from domain.cinch.state import Contract, DealRecord, State


def credits(state: State) -> tuple[tuple[Card, str | None], ...]:
    """Each counting card, in counting-out order, with the side it scores for (None: dead).

    A card in a trick goes to the trick winner's side (A.2.2), the Two to the side of the
    seat that played it under `low_point: holder` (CA-4 (b)). A trump shed face up (by a
    non-dealer over six, or by the robbing dealer) is credited to the bidder's side when an
    opponent shed it, else dead (A.4.9) — whatever `low_point` says.
    """
    contract = state.deal.contract
    assert contract is not None and contract.trump is not None
    table = TABLES[contract.trump]
    side = side_table(state.options)
    maker = side[contract.seat]
    holder_low = state.options.low_point == "holder"
    where: dict[Card, str | None] = {}
    for trick in state.deal.tricks:
        for seat, card in trick.plays:
            if card in table.points:
                taker = seat if holder_low and card == table.low else trick.winner
                where[card] = side[taker]  # type: ignore[index]
    for seat, card in state.deal.shed:
        if card in table.points:
            where[card] = maker if side[seat] != maker else None
    return tuple((card, where.get(card)) for card, _ in table.count_order)


def points_of(options: Options, trump: str, credited: tuple[tuple[Card, str | None], ...]) -> dict[str, int]:
    points = {s: 0 for s in sides(options)}
    values = TABLES[trump].points
    for card, side in credited:
        if side is not None:
            points[side] += values[card]
    return points


def deal_score(options: Options, contract: Contract, points: Mapping[str, int]) -> tuple[bool, dict[str, int]]:
    """(made, what each side adds to the match score)."""
    maker = side_table(options)[contract.seat]
    score = {s: 0 for s in sides(options)}
    made = points[maker] >= contract.value
    if options.individual:
        # Clarifications (A.7.3): each non-maker scores what he took; the maker his points
        # if he made his bid, else he loses the bid. `failure_scoring` does not apply.
        for s in score:
            score[s] = points[s]
        if not made:
            score[maker] = -contract.value
        return made, score
    other = "EW" if maker == "NS" else "NS"
    b, o = points[maker], points[other]
    if made:   # A.6.2: the side with more points scores the difference
        if b > o:
            score[maker] = b - o
        elif o > b:
            score[other] = o - b
    elif options.failure_scoring == "shortfall":   # A.6.3, CA-1 F1
        score[other] = 14 + contract.value - b
    else:                                          # CA-1 F2
        score[other] = o + contract.value
    return made, score


# --- the match standing ------------------------------------------------------------------------


def totals(options: Options, history: tuple[DealRecord, ...]) -> dict[str, int]:
    total = {s: 0 for s in sides(options)}
    for record in history:
        if not record.voided:
            for s, v in record.score.items():
                total[s] += v
        for adjustment in record.adjustments:
            for s, v in adjustment.items():
                total[s] = total.get(s, 0) + v
    return total


def winner_at_target(options: Options, history: tuple[DealRecord, ...], total: Mapping[str, int]) -> str | None:
    """Who has won with these totals (None: play on).

    One side at or over the target wins. Several in individual mode: the maker of the last counted deal goes out if he made his bid; otherwise
    count out that deal's points in the order High, Low, Jack, Game, Right Pedro, Left
    Pedro from the scores before it (Clarifications). Otherwise (both partnerships over
    the target, possible only after a ruling), or when no count settles it: the highest
    score wins, and an exact tie plays on.
    """
    target = options.target
    reached = [s for s, v in total.items() if v >= target]
    if len(reached) <= 1:
        return reached[0] if reached else None
    last = next((r for r in reversed(history) if not r.voided), None)
    if last is not None and options.individual:
        maker = side_table(options)[last.contract.seat]
        if last.made and maker in reached:
            return maker
        running = {s: total[s] - last.score.get(s, 0) for s in total}
        values = TABLES[last.contract.trump].points  # type: ignore[index]
        for card, side in last.credits:
            if side is None or (side == maker and not last.made):
                continue
            running[side] += values[card]
            if side in reached and running[side] >= target:
                return side
    best = max(total[s] for s in reached)
    leaders = [s for s in reached if total[s] == best]
    return leaders[0] if len(leaders) == 1 else None


def settle(state: State, total: dict[str, int] | None = None) -> State:
    """The match score and, between deals, whether the match is over and who won. `total`
    is the new match score when the caller knows it (a deal just scored adds to it);
    otherwise (a ruling) it is recomputed from the whole history."""
    options = state.options
    if total is None:
        total = totals(options, state.history)
    if state.in_deal:
        return replace(state, match_score=total)
    if options.deals is not None:
        over = len(state.history) >= options.deals
        winner = leader_after_deals(total) if over else None
    else:
        winner = winner_at_target(options, state.history, total)
        over = winner is not None
    return replace(state, match_score=total, winner=winner, phase="match_over" if over else "awaiting_deal")


def evolve_scored(state: State, event: DealScored) -> State:
    assert state.deal.dealer is not None and state.deal.contract is not None
    record = DealRecord(dealer=state.deal.dealer, contract=state.deal.contract, made=event.result == "made",
                        points=event.points, score=event.score, credits=event.credits)
    total = {s: v + event.score.get(s, 0) for s, v in state.match_score.items()}
    done = replace(state, history=state.history + (record,), phase="awaiting_deal", deal=replace(state.deal, turn=None))
    return settle(done, total)
