"""The master's calls in Belote: each candidate call judged by the contract it leads to,
that contract's play SOLVED double dummy in worlds dealt from the seat's view — GIB's and
BEN's Monte-Carlo bidding.

A world is the expert's (`auction_worlds`: the seat's own hand, the calls so far replayed,
worlds whose calls `basic` explains preferred). In it each candidate is called, and the rest
of the auction is `basic`'s at every seat — the auction the table will really give — up to
the first lead; four passes are a thrown-in deal, worth 0. The contract reached is then
worth its score margin for the seat's side under the contract's own formulas
(`scoring.contract_score`: the value bid, coinche and surcoinche, belote, combinations).

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

The choice is the expert's rule: `basic`'s call stands unless another beats it world by
world by `CONFIDENCE` standard errors; of those that do, the best mean. With no world solved
within half the budget, the expert's search chooses in the time left.

Belote's calls are solved in every variant; Cinch's and Five Hundred's are left to the
expert's search.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable

import domain.doubledummy as dd
from domain.belote.doubledummy import reaches
from domain.belote.ranking import deal_points
from domain.belote.scoring import contract_outcome, contract_score
from domain.belote.state import OTHER_TEAM
from domain.bots.sampling import Unsatisfiable
from domain.cards import TEAM

CONFIDENCE = 2.5            # standard errors by which a call must beat `basic`'s, world by world
FIRST_WORLD_SHARE = 0.5     # of the budget: past it unsolved, the calls are the expert's search
MAX_CALLS = 64              # calls after the candidate before a rollout gives up (an auction has ~10)
REFINE = {"coinche": 0, "classic": 3, "sans_atout": 3}   # probes halving a made contract's points


def solved(game_name: str, options: Any) -> bool:
    """Whether this game's calls are judged by solved worlds."""
    return game_name == "belote" and getattr(options, "variant", None) in REFINE


def contract_reached(game: Any, basic: Callable[[Any, Any], Any], state: Any, command: Any,
                     rng: random.Random) -> Any | None:
    """The state at the first lead after `command` and `basic`'s calls at every seat whose
    turn it is (a House coinche out of turn left out, as in the expert's playouts); None
    when the deal is thrown in."""
    for _ in range(MAX_CALLS):
        for event in game.decide(state, command):
            state = game.evolve(state, event)
        deal = state.deal
        if deal is None or deal.phase != "auction":
            return state if deal is not None and deal.phase == "play" else None
        action = basic(game.view(state, deal.turn), rng)
        if action is None:
            return None
        command = game.parse_action({"seat": str(deal.turn), **action})
    return None


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


def world_values(game: Any, basic: Callable[[Any, Any], Any], world: Any, commands: list[Any], seat: Any,
                 rng: random.Random, probe: Callable[[Any, str, int], bool]) -> dict[int, float]:
    """Each candidate's score margin for `seat`'s side in one world. `probe(state, team,
    points)` says whether the team takes that many card points from the first lead; it is
    asked once per contract's threshold (a trump and taker's thresholds share the solver's
    table), and every threshold is probed before any candidate is scored, so the points a
    made contract is scored with are bound alike for all; then a strain whose plain contract
    is made gets the variant's `REFINE` probes halving the range left to its points."""
    reached = [contract_reached(game, basic, world, command, rng) for command in commands]
    probes: dict[tuple[str, Any], dict[int, bool]] = {}
    made_plain: dict[tuple[str, Any], Any] = {}
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


def search(master: Any, table: Any, candidates: list[dict[str, Any]], rng: random.Random, options: Any,
           begun: float) -> tuple[list[dict[int, float]], int]:
    """The worlds' rows (each candidate's margin) solved in the master's budget, and how many
    probes were stopped. The first world must be solved within `FIRST_WORLD_SHARE` of the
    budget; a world whose probe runs past the time left is dropped, and none is begun that
    the slowest so far would end past the budget."""
    game = master.game
    commands = [game.parse_action(c) for c in candidates]
    basic = master.family.basic
    rows: list[dict[int, float]] = []
    failures, slowest, stopped = 0, 0.0, 0
    while len(rows) < master.play_worlds and failures < 3 * master.play_worlds:
        started = time.perf_counter()
        if master.budget is not None and rows and started + slowest > begun + master.budget:
            break
        try:
            world = master.auction_world(table, rng, options)
        except Unsatisfiable:
            failures += 1
            continue
        share = 1.0 if rows else FIRST_WORLD_SHARE
        try:
            row = world_values(game, basic, world, commands, table.seat, rng,
                               lambda s, team, points, share=share: master.solve_within(
                                   lambda: reaches(s, team, points), begun, share))
        except dd.OutOfNodes:
            stopped += 1
            break
        slowest = max(slowest, time.perf_counter() - started)
        rows.append(row)
    return rows, stopped


__all__ = ["contract_reached", "needed", "search", "solved", "world_values"]
