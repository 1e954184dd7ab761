"""IMPs to Victory Points: the WBF continuous 20-point scale (WBF, 2013).

Why: a teams event ranks on many matches; VPs cap what one match can give, so a rout
counts for a win and a bit, not for a season. For a match of B boards the blitz margin is
X = 15·√B IMPs; with τ = (√5 − 1)/2 the winner of a margin M < X gets
VP = 10 + 10·(1 − τ^(3M/X)) / (1 − τ³), at M ≥ X 20; the loser gets 20 − VP. The WBF
computes and rounds to two decimals (the loser's share is 20 minus the winner's rounded
share, so a match always shares 20).
"""

from __future__ import annotations

import math

TAU = (math.sqrt(5) - 1) / 2
TOTAL = 20.0


def blitz(boards: int) -> float:
    return 15 * math.sqrt(boards)


def victory_points(margin: float, boards: int) -> tuple[float, float]:
    """(VPs of the side that won `margin` IMPs, VPs of its opponents); a negative margin
    gives the first side the smaller share."""
    if boards <= 0:
        raise ValueError("a match has at least one board")
    size, limit = abs(margin), blitz(boards)
    top = TOTAL if size >= limit else round(10 + 10 * (1 - TAU ** (3 * size / limit)) / (1 - TAU ** 3), 2)
    other = round(TOTAL - top, 2)
    return (top, other) if margin >= 0 else (other, top)
