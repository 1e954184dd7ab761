"""International Match Points: the WBF table, and a table fitted to each way of playing.

Why a scale at all: a board's raw difference between two tables is dominated by the few
boards with huge swings; IMPs compress it (a difference of 20 and one of 4000 are 1 and 24
IMPs in bridge), so a match is decided by many boards rather than one.

Why a fitted scale: bridge's thresholds are in bridge points (a part score is worth 50 to
150, a vulnerable game 620). A Belote deal moves a few hundred points, a Cinch deal a few,
so the WBF table would give nearly every Cinch board 0 IMPs and every Belote swing 1 to 5.
Each partnership way of playing gets the WBF table's 24 steps stretched by one factor,
chosen from the distribution of its own board differences: the difference that 10% of
non-zero board differences reach or exceed is made worth 10 IMPs, as a game swing (430
and more, 10+ IMPs) is in bridge team play, where roughly one board in ten swings that
much. That reference share is Atout's choice, stated here, not a WBF rule.
`bench/imp_scales.py` measures the distributions (bot duels, two different levels in the
two rooms of a teams match) and prints the fitted tables; each game keeps its own
(`domain/<game>/imp_scale.py`, read through `GameRules.imp_scale`), so a change of bots does
not change scores already published.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence

# WBF Code of Practice / Laws of Duplicate Bridge 2017, Law 78B: the lower bound of the
# difference (in bridge points) that earns 1, 2, ... 24 IMPs.
WBF = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000, 2250,
       2500, 3000, 3500, 4000)
TEN_IMPS = WBF[9]                  # 430: the reference swing (see the module's text)
REFERENCE_SHARE = 0.10             # share of non-zero board differences worth 10 IMPs or more

def imps(difference: float, scale: Sequence[int] = WBF) -> int:
    """IMPs for a board difference (signed): the count of thresholds its size reaches."""
    won = bisect.bisect_right(scale, abs(difference))
    return won if difference >= 0 else -won


def quantile(values: Sequence[float], share: float) -> float:
    """The value `share` of `values` lie at or below (nearest rank)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def fit(differences: Iterable[float], unit: int = 1) -> tuple[int, ...]:
    """The WBF table stretched so that the top `REFERENCE_SHARE` of non-zero |differences|
    earn 10 IMPs or more; thresholds rounded to the game's `unit`, each at least one unit
    above the one before (a game with coarse scores still has 24 distinct steps)."""
    sizes = [abs(d) for d in differences if d]
    if not sizes:
        raise ValueError("no non-zero board difference to fit a scale on")
    factor = quantile(sizes, 1 - REFERENCE_SHARE) / TEN_IMPS
    out: list[int] = []
    for bound in WBF:
        value = max(unit, unit * round(bound * factor / unit))
        if out and value <= out[-1]:
            value = out[-1] + unit
        out.append(value)
    return tuple(out)
