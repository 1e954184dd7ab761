"""Pairing rules: Berger completeness, Swiss without rematches and with rotating byes,
the elimination bracket, and manual pairings all-or-nothing."""

from __future__ import annotations

import itertools

import pytest

from domain.game import RuleViolation
from domain.tournaments import pairing


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 10])
def test_berger_every_pair_meets_exactly_once(n: int) -> None:
    entries = [f"e{i}" for i in range(n)]
    rounds = pairing.berger_rounds(entries)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = [frozenset(t) for tables, _ in rounds for t in tables]
    assert sorted(met, key=sorted) == sorted({frozenset(p) for p in itertools.combinations(entries, 2)}, key=sorted)
    for tables, byes in rounds:
        seated = [e for t in tables for e in t] + byes
        assert sorted(seated) == sorted(entries)          # everyone once per round
    if n % 2:
        assert sorted(b for _, byes in rounds for b in byes) == sorted(entries)  # each sits out once


def test_berger_alternates_the_fixed_entrys_side() -> None:
    rounds = pairing.berger_rounds(["a", "b", "c", "d"])
    sides = [("d" == t[1]) for tables, _ in rounds for t in tables if "d" in t]
    assert sides == [True, False, True]


def _swiss_rounds(n: int, rounds: int) -> tuple[list[list[tuple[str, str]]], list[str]]:
    entries = [f"e{i}" for i in range(n)]
    points = {e: 0 for e in entries}
    played: set[frozenset[str]] = set()
    had_bye: list[str] = []
    history = []
    for r in range(rounds):
        ranked = pairing.rank(entries, points, {})
        tables, byes = pairing.swiss_pairing(ranked, played, set(had_bye))
        history.append(tables)
        for a, b in tables:
            played.add(frozenset((a, b)))
            points[min(a, b)] += 2   # a fixed winner, so scores spread
        for b in byes:
            had_bye.append(b)
            points[b] += 2
    return history, had_bye


def test_swiss_never_rematches_and_pairs_by_score() -> None:
    history, _ = _swiss_rounds(8, 5)
    met = [frozenset(t) for tables in history for t in tables]
    assert len(met) == len(set(met))
    # round 2 pairs winners with winners: e0..e3 won round 1 (they met e4..e7)
    assert all(max(t) < "e4" or min(t) >= "e4" for t in history[1])


def test_swiss_byes_rotate() -> None:
    _, byes = _swiss_rounds(7, 7)
    assert len(byes) == 7 and len(set(byes)) == 7


def test_swiss_allows_a_rematch_only_when_nothing_else_is_possible() -> None:
    played = {frozenset(("a", "b"))}
    assert pairing.swiss_pairing(["a", "b"], played, set()) == ([("a", "b")], [])
    tables, _ = pairing.swiss_pairing(["a", "b", "c", "d"], played, set())
    assert frozenset(tables[0]) != frozenset(("a", "b"))


def test_elimination_bracket_seeds_and_byes() -> None:
    assert pairing.bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    tables, byes = pairing.elimination_first_round([f"s{i}" for i in range(1, 9)])
    assert tables == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")] and byes == []
    tables, byes = pairing.elimination_first_round([f"s{i}" for i in range(1, 7)])
    assert byes == ["s1", "s2"] and len(tables) == 2
    assert pairing.elimination_rounds(6) == 3 and pairing.elimination_rounds(8) == 3
    assert pairing.elimination_next_round(["a", "b", "c", "d"]) == ([("a", "b"), ("c", "d")], [])


def test_manual_pairing_is_all_or_nothing() -> None:
    active = ["a", "b", "c", "d", "e"]
    assert pairing.check_manual([["a", "b"], ["c", "d"]], ["e"], active) == [("a", "b"), ("c", "d")]
    for tables, byes, reason in [([["a", "b"], ["c", "d"]], [], "missing"),
                                 ([["a", "b"], ["c", "a"]], ["e", "d"], "twice"),
                                 ([["a", "b"], ["c", "d"]], ["z"], "unknown"),
                                 ([["a", "a"], ["c", "d"]], ["e", "b"], "table")]:
        with pytest.raises(RuleViolation) as caught:
            pairing.check_manual(tables, byes, active)
        assert caught.value.code == "bad_pairing"
        assert reason in caught.value.details or reason in caught.value.message
