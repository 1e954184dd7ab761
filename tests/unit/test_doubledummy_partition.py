"""Partition search in the trick game: a table entry stands for every position that differs
from its own only below the cards its value rests on. Its values must be the exact table's."""

from __future__ import annotations

import importlib.util
import os

from domain.doubledummy import compiled
from domain.games import GAMES

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("bench_dd", os.path.join(ROOT, "bench", "dd.py"))
bench_dd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_dd)


def values(states: list, partitioned: bool) -> list[int]:
    compiled.PARTITIONED[0] = partitioned
    compiled._ARRAYS.clear()
    try:
        return [GAMES["five_hundred"].double_dummy.value(s) for s in states]
    finally:
        compiled.PARTITIONED[0] = True
        compiled._ARRAYS.clear()


def test_a_card_standing_for_touching_cards_keeps_them_touching() -> None:
    """Deal 113 of seed 2: the Joker led, the defender's queen and ace of hearts touch and are
    tried as one card; in a position whose hearts differ below the ace they no longer touch.
    Unless the queen itself counts, the entry claims that position too, wrongly (8, not 7)."""
    states = bench_dd.first_leads("five_hundred", {}, 120, 2)[100:120]
    assert values(states, True) == values(states, False)
