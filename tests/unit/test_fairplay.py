"""The fair-play arithmetic (domain/fairplay.py) on worked numbers."""

from __future__ import annotations

import math
import random

import pytest

from domain import fairplay
from domain.fairplay import Null, Tally, null_model, verdict


def tally(values: list[float]) -> Tally:
    return Tally(len(values), sum(values), sum(v * v for v in values))


def test_the_null_is_the_bots_mean_and_sample_spread_per_game() -> None:
    rng = random.Random(1)
    values = [rng.gauss(0.5, 2.0) for _ in range(4000)]
    null = null_model({"belote": tally(values), "cinch": tally(values[:10])})
    assert set(null) == {"belote"}            # cinch: too few bot decisions to trust
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    assert null["belote"].n == 4000
    assert null["belote"].mean == pytest.approx(mean)
    assert null["belote"].sd == pytest.approx(sd)


def test_a_game_whose_bots_never_differ_has_no_null() -> None:
    assert null_model({"belote": tally([0.0] * fairplay.MIN_NULL)}) == {}


def test_the_z_score_centres_and_scales_each_game_by_its_own_null() -> None:
    null = {"belote": Null(n=1000, mean=1.0, sd=2.0), "five_hundred": Null(n=1000, mean=0.0, sd=0.5)}
    # belote: 100 signals summing to 300 -> (300 - 100·1)/2 = 100; five hundred: 300 summing to 30 -> 60
    got = verdict({"belote": Tally(100, 300.0, 0.0), "five_hundred": Tally(300, 30.0, 0.0)}, null)
    assert got.decisions == 400
    assert got.z == pytest.approx(160 / math.sqrt(400))
    assert got.flagged                         # 8.0 ≥ 3 on 400 ≥ 200 decisions


def test_no_flag_below_the_minimum_sample_however_high_the_z() -> None:
    null = {"belote": Null(n=1000, mean=0.0, sd=1.0)}
    few = verdict({"belote": Tally(fairplay.MIN_DECISIONS - 1, 100.0, 0.0)}, null)
    assert few.z is not None and few.z > fairplay.FLAG_Z and not few.flagged
    enough = verdict({"belote": Tally(fairplay.MIN_DECISIONS, 100.0, 0.0)}, null)
    assert enough.flagged


def test_games_without_a_null_count_for_no_one() -> None:
    got = verdict({"cinch": Tally(500, 900.0, 0.0)}, {"belote": Null(n=1000, mean=0.0, sd=1.0)})
    assert got == fairplay.Verdict(decisions=0, z=None, flagged=False)


def test_honest_players_drawn_from_the_null_are_flagged_about_as_often_as_the_threshold_says() -> None:
    """A player whose signals follow the null is flagged at the normal tail past FLAG_Z
    (0.13%): over 2,000 simulated honest players of 300 decisions, at most a handful."""
    rng = random.Random(7)
    null = {"belote": Null(n=100_000, mean=0.2, sd=3.0)}
    flagged = sum(verdict({"belote": tally([rng.gauss(0.2, 3.0) for _ in range(300)])}, null).flagged
                  for _ in range(2000))
    assert flagged <= 10
