"""Double-dummy benchmark: whole deals solved from the first lead, on one core, for every game,
against the targets; the solver checked against a brute-force minimax through the real rules
on every position of the last three tricks of the same number of deals, and the speed-up
over it; the pure-Python search on a few whole deals; the compile and cache costs apart.
Prints one JSON object.

    .venv/bin/python bench/dd.py [--deals 1000] [--quick] [--seed 1]

Timings are after a warm-up (the compiled kernel loaded from its cache). The machine's load
(`os.getloadavg`) is printed beside them: they are only as steady as the machine is quiet.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import domain.doubledummy as dd
from domain.doubledummy import kernel
from domain.games import GAMES
from tests.dd_reference import (
    ducking_line,
    low_hand_misere,
    minimax,
    play_states,
    side_of,
    to_act,
)

WHOLE = [("belote", {"variant": "classic"}), ("belote", {"variant": "sans_atout"}),
         ("belote", {"variant": "coinche"}), ("belote", {"variant": "coinche", "rules": "official"}),
         ("cinch", {}), ("cinch", {"mode": "individual"}), ("five_hundred", {}),
         ("five_hundred", {"kind": "suit"})]
TARGETS = {"belote": {"p50_ms": 2.0, "p99_ms": 20.0}, "cinch": {"p50_ms": 2.0}, "five_hundred": {"p50_ms": 5.0}}
ENDINGS = WHOLE + [("five_hundred", {"kind": "misere"})]

COMPILE = """
import time
t = time.perf_counter()
import random, domain.doubledummy as dd
from domain.games import GAMES
from tests.dd_reference import play_states
imported = time.perf_counter() - t
game = GAMES["cinch"]
state = play_states(game, game.parse_options({}), random.Random(1))[-1]
t = time.perf_counter()
game.double_dummy.value(state)
print(imported, time.perf_counter() - t, dd.compiled_search is not None)
"""


def compile_costs() -> dict[str, Any]:
    """A fresh process with an empty numba cache (compiling), then one with it filled."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=ROOT)
        runs = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", COMPILE], env=env, capture_output=True, text=True,
                                 cwd=ROOT, check=True).stdout.split()
            runs.append(round(float(out[1]), 3))
        compiled = out[2] == "True"
    return {"compiled": compiled, "first_solve_cold_cache_s": runs[0], "first_solve_warm_cache_s": runs[1],
            "cache": "numba cache=True: __pycache__ beside domain/doubledummy/kernel.py (or NUMBA_CACHE_DIR)"}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(x: float) -> float:
    return round(x * 1000, 3)


def first_leads(name: str, raw: dict, n: int, seed: int) -> list[Any]:
    """The first leads of `n` random deals; `kind` in `raw` (Five Hundred) keeps the deals of
    that contract kind only: random auctions end mostly in no-trumps, tables mostly in suits."""
    game = GAMES[name]
    raw = dict(raw)
    kind = raw.pop("kind", None)
    options = game.parse_options(raw)
    rng = random.Random(seed)
    return [play_states(game, options, rng, kind)[0] for _ in range(n)]


def nodes() -> int:
    from domain.doubledummy import compiled as kernel
    return int(kernel._FRAMES[-1, 0])


def reset_nodes() -> None:
    from domain.doubledummy import compiled as kernel
    kernel._FRAMES[-1, :] = 0


def whole_deals(name: str, raw: dict, n: int, seed: int, solves: int) -> dict[str, Any]:
    solver = GAMES[name].double_dummy
    states = first_leads(name, raw, n, seed)
    solver.value(states[0])
    times, counts = [], []
    for state in states:
        reset_nodes()
        t = time.perf_counter()
        solver.value(state)
        times.append(time.perf_counter() - t)
        counts.append(nodes())
    solve_times = []
    for state in states[:solves]:
        t = time.perf_counter()
        solver.solve(state)
        solve_times.append(time.perf_counter() - t)
    out = {"game": name, "options": raw, "deals": n, "value_p50_ms": ms(pct(times, .5)),
           "value_p90_ms": ms(pct(times, .9)), "value_p99_ms": ms(pct(times, .99)),
           "value_mean_ms": ms(sum(times) / n), "nodes_p50": int(pct(counts, .5)),
           "ns_per_node": round(sum(times) / max(1, sum(counts)) * 1e9, 1),
           "solve_p50_ms": ms(pct(solve_times, .5)), "solve_p99_ms": ms(pct(solve_times, .99))}
    target = TARGETS[name]
    out["meets"] = {k: out["value_" + k] <= v for k, v in target.items()}
    return out


