"""Fair-play signals: play that only knowing hidden cards explains, as a z-score.

Each reviewed card with a choice carries a signal (`domain.review`): how much better it did
in the true deal than in the worlds its player could see. A player who cannot see hidden
cards scores zero on average; one who sees his partner's hand, or the opponents', scores
above. The null — the signal's mean and spread for players who certainly see nothing — is
measured on bot seats of bot-only matches (a bot decides from its view alone, by
construction), per game since each game counts in its own units. A player's (or a
partnership's) z-score over a window is the sum of his signals, each centred and scaled by
its game's null, over the square root of their number (Stouffer's method across games).

A flag is a reason for an admin to look, never a sanction: it needs `MIN_DECISIONS` cards
with a choice and `z ≥ FLAG_Z`; the null is trusted only with `MIN_NULL` bot decisions.
"""

from __future__ import annotations

import math
from typing import Mapping

import msgspec

FLAG_Z = 3.0            # one-sided; the rate it flags honest players at is measured, docs/review.md
MIN_DECISIONS = 200     # cards with a choice in the window before anyone is flagged
MIN_NULL = 500          # bot decisions per game before its null is used


class Tally(msgspec.Struct, frozen=True):
    """Signals summed over some cards of one game: count, sum, sum of squares."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, other: Tally) -> Tally:
        return Tally(self.n + other.n, self.total + other.total, self.squares + other.squares)


class Null(msgspec.Struct, frozen=True):
    """The signal of players who see nothing, in one game: from `n` bot decisions."""

    n: int
    mean: float
    sd: float


class Verdict(msgspec.Struct, frozen=True):
    decisions: int          # cards with a choice counted (games without a usable null left out)
    z: float | None         # None: no decision in a game with a null
    flagged: bool


def null_model(bots: Mapping[str, Tally]) -> dict[str, Null]:
    """Per game, the null from bot seats' tallies; games with too few decisions or no spread
    have none (their cards then count for no one)."""
    out: dict[str, Null] = {}
    for game, t in bots.items():
        if t.n < MIN_NULL:
            continue
        mean = t.total / t.n
        var = max(t.squares / t.n - mean * mean, 0.0) * t.n / (t.n - 1)
        if var > 0.0:
            out[game] = Null(n=t.n, mean=mean, sd=math.sqrt(var))
    return out


def verdict(tallies: Mapping[str, Tally], null: Mapping[str, Null]) -> Verdict:
    """The z-score of one player's (or partnership's) tallies against the null."""
    n = 0
    centred = 0.0
    for game, t in tallies.items():
        model = null.get(game)
        if model is None or t.n == 0:
            continue
        n += t.n
        centred += (t.total - t.n * model.mean) / model.sd
    if n == 0:
        return Verdict(decisions=0, z=None, flagged=False)
    z = centred / math.sqrt(n)
    return Verdict(decisions=n, z=round(z, 3), flagged=n >= MIN_DECISIONS and z >= FLAG_Z)
