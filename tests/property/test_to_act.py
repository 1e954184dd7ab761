"""Every game's status names seats that have a legal action, at least one while a deal is
on and none between deals. A seat may have a private legal action the status does not name
(declining Belote combinations), so the status is a subset, never more."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from domain.cards import Seat
from domain.games import load
from domain.playout import play_deal

CONFIGS = [
    ("belote", {"variant": "classic"}),
    ("belote", {"variant": "coinche"}),
    ("belote", {"variant": "coinche", "rules": "official"}),
    ("belote", {"variant": "sans_atout", "combinations": False}),
    ("cinch", {}),
    ("cinch", {"mode": "individual"}),
    ("five_hundred", {}),
    ("five_hundred", {"misere": False}),
]


@pytest.mark.parametrize("name,options", CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_to_act_is_every_seat_with_a_legal_action(name: str, options: dict, seed: int) -> None:
    game = load(name)
    state = game.initial(game.parse_options(options))
    for _, state, _ in play_deal(game, state, random.Random(seed)):
        status = game.status(state)
        acting = {seat for seat in Seat if game.legal_actions(state, seat)}
        if status.phase == "in_deal":
            assert status.to_act and set(status.to_act) <= acting
        else:
            assert acting == set()
