"""Five Hundred's calls judged by solved worlds (`solved_calls.py` drives the search): each
candidate bid or pass leads — through `basic`'s auction and the contractor's kitty — to a
contract whose play is solved from the first lead, which the contractor makes (B.5.1).

A contract's score turns on whether the contractor takes his tricks (its whole value, won
or lost), and only a little on how many the defenders take (ten a trick; B.7). So a world
asks the solver only what changes the contract's own score: whether the contractor reaches
the bid's tricks — one null-window probe (`reaches`), about a third of an exact value —
and, made, whether he takes all ten when the slam's 250 is worth more than the bid (B.7.2).
Misère is one probe: whether its bidder takes a trick. The solver sees every card and the
seats in play do not, so a contract it makes is weighed as made as often as four `master`s
make such contracts in play (`MADE`, `MISERE_MADE`, `SLAM_KEPT`: `bench/calls_calibration.py`);
the defenders' ten a trick is taken at the middle of the tricks the probes leave.

Contracts reached by different candidates with the same contractor, denomination and hands
(the kitty taken and discarded the same) share their probes, as the solver's table shares
its positions.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from domain.bots import five_hundred as family
from domain.bots.auction_worlds import first_lead
from domain.cards import SEAT_INDEX
from domain.five_hundred.doubledummy import TRICKS, reaches
from domain.five_hundred.scoring import DEFENDER_TRICK, SLAM
from domain.five_hundred.state import SIDE_OF

if TYPE_CHECKING:
    from domain.bots.solved_calls import Within


def solved(options: Any) -> bool:
    """Every Five Hundred table's calls are solved."""
    return True


MADE = {True: 0.91, False: 0.16}
"""How often the `master`'s side makes a contract in play when the solver makes it, and when
it does not: the solver sees every card, the seats in play do not (docs/bots.md)."""
MISERE_MADE = {True: 0.94, False: 0.30}     # the same for a misère
SLAM_KEPT = 0.37            # ten tricks the solver finds, over a bid worth less than 250, taken in play


def targets(spec: Any) -> list[int]:
    """What a contract's worth needs probed, in order: whether the contractor's side reaches
    the bid's tricks (misère: takes no trick), then, when a slam scores more than the bid,
    all ten."""
    if spec.misere:
        return [0]
    return [spec.tricks] + ([TRICKS] if spec.value < SLAM else [])


def tricks_range(state: Any, known: dict[int, bool], within: Within) -> tuple[int, int]:
    """The least and most the contractor's side can end with — tricks, or in misère 0 (made)
    and −1 (its bidder took a trick) — once the contract's `targets` are probed into `known`
    (each target: whether the side reaches it)."""
    spec = state.deal.contract.spec
    for target in targets(spec):
        lo, hi = _bounds(known, spec.misere)
        if lo < target <= hi:
            known[target] = within(lambda target=target: reaches(state, target))
    return _bounds(known, spec.misere)


def _bounds(known: dict[int, bool], misere: bool) -> tuple[int, int]:
    low, high = (-1, 0) if misere else (0, TRICKS)
    lo = max((x for x, ok in known.items() if ok), default=low)
    hi = min((x - 1 for x, ok in known.items() if not ok), default=high)
    return lo, hi


def expected_margin(state: Any, seat: Any, lo: int, hi: int) -> float:
    """`seat`'s side's expected score margin when the solver leaves the contractor's side
    between `lo` and `hi` (tricks, or misère's 0 / −1): the contract made and a slam kept as
    often as the `master` makes and keeps such contracts in play, the defenders' ten a trick
    at the range's middle."""
    contract = state.deal.contract
    spec = contract.spec
    if spec.misere:
        made, won, defenders = MISERE_MADE[lo == 0], float(spec.value), 0.0
    else:
        made, won = MADE[lo >= spec.tricks], float(spec.value)
        if lo == TRICKS and spec.value < SLAM:
            won = SLAM_KEPT * SLAM + (1 - SLAM_KEPT) * spec.value
        defenders = float(DEFENDER_TRICK * (TRICKS - (lo + hi) // 2))
    contractor = made * won - (1 - made) * spec.value
    mine = SIDE_OF[SEAT_INDEX[seat]]
    return contractor - defenders if mine == contract.side else defenders - contractor


def ranges(reached: list[Any], within: Within) -> list[tuple[int, int] | None]:
    """Each contract's `tricks_range` (None for a deal thrown in), the contracts with the same
    contractor, denomination and hands (the kitty discarded the same) sharing their probes;
    every contract probed before any range is read, so they share them alike."""
    probes: dict[tuple[Any, ...], dict[int, bool]] = {}
    keys = []
    for state in reached:
        if state is None:
            keys.append(None)
            continue
        deal = state.deal
        if SIDE_OF[SEAT_INDEX[deal.turn]] != deal.contract.side:
            raise ValueError("the contractor's side leads the first trick")
        keys.append((deal.turn, deal.contract.denomination, deal.contract.sitting_out, deal.hands))
        tricks_range(state, probes.setdefault(keys[-1], {}), within)
    return [None if k is None else _bounds(probes[k], s.deal.contract.spec.misere) for s, k in zip(reached, keys)]


def world_values(game: Any, world: Any, commands: list[Any], seat: Any, rng: random.Random,
                 within: Within) -> dict[int, float]:
    """Each candidate's expected score margin for `seat`'s side in one world (see the
    module's docstring); four passes throw the deal in, worth 0."""
    reached = [first_lead(game, family, world, command, rng) for command in commands]
    row: dict[int, float] = {}
    for i, (state, bounds) in enumerate(zip(reached, ranges(reached, within))):
        row[i] = 0.0 if bounds is None else expected_margin(state, seat, *bounds)
    return row


__all__ = ["MADE", "MISERE_MADE", "SLAM_KEPT", "expected_margin", "ranges", "solved", "targets", "tricks_range", "world_values"]
