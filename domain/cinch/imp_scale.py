"""Cinch's IMP table (partnerships; every player for himself has no duplicate): the WBF
table's thresholds stretched to its board differences (domain/tournaments/imps.py says how; bench/imp_scales.py measured them: 400 boards, expert
bots in one room's NS and the other's EW, basic bots opposite). `imp_scale(options)` is what
a duplicate or a teams match of this way of playing scores on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

UNIT = 1

# The lower bound of the board difference that earns 1, 2, ... 24 IMPs.
SCALE: tuple[int, ...] = (
    # 125 boards of 400 equal; |difference| median 10, 90th percentile 25, largest 33
    1, 3, 5, 8, 10, 13, 16, 19, 22, 25, 29, 35,
    44, 52, 64, 76, 87, 102, 116, 131, 145, 174, 203, 233)


def imp_scale(options: Mapping[str, Any]) -> tuple[tuple[int, ...], int] | None:
    return None if (options.get("mode") or "partnership") == "individual" else (SCALE, UNIT)
