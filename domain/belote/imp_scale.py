"""Belote's IMP tables, one a variant: the WBF table's thresholds stretched to each variant's board differences
(domain/tournaments/imps.py says how; bench/imp_scales.py measured them: 400 boards, expert
bots in one room's NS and the other's EW, basic bots opposite). `imp_scale(options)` is what
a duplicate or a teams match of this way of playing scores on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

UNIT = 10                          # scores move by tens once the deal's points are rounded

# The lower bound of the board difference that earns 1, 2, ... 24 IMPs.
SCALES: dict[str, tuple[int, ...]] = {
    # 92 boards of 400 equal; |difference| median 42, 90th percentile 206, largest 324
    "classic": (10, 20, 40, 60, 80, 110, 130, 150, 180, 210, 240, 290,
               360, 430, 530, 620, 720, 840, 960, 1080, 1200, 1440, 1680, 1920),
    # 232 boards of 400 equal; |difference| median 64, 90th percentile 192, largest 250
    "sans_atout": (10, 20, 40, 60, 80, 100, 120, 140, 170, 190, 220, 270,
                  330, 400, 490, 580, 670, 780, 890, 1000, 1120, 1340, 1560, 1790),
    # 79 boards of 400 equal; |difference| median 36, 90th percentile 446, largest 1800
    "coinche": (20, 50, 90, 130, 180, 230, 280, 330, 380, 450, 520, 620,
               780, 930, 1140, 1350, 1560, 1820, 2070, 2330, 2590, 3110, 3630, 4150),
}


def imp_scale(options: Mapping[str, Any]) -> tuple[tuple[int, ...], int]:
    return SCALES[str(options.get("variant") or "classic")], UNIT
