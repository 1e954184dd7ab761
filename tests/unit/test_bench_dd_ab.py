"""`bench/dd_ab.py` drives a kernel module with its own frames and table: driven through it,
this tree's kernel must give the solver's own values, or its timings compare nothing."""

from __future__ import annotations

import importlib

from bench.dd import first_leads
from bench.dd_ab import solver
from domain.doubledummy import kernel, rest_value


def test_the_driver_gives_the_solvers_values() -> None:
    value = solver(kernel)
    for game, raw in (("belote", {"variant": "classic"}), ("cinch", {}), ("five_hundred", {})):
        setup = importlib.import_module(f"domain.{game}.doubledummy")._setup
        for state in first_leads(game, raw, 3, 4):
            t, pos, mine, _, _ = setup(state)
            assert value(t, pos, mine) == rest_value(t, pos, mine)