def pure_python(name: str, raw: dict, n: int, seed: int) -> dict[str, Any]:
    """The same whole deals through the pure-Python search (an older, simpler twin: no packed
    keys, no bounds, no last-trick shortcut), against the compiled one."""
    solver = GAMES[name].double_dummy
    states = first_leads(name, raw, n, seed)
    compiled = []
    for state in states:
        t = time.perf_counter()
        solver.value(state)
        compiled.append(time.perf_counter() - t)
    dd.SEARCH[0] = dd.python_search
    try:
        python = []
        for state in states:
            t = time.perf_counter()
            solver.value(state)
            python.append(time.perf_counter() - t)
    finally:
        dd.SEARCH[0] = dd.make_search
    return {"game": name, "options": raw, "deals": n, "python_p50_ms": ms(pct(python, .5)),
            "compiled_p50_ms": ms(pct(compiled, .5)), "speedup_total": round(sum(python) / sum(compiled), 1)}


def endings(name: str, raw: dict, n: int, seed: int) -> dict[str, Any]:
    game = GAMES[name]
    raw = dict(raw)
    kind = raw.pop("kind", None)
    misere = kind == "misere"
    options = game.parse_options(raw)
    rng = random.Random(seed)
    brute = solver = 0.0
    positions = wrong = 0
    for _ in range(n):
        if misere:
            states = ducking_line(game, low_hand_misere(game, options, rng), rng)
        else:
            states = play_states(game, options, rng, kind)
        for state in states:
            seat = to_act(state)
            if len(state.deal.hands["NESW".index(seat)]) > 3:
                continue
            side = side_of(game, state, seat)
            t = time.perf_counter()
            expected = minimax(game, state, side)[1]
            brute += time.perf_counter() - t
            t = time.perf_counter()
            got = game.double_dummy.value(state)
            solver += time.perf_counter() - t
            positions += 1
            wrong += got != expected
    return {"game": name, "options": {**raw, **({"kind": kind} if kind else {})}, "deals": n,
            "positions": positions, "mismatches": wrong, "brute_force_s": round(brute, 3),
            "solver_s": round(solver, 3), "speedup": round(brute / solver, 1) if solver else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--python-deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="30 deals per game, 2 in pure Python")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.python_deals = 30, 2
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    load_before = os.getloadavg()
    started = time.perf_counter()
    report: dict[str, Any] = {"python": platform.python_version(), "machine": platform.machine(),
                              "cpu": kernel.host_cpu(), "fast_pext": kernel.FAST_PEXT,
                              "load_before": [round(x, 2) for x in load_before], "deals": args.deals,
                              "compile": compile_costs()}
    report["whole_deal"] = [whole_deals(g, o, args.deals, args.seed, min(args.deals, 200)) for g, o in WHOLE]
    report["endings_last_3_tricks"] = [endings(g, o, args.deals, args.seed) for g, o in ENDINGS]
    report["pure_python_whole_deal"] = [pure_python(g, o, args.python_deals, args.seed)
                                        for g, o in (WHOLE[0], WHOLE[4], WHOLE[6])]
    report["verdict"] = {f"{r['game']} {json.dumps(r['options'], sort_keys=True)}": r["meets"]
                         for r in report["whole_deal"]}
    report["correct"] = all(r["mismatches"] == 0 for r in report["endings_last_3_tricks"])
    report["load_after"] = [round(x, 2) for x in os.getloadavg()]
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
