"""Every duplicate formula against worked examples from its source (bridge's, in bridge points)."""

import pytest

from domain.tournaments import boards_scored as board
from domain.tournaments import imps
from domain.tournaments.victory_points import blitz, victory_points


@pytest.mark.parametrize("difference, expected", [
    (0, 0), (10, 0), (20, 1), (40, 1), (50, 2), (420, 9), (430, 10),
    (620 - 170, 10),      # 4S made at one table, 3S+1 at the other: the WBF "game swing"
    (1430 - 680, 13),     # a slam bid at one table only
    (-450, -10), (3990, 23), (4000, 24), (7600, 24)])
def test_wbf_imp_table(difference, expected):
    assert imps.imps(difference) == expected


def test_fitted_scale_puts_ten_imps_at_the_reference_share():
    differences = [10 * k for k in range(1, 101)] + [0] * 30        # the zeros are not swings
    scale = imps.fit(differences, unit=10)
    assert scale[9] == 900                                           # the 90th percentile of 10..1000
    assert imps.imps(900, scale) == 10 and imps.imps(890, scale) == 9
    assert len(scale) == 24 and all(a < b for a, b in zip(scale, scale[1:]))


def test_fitted_scale_keeps_24_steps_on_coarse_scores():
    scale = imps.fit([1, 2, 3, 4, 5], unit=1)
    assert len(scale) == 24 and all(b - a >= 1 for a, b in zip(scale, scale[1:]))


def test_every_partnership_way_of_playing_has_a_published_scale():
    from domain.tournaments.standing import scale_of
    ways = [("belote", {}), ("belote", {"variant": "sans_atout"}), ("belote", {"variant": "coinche"}),
            ("cinch", {}), ("five_hundred", {})]
    for game, options in ways:
        scale, unit = scale_of(game, options)
        assert len(scale) == 24 and all(a < b for a, b in zip(scale, scale[1:])) and scale != imps.WBF
        assert all(bound % unit == 0 for bound in scale)
    from domain.games import GAMES
    assert GAMES["cinch"].imp_scale({"mode": "individual"}) is None      # no partnerships, no duplicate


def test_matchpoints_two_per_result_beaten():
    assert board.matchpoints({"a": 100, "b": 100, "c": 50}) == {"a": 3.0, "b": 3.0, "c": 0.0}


def test_neuberg_ebu_white_book_example():
    # A top of 12 (seven results); a board played six times scored 8 on its top of 10.
    assert board.neuberg(8, present=6, full=7) == pytest.approx(9.5)
    assert board.neuberg(10, present=6, full=7) == pytest.approx(11 * 7 / 6 - 1)
    assert board.neuberg(5, present=7, full=7) == 5


def test_neuberg_on_a_field():
    scored = board.matchpoints_neuberg({"a": 100, "b": 50, "c": 0}, full=4)
    assert scored == {"a": round(5 * 4 / 3 - 1, 2), "b": round(3 * 4 / 3 - 1, 2), "c": round(4 / 3 - 1, 2)}


def test_butler_drops_the_extremes_and_imps_against_the_datum():
    field = {"a": 620, "b": 620, "c": 170, "d": 650, "e": -100, "f": 620}
    # six results: the highest (650) and lowest (-100) go; mean(620, 620, 170, 620) = 507.5 -> 510
    assert board.datum(list(field.values())) == 510
    assert board.butler(field) == {"a": 3.0, "b": 3.0, "c": -8.0, "d": 4.0, "e": -12.0, "f": 3.0}


@pytest.mark.parametrize("n, cut", [(2, 0), (4, 0), (5, 1), (9, 1), (10, 1), (19, 1), (20, 2), (200, 20)])
def test_butler_trim_rule_for_small_and_large_fields(n, cut):
    assert board.trimmed(n) == cut


def test_butler_datum_rounds_half_away_from_zero():
    assert board.datum([20, 30], unit=10) == 30 and board.datum([-20, -30], unit=10) == -30


