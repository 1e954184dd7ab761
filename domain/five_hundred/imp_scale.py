"""Five Hundred's IMP table: the WBF table's thresholds stretched to its board differences
(domain/tournaments/imps.py says how; bench/imp_scales.py measured them: 400 boards, expert
bots in one room's NS and the other's EW, basic bots opposite). `imp_scale(options)` is what
a duplicate or a teams match of this way of playing scores on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

UNIT = 10

# The lower bound of the board difference that earns 1, 2, ... 24 IMPs.
SCALE: tuple[int, ...] = (
    # 205 boards of 400 equal; |difference| median 10, 90th percentile 290, largest 1000
    10, 30, 60, 90, 110, 150, 180, 220, 250, 290, 340, 400,
    510, 610, 740, 880, 1010, 1180, 1350, 1520, 1690, 2020, 2360, 2700)


def imp_scale(options: Mapping[str, Any]) -> tuple[tuple[int, ...], int]:
    del options                    # one way of playing
    return SCALE, UNIT
