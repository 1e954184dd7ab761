"""Every card reaches every position at the expected rate: the shuffle is not just
deterministic but fair, and the statistics are sharp enough to catch a known bias.

The seeds are fixed (seed_i = SHA-256("atout uniformity" || u32be(i))), so the test is
deterministic; the bounds say how unlikely a failure would be for a truly uniform shuffle
fed with random seeds. Two checks, each allowed a false-failure probability of 5e-7, so
at most 1e-6 in all:

1. Every cell (card c, position p) of every deck, rigorously: its count X is
   Binomial(T, 1/n) and Bernstein's inequality gives
   P(|X - T/n| >= t) <= 2 exp(-t^2 / (2 (T/n (1 - 1/n) + t/3))); t is chosen so that the
   union over all 32^2 + 43^2 + 52^2 cells stays under 5e-7.
2. Every position, more sharply: Pearson's statistic over the n cards is chi-square with
   n - 1 degrees of freedom (asymptotically; expected counts here are over 500, far above
   the usual 5), and Laurent-Massart's bound P(Q >= k + 2 sqrt(k x) + 2 x) <= exp(-x) sets the
   threshold with x = ln(positions / 5e-7), summed over the 127 positions of the three decks.

The 52-card deck's sample is large enough that the chi-square check rejects the usual
shortcut `byte % m` without rejection sampling (at the last position alone, a 19% deficit
for four cards), which shows the bounds are not vacuous. What these checks cannot see is a
shuffle that is too regular (e.g. rotations); determinism against the published vectors
and the reference implementation in tests/unit/test_fair.py covers that.
"""

from __future__ import annotations

import functools
import hashlib
import math

import pytest

from domain.cards import DECKS
from domain.fair import byte_stream, derive_key, match_context, shuffle_deck

SAMPLES = {32: 24_000, 43: 30_000, 52: 50_000}
CONTEXT = match_context("uniformity", 1)
FALSE_FAILURE_PER_CHECK = 5e-7
CELLS = sum(n * n for n in SAMPLES)
POSITIONS = sum(SAMPLES)


def _seed(i: int) -> bytes:
    return hashlib.sha256(b"atout uniformity" + i.to_bytes(4, "big")).digest()


def _biased_shuffle(n: int, seed: bytes) -> list[str]:
    """The tempting wrong version: the same stream, but `byte % m` with no rejection."""
    deck = list(DECKS[n])
    stream = byte_stream(derive_key(seed, CONTEXT))
    for i in range(n - 1, 0, -1):
        j = next(stream) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@functools.cache
def _counts(n: int, biased: bool = False) -> tuple[int, ...]:
    """counts[card * n + position] over SAMPLES[n] shuffles."""
    index = {card: k * n for k, card in enumerate(DECKS[n])}
    counts = [0] * (n * n)
    for i in range(SAMPLES[n]):
        deck = _biased_shuffle(n, _seed(i)) if biased else shuffle_deck(n, _seed(i), CONTEXT)
        for position, card in enumerate(deck):
            counts[index[card] + position] += 1
    return tuple(counts)


def _bernstein_t(trials: int, p: float, delta: float) -> float:
    """Smallest t with 2 exp(-t^2 / (2 (var + t/3))) <= delta."""
    big_l = math.log(2 / delta)
    var = trials * p * (1 - p)
    return big_l / 3 + math.sqrt(big_l * big_l / 9 + 2 * big_l * var)


def _chi_square_threshold(dof: int, delta: float) -> float:
    x = math.log(1 / delta)
    return dof + 2 * math.sqrt(dof * x) + 2 * x


def _chi_squares(n: int, counts: tuple[int, ...]) -> list[float]:
    expected = SAMPLES[n] / n
    return [
        sum((counts[card * n + position] - expected) ** 2 for card in range(n)) / expected
        for position in range(n)
    ]


@pytest.mark.parametrize("n", sorted(SAMPLES))
def test_every_card_reaches_every_position_within_bernstein(n):
    counts = _counts(n)
    expected = SAMPLES[n] / n
    t = _bernstein_t(SAMPLES[n], 1 / n, FALSE_FAILURE_PER_CHECK / CELLS)
    worst = max(range(n * n), key=lambda c: abs(counts[c] - expected))
    card, position = DECKS[n][worst // n], worst % n
    assert abs(counts[worst] - expected) < t, (
        f"{card} at position {position}: {counts[worst]} times, expected {expected:.0f} ± {t:.0f}"
    )
    assert all(sum(counts[c * n: c * n + n]) == SAMPLES[n] for c in range(n))


@pytest.mark.parametrize("n", sorted(SAMPLES))
def test_every_position_passes_chi_square(n):
    threshold = _chi_square_threshold(n - 1, FALSE_FAILURE_PER_CHECK / POSITIONS)
    stats = _chi_squares(n, _counts(n))
    worst = max(range(n), key=stats.__getitem__)
    assert stats[worst] < threshold, f"position {worst}: chi-square {stats[worst]:.1f} >= {threshold:.1f}"


def test_the_check_catches_modulo_bias():
    n = 52
    threshold = _chi_square_threshold(n - 1, FALSE_FAILURE_PER_CHECK / POSITIONS)
    stats = _chi_squares(n, _counts(n, biased=True))
    assert max(stats) > threshold, f"modulo bias not caught: {max(stats):.1f} < {threshold:.1f}"
    assert stats[n - 1] > threshold  # the last position alone, fixed by the first draw, shows it