def test_cross_imps_averaged_over_comparisons():
    scored = board.cross_imps({"a": 620, "b": 170, "c": -100})
    # a: +10 (450) +12 (720) over 2; b: -10 +7 (270); c: -12 -7
    assert scored == {"a": 11.0, "b": -1.5, "c": -9.5}
    assert sum(scored.values()) == 0
    assert board.cross_imps({"alone": 300}) == {"alone": 0.0}


def test_wbf_continuous_vp_scale():
    assert blitz(16) == 60
    assert victory_points(0, 16) == (10.0, 10.0)
    assert victory_points(1, 16) == (10.31, 9.69)     # the WBF 16-board table's first step
    assert victory_points(20, 16) == (15.0, 5.0)      # a third of the blitz: (1 - tau) / (1 - tau^3) = 1/2
    assert victory_points(60, 16) == (20.0, 0.0) and victory_points(95, 16) == (20.0, 0.0)
    assert victory_points(-5, 16) == (8.52, 11.48)
    assert all(sum(victory_points(m, b)) == 20 for m in range(-80, 81) for b in (1, 8, 12, 16, 24))
    assert [victory_points(m, 12)[0] for m in range(0, 52)] == sorted(victory_points(m, 12)[0] for m in range(0, 52))


def _tables():
    from domain.tournaments.scoring import TableResult
    # Board 1 at three tables: NS made 620, 170, -100 (EW's result the opposite).
    return [TableResult(1, t, f"ns{t}", f"ew{t}", {"NS": ns, "EW": 0}, {1: {"NS": max(ns, 0), "EW": max(-ns, 0)}})
            for t, ns in ((1, 620), (2, 170), (3, -100))]


def test_a_tournament_scored_by_cross_imps_and_butler():
    from domain.tournaments.scoring import duplicate
    entries = [e for t in (1, 2, 3) for e in (f"ns{t}", f"ew{t}")]
    cross = duplicate(_tables(), entries, "cross_imps")
    assert (cross["ns1"].points, cross["ns2"].points, cross["ns3"].points) == (11.0, -1.5, -9.5)
    assert (cross["ew1"].points, cross["ew3"].points) == (-11.0, 9.5)
    butler = duplicate(_tables(), entries, "butler")
    # three results: no trimming, datum mean(620, 170, -100) = 230
    assert (butler["ns1"].points, butler["ns2"].points, butler["ns3"].points) == (9.0, -2.0, -8.0)   # 390, -60, -330


def test_neuberg_lifts_a_board_with_a_forfeited_table():
    from domain.tournaments.scoring import TableResult, duplicate
    tables = _tables() + [TableResult(1, 4, "ns4", "ew4", {}, {1: {}}, forfeit="ew4")]
    boards2 = [TableResult(2, t.table, t.home, t.away, t.score, {2: t.boards[1]}) for t in _tables()]
    extra = TableResult(2, 4, "ns4", "ew4", {"NS": 0}, {2: {"NS": 0, "EW": 0}})
    entries = sorted({e for t in tables for e in (t.home, t.away)})
    plain = duplicate(tables + boards2 + [extra], entries, "matchpoints")
    adjusted = duplicate(tables + boards2 + [extra], entries, "neuberg")
    # board 1 had three NS results, board 2 four: board 1's 4 (top) becomes (4 + 1) * 4/3 - 1
    assert plain["ns1"].points == 4 + 6
    assert adjusted["ns1"].points == round((4 + 1) * 4 / 3 - 1, 2) + 6
    assert adjusted["ns4"].points == 3 + 2          # the average of the fullest field on board 1, and a 0 beating -100


def test_counted_matchpoints_and_cross_imps_equal_the_pairwise_definition():
    import random
    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(2, 12)
        field = {f"e{i}": rng.choice([-300, -100, 0, 0, 40, 170, 620, 650, 1430, rng.randint(-2000, 2000)])
                 for i in range(n)}
        pairs = list(field.items())
        assert board.cross_imps(field) == {e: round(sum(imps.imps(v - w) for o, w in pairs if o != e) / (n - 1), 2)
                                           for e, v in pairs}
        assert board.matchpoints(field) == {e: float(sum(2 if v > w else 1 if v == w else 0
                                                         for o, w in pairs if o != e)) for e, v in pairs}
