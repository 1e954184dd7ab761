"""Belote's calls judged by solved worlds (`solved_calls.py` drives the search): the
contract each candidate reaches, worth its score margin with the card points its strain takes.

A contract is made or failed by the card points its strain takes, and that is all a failed
or a coinched contract's score needs; so a world asks the solver only whether the taker
reaches the contract's threshold (`needed`, found by the score formulas themselves): one
null-window probe (`reaches`), about a tenth of an exact value, and the probes of one
strain share the solver's table. A made plain contract also scores its card points: it gets
the middle of the range the world's probes leave them (the threshold made, the next one
failed or the deal's total), the same for every candidate that reaches it. So a world costs
a few milliseconds, and the budget buys tens of worlds, where exact values would buy five.

How much a made contract's points weigh is the variant's: a Coinche contract made scores
its bid beside them, so the threshold's probe alone serves; a classic or Sans Atout
contract made scores nothing but its points (against the defenders' rest), so the range a
made threshold leaves ([82, 162] in classic) is halved `REFINE` more times by probes, and
a take is weighed against passing on points within about a tenth of the deal.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from domain.belote.doubledummy import reaches
from domain.belote.ranking import deal_points
from domain.belote.scoring import contract_outcome, contract_score
from domain.belote.state import OTHER_TEAM
from domain.bots import belote as family
from domain.bots.auction_worlds import first_lead
from domain.cards import TEAM

if TYPE_CHECKING:
    from domain.bots.solved_calls import Within

REFINE = {"coinche": 0, "classic": 3, "sans_atout": 3}   # probes halving a made contract's points


def solved(options: Any) -> bool:
    """Every variant's calls are solved."""
    return getattr(options, "variant", None) in REFINE


def needed(state: Any) -> int:
    """The least card points with which the contract's team makes it, as the score formulas
    judge (belote and combinations counted); past the deal's total, a capot."""
    contract = state.deal.contract
    taker, other = contract.team, OTHER_TEAM[contract.team]
    total, capot_total = deal_points(contract.trump, state.options.official)
    lo, hi = 0, total + 1
    while lo < hi:                   # made or not never turns back as the points rise
        p = (lo + hi) // 2
        P, capot = ({taker: capot_total, other: 0}, taker) if p > total else ({taker: p, other: total - p}, None)
        if contract_outcome(state, P, capot).result == "made":
            hi = p
        else:
            lo = p + 1
    return capot_total if lo > total else lo


def _points(state: Any, known: dict[int, bool]) -> tuple[dict[str, int], str | None]:
    """The taker's card points as the probes bound them (the middle of what they allow; only
    a plain contract made scores them), the other team's the rest."""
    contract = state.deal.contract
    taker, other = contract.team, OTHER_TEAM[contract.team]
    total, capot_total = deal_points(contract.trump, state.options.official)
    lo, hi = _range(state, known)
    if lo > total:
        return {taker: capot_total, other: 0}, taker
    p = (lo + min(hi, total)) // 2
    return {taker: p, other: total - p}, None


def _range(state: Any, known: dict[int, bool]) -> tuple[int, int]:
    """The least and most card points the taker's probes leave him: past the deal's total,
    a capot (made when the least is, possible while the most is)."""
    total, _ = deal_points(state.deal.contract.trump, state.options.official)
    lo = max((x for x, ok in known.items() if ok), default=0)
    hi = min((min(x, total + 1) - 1 for x, ok in known.items() if not ok), default=total + 1)
    return lo, hi


def world_values(game: Any, world: Any, commands: list[Any], seat: Any, rng: random.Random,
                 within: Within) -> dict[int, float]:
    """Each candidate's score margin for `seat`'s side in one world. The solver is asked
    (through `within`, which holds it to the decision's budget) whether the taker reaches each
    contract's threshold (a trump and taker's thresholds share the solver's table), and every
    threshold is probed before any candidate is scored, so the points a made contract is
    scored with are bound alike for all; then a strain whose plain contract is made gets the
    variant's `REFINE` probes halving the range left to its points."""
    reached = [first_lead(game, family, world, command, rng) for command in commands]
    probes: dict[tuple[str, Any], dict[int, bool]] = {}
    made_plain: dict[tuple[str, Any], Any] = {}

    def probe(state: Any, team: str, points: int) -> bool:
        return within(lambda: reaches(state, team, points))

    for state in reached:
        if state is not None:
            contract = state.deal.contract
            key = (contract.team, contract.trump)
            known = probes.setdefault(key, {})
            points = needed(state)
            if points not in known:
                known[points] = probe(state, contract.team, points)
            if known[points] and contract.multiplier == 1:
                made_plain[key] = state
    for (team, trump), state in made_plain.items():
        known = probes[(team, trump)]
        total, capot_total = deal_points(trump, state.options.official)
        for _ in range(REFINE[state.options.variant]):
            lo, hi = _range(state, known)
            if hi <= lo:                 # the points are known, or a capot is made
                break
            middle = (lo + hi + 1) // 2  # past the total: whether a capot
            points = capot_total if middle > total else middle
            known[points] = probe(state, team, points)
    mine = TEAM[seat]
    row: dict[int, float] = {}
    for i, state in enumerate(reached):
        if state is None:
            row[i] = 0.0
            continue
        contract = state.deal.contract
        score = contract_score(state, *_points(state, probes[(contract.team, contract.trump)]))
        row[i] = float(score[mine] - score[OTHER_TEAM[mine]])
    return row


__all__ = ["REFINE", "needed", "solved", "world_values"]
