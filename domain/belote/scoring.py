"""Deal scores: classic and sans atout (belote.md §3.5-3.6, §4.4) and Coinche (§5.4-5.6),
and the match standing they add up to (§7.1).

Inputs per team X ("NS"/"EW"): P[X] card points incl. dix de der (100 on capot), B[X] belote
(20 or 0), K[X] combinations that count (non-zero for one team at most). The formulas are
the document's pseudo-code, kept literal so each line can be checked against it.
"""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple

from msgspec.structs import replace

from domain.cards import TEAM
from domain.tricks import add_scores, leader_after_deals, leader_at_target

from domain.belote import combinations as combos
from domain.belote.coinche import CAPOT, contract_value
from domain.belote.events import Contract, DealScored, ThrownIn
from domain.belote.options import Options
from domain.belote.ranking import deal_points
from domain.belote.state import FROM, OTHER_TEAM, State, in_deal, no_points


class DealScore(NamedTuple):
    result: str                 # "made", "failed", "litige"
    score: dict[str, int]
    pool: int                   # the litige pool after this deal


BELOTE = 20                     # belote-rebelote's points


def round_to_ten(points: int) -> int:
    """Nearest 10, 5 rounds up: 84 -> 80, 85 -> 90 (§5.6)."""
    return (points + 5) // 10 * 10


def _totals(P: Mapping[str, int], B: Mapping[str, int], K: Mapping[str, int]) -> dict[str, int]:
    return {x: P[x] + B[x] + K[x] for x in ("NS", "EW")}


def _pay_pool(score: dict[str, int], winner: str | None, pool: int) -> dict[str, int]:
    """A pool left by earlier litiges goes to the winner of this played deal (§3.6.3)."""
    if winner is not None:
        score[winner] += pool
    return {"NS": score["NS"], "EW": score["EW"]}


def classic_score(A: str, P: Mapping[str, int], B: Mapping[str, int], K: Mapping[str, int],
                  capot: str | None, official: bool, deal_total: int, capot_total: int,
                  pool: int) -> DealScore:
    """`classicScore` of §3.6.4; `capot` is the team that won all 8 tricks, if any."""
    D = OTHER_TEAM[A]
    tot = _totals(P, B, K)
    if capot == A or tot[A] > tot[D]:
        s = dict(tot)
        if capot == A and K[D] > 0 and official:
            s[A] += K[D]
            s[D] -= K[D]
        return DealScore("made", _pay_pool(s, A, pool), 0)
    if tot[A] < tot[D]:
        base = capot_total if capot == D else deal_total
        s = {D: base + B[D] + K[D] + (K[A] if official else 0), A: B[A] + (0 if official else K[A])}
        return DealScore("failed", _pay_pool(s, D, pool), 0)
    return DealScore("litige", _pay_pool({D: tot[D], A: 0}, None, 0), pool + tot[A])


def coinche_made(A: str, tot: Mapping[str, int], capot: str | None, value: int | str) -> bool:
    """§5.4: a capot bid needs all 8 tricks; a number needs Total[A] >= C and > Total[D]
    (a tie is a failure), except that winning all 8 tricks beats any defence (A-33)."""
    if value == CAPOT:
        return capot == A
    return tot[A] >= value and (tot[A] > tot[OTHER_TEAM[A]] or capot == A)


def coinche_score(A: str, P: Mapping[str, int], B: Mapping[str, int], K: Mapping[str, int],
                  capot: str | None, value: int | str, multiplier: int, official: bool,
                  pool: int = 0) -> DealScore:
    """§5.5, Official literally; House with rows 1 (no rounding), 2 (coinched capot base
    160) and 7 (combinations stay with their owners)."""
    D = OTHER_TEAM[A]
    C, m, capA = contract_value(value), multiplier, capot == A
    made = coinche_made(A, _totals(P, B, K), capot, value)
    if official:
        if made and m == 1:
            s = {A: P[A] + B[A] + K[A] + C + (K[D] if capA else 0), D: P[D] + B[D] + (0 if capA else K[D])}
        elif made:
            s = {A: ((250 if capA else 160) + K[A] + B[A] + K[D] + C) * m, D: B[D]}
        else:
            s = {D: (160 + K[D] + B[D] + K[A] + C) * m, A: B[A]}
        s = {x: round_to_ten(v) for x, v in s.items()}
    elif made and m == 1:
        s = {A: P[A] + B[A] + K[A] + C, D: P[D] + B[D] + K[D]}
    elif made:
        s = {A: (160 + K[A] + B[A] + C) * m, D: B[D] + K[D]}
    else:
        s = {D: (160 + K[D] + B[D] + C) * m, A: B[A] + K[A]}
    return DealScore("made" if made else "failed", _pay_pool(s, A if made else D, pool), 0)


def declared_bonuses(state: State, taker_team: str) -> tuple[dict[str, int], dict[str, int]]:
    """(B, K) of the score formulas for a deal in its play: belote to its holder's team unless
    he declined it; the combinations that count — once compared (at the second trick's first
    card) those the comparison kept, before that every seat's that has not declined them, as
    if declared (declaring never costs its team points)."""
    deal, options = state.deal, state.options
    B = {"NS": 0, "EW": 0}
    if deal.belote_holder is not None and deal.belote != "declined":
        B[TEAM[deal.belote_holder]] = BELOTE
    K = {"NS": 0, "EW": 0}
    if len(deal.tricks) > 1 or (len(deal.tricks) == 1 and deal.trick is not None and deal.trick.plays):
        if deal.combination_team is not None:
            K[deal.combination_team] = deal.combination_points
        return B, K
    declared: dict[str, list[Any]] = {"NS": [], "EW": []}
    for seat in FROM[deal.eldest]:
        if seat not in deal.declined:
            declared[TEAM[seat]].extend(deal.combinations.get(seat, ()))
    team = combos.compare(declared, taker_team, deal.contract.trump, options.official)
    if team is not None:
        K[team] = sum(c.value for c in declared[team])
    return B, K


def contract_score(state: State, P: Mapping[str, int], capot: str | None) -> dict[str, int]:
    """The deal's score under its contract from each team's card points `P` (and the team that
    took every trick, if one did), every seat declaring: what the card points a deal could
    end with are worth (the par, the master bot's worlds). A litige pool is left out."""
    return contract_outcome(state, P, capot).score


def contract_outcome(state: State, P: Mapping[str, int], capot: str | None) -> DealScore:
    """`contract_score`, with whether the contract is made."""
    contract = state.deal.contract
    B, K = declared_bonuses(state, contract.team)
    return contract_result(state.options, contract, P, B, K, capot)


def contract_result(options: Options, contract: Contract, P: Mapping[str, int], B: Mapping[str, int],
                    K: Mapping[str, int], capot: str | None, pool: int = 0) -> DealScore:
    """The deal's score under `contract` by the variant's formulas: Coinche's, else classic's
    (whose totals depend on the trump: sans atout's)."""
    if options.variant == "coinche":
        return coinche_score(contract.team, P, B, K, capot, contract.value, contract.multiplier,
                             options.official, pool)
    total, capot_total = deal_points(contract.trump, options.official)
    return classic_score(contract.team, P, B, K, capot, options.official, total, capot_total, pool)


# --- the match standing -------------------------------------------------------------------

def settle(state: State) -> State:
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
    return settle(replace(state, deal=deal, history=state.history + (no_points(),)))


def evolve_scored(state: State, event: DealScored) -> State:
    deal = replace(state.deal, phase="over", turn=None, result=event.result, points=event.points,
                   score=event.score)
    return settle(replace(state, deal=deal, history=state.history + (event.score,), pool=event.pool))
