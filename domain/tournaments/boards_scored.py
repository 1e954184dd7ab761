"""Scoring one board's field, pure: matchpoints (with Neuberg), Butler, cross-IMPs.

A board's *field* is the results of every entry that held the same cards (the same
direction) on it: entry -> result, the result being its side's score minus the other
side's. Each function gives every entry of the field its score on the board.

Matchpoints (WBF/EBL convention): 2 for each result beaten, 1 for each tie, so a top is
2·(n−1). **Neuberg** (Laws of Duplicate Bridge 2017, Law 78A and the WBF Code of Practice:
the formula of the EBU White Book §8.92.2): when a board has fewer results (n) than the
most any board of the event has (N), each entry's matchpoints are rescaled as if the
missing results were like the ones there: M' = (M + 1)·N/n − 1. Without it a board played
by fewer tables would weigh less in the totals.

Butler (pairs scored by IMPs against a datum): the datum is the mean of the field's
results after dropping extremes, so that one wild result does not move everyone's score.
Rule for the field's size n: n ≥ 10 drops the top and bottom 10% (rounded down); 5 ≤ n <
10 drops the single highest and lowest; n < 5 keeps all (with so few results trimming
leaves too little). The datum is rounded to the way of playing's unit, as bridge rounds it
to 10. Each entry scores IMPs(result − datum).

Cross-IMPs: each result is IMPed against every other result of the field, and the sum is
divided by the number of comparisons (n − 1), rounded to 0.01, so boards with fewer
results weigh the same (the "averaged" cross-IMPs many bridge sites use; the WBF leaves
the divisor to the organiser).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence

from domain.tournaments.imps import WBF, imps

WIN, TIE = 2, 1


def matchpoints(field: Mapping[str, float]) -> dict[str, float]:
    """Counted on the sorted results (a field of thousands is a robot event's)."""
    ordered = sorted(field.values())
    out = {}
    for entry, value in field.items():
        below, upto = bisect.bisect_left(ordered, value), bisect.bisect_right(ordered, value)
        out[entry] = float(WIN * below + TIE * (upto - below - 1))
    return out


def neuberg(points: float, present: int, full: int) -> float:
    """Matchpoints `points` earned against `present` results (itself included), rescaled to a
    field of `full` (the formula is in the module's text)."""
    if present >= full or present <= 0:
        return points
    return (points + 1) * full / present - 1


def matchpoints_neuberg(field: Mapping[str, float], full: int) -> dict[str, float]:
    return {e: round(neuberg(p, len(field), full), 2) for e, p in matchpoints(field).items()}


def trimmed(n: int) -> int:
    """How many results Butler drops at each end of a field of n (see the module's text)."""
    if n >= 10:
        return n // 10
    return 1 if n >= 5 else 0


def datum(results: Sequence[float], unit: int = 10) -> int:
    ordered = sorted(results)
    cut = trimmed(len(ordered))
    kept = ordered[cut:len(ordered) - cut] if cut else ordered
    mean = sum(kept) / len(kept)
    return int(unit * _half_up(mean / unit))


def _half_up(x: float) -> int:
    """Round half away from zero (a datum of 25 with unit 10 is 30, of −25 is −30)."""
    return int(x + 0.5) if x >= 0 else -int(-x + 0.5)


def butler(field: Mapping[str, float], scale: Sequence[int] = WBF, unit: int = 10) -> dict[str, float]:
    if not field:
        return {}
    middle = datum(list(field.values()), unit)
    return {entry: float(imps(value - middle, scale)) for entry, value in field.items()}


def cross_imps(field: Mapping[str, float], scale: Sequence[int] = WBF) -> dict[str, float]:
    n = len(field)
    if n < 2:
        return {entry: 0.0 for entry in field}
    ordered = sorted(field.values())
    out = {}
    for entry, value in field.items():
        # Each threshold a difference reaches is one IMP: count, per threshold, the results
        # this one beats by that much and those that beat it by that much.
        won = sum(bisect.bisect_right(ordered, value - bound) - (n - bisect.bisect_left(ordered, value + bound))
                  for bound in scale)
        out[entry] = round(won / (n - 1), 2)
    return out
