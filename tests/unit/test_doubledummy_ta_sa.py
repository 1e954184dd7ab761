"""The Belote solver on Coinche's tout atout and sans atout contracts, against the brute force
of tests/dd_reference.py (the "overtake" legality of tout atout in both searches), and the
contract table's TA and SA rows."""

from __future__ import annotations

import random
from typing import Any

import pytest

import domain.doubledummy as dd
from domain.games import GAMES
from tests.dd_reference import play_states, side_of, to_act
from tests.unit.test_doubledummy import check_endings

GAME = GAMES["belote"]
CASES = [(trump, rules) for trump in ("TA", None) for rules in ("house", "official")]


def positions(trump: str | None, rules: str, seed: int) -> list[Any]:
    """The positions of a random Coinche deal whose contract is `trump` (TA, or None: SA)."""
    options = GAME.parse_options({"variant": "coinche", "contracts": "suits_ta_sa", "rules": rules})
    rng = random.Random(seed)
    for _ in range(300):
        states = play_states(GAME, options, rng)
        if states[0].deal.contract.trump == trump:
            return states
    raise AssertionError(f"no {trump} contract in 300 random deals")


@pytest.mark.parametrize("trump,rules", CASES)
def test_last_three_tricks_match_brute_force(trump: str | None, rules: str) -> None:
    for seed in (1, 2):
        assert check_endings("belote", positions(trump, rules, seed), 3) > 0


def test_the_pure_python_search_agrees_with_the_compiled_one() -> None:
    states = [s for trump, rules in CASES for seed in (3, 5, 6) for s in positions(trump, rules, seed)[-20:]]
    compiled = [GAME.double_dummy.value(s) for s in states]
    dd.SEARCH[0] = dd.python_search
    try:
        assert [GAME.double_dummy.value(s) for s in states] == compiled
    finally:
        dd.SEARCH[0] = dd.make_search


@pytest.mark.parametrize("trump", ["TA", None])
def test_contract_table_has_ta_and_sa(trump: str | None) -> None:
    state = positions(trump, "house", 4)[0]
    table = GAME.double_dummy.contract_table(state)
    assert set(table) == {"S", "H", "D", "C", "TA", "SA"}
    assert table[trump or "SA"][side_of(GAME, state, to_act(state))] == GAME.double_dummy.value(state)
    assert table["TA"]["NS"] + table["TA"]["EW"] in (162, 252)
    assert table["SA"]["NS"] + table["SA"]["EW"] in (130, 220)
