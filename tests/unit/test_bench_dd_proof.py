"""`bench/dd_proof.py` says what a perfect first guess would leave: its bisection must find the
solver's own value, and its two probes must be counted apart from it, or its figures say
nothing."""

from __future__ import annotations

import importlib

from bench.dd import first_leads
from bench.dd_proof import measured
from domain.doubledummy import rest_value


def test_the_proof_is_of_the_solvers_value_and_counted_apart() -> None:
    for game, raw in (("belote", {"variant": "classic"}), ("cinch", {}), ("five_hundred", {})):
        setup = importlib.import_module(f"domain.{game}.doubledummy")._setup
        for state in first_leads(game, raw, 3, 4):
            t, pos, mine, _, _ = setup(state)
            v, bisection, _, proof, _ = measured(t, pos, mine)
            assert v == rest_value(t, pos, mine)
            # each count is its own search's nodes: a whole deal takes more than one
            assert 1 < proof and 1 < bisection
