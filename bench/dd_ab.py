"""Two double-dummy kernels timed against each other in one process: the working tree's and
the one of a git revision, each whole deal solved by both in turn (which goes first
alternating), so that both meet the same state of a noisy machine. Two runs of one kernel,
one after the other, can differ by a third on a shared machine; the ratio of the two sums
here is steady within a few percent. Prints one JSON object.

    .venv/bin/python bench/dd_ab.py --rev HEAD [--deals 150] [--seed 1] [--only five_hundred,classic] [--block 1]

The revision's `kernel.py` is loaded as a module of its own (from a temporary directory,
its numba cache beside it) and driven with this tree's tables; its `run` must take the same
arguments. Values are compared deal by deal. Each kernel has its own transposition table, and
the two share the processor's caches: where a change is the table's size or layout, `--block
15` lets each kernel solve fifteen deals in turn, so that its table is warm in the caches as it
would be in a process of its own.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np

import domain.doubledummy as dd
from bench.dd import WHOLE, first_leads
from domain.doubledummy import compiled
from domain.doubledummy import kernel as ours

NAMES = ["classic", "sans_atout", "coinche", "official", "cinch", "individual", "five_hundred", "five_hundred_suit"]


def theirs(rev: str, into: str) -> Any:
    source = subprocess.run(["git", "show", f"{rev}:domain/doubledummy/kernel.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    with open(os.path.join(into, "kernel_at_rev.py"), "w") as f:
        f.write(source)
    sys.path.insert(1, into)
    return importlib.import_module("kernel_at_rev")


def solver(k: Any) -> Any:
    """`value` of a (table, position, side) through kernel module `k`: the bisection of
    `domain.doubledummy` over `k.run`, with the module's own frames and table."""
    fr = np.zeros((k.MAX_DEPTH, k.FIELDS), np.int64)
    moves = np.zeros((k.MAX_DEPTH, k.MAX_MOVES), np.int64)
    prio = np.zeros_like(moves)
    tt = compiled._table(k.TT_BITS)       # the size the kernel was tuned with
    width = max(getattr(k, n) for n in ("STOP_VALUE", "PARTITION") if hasattr(k, n)) + 1
    gen = [0]

    def value(t: Any, pos: Any, mine: tuple[bool, ...]) -> int:
        _, tab, sm, runs, nxt, base = compiled._arrays(t)
        params = base[:width].copy()
        if t.stop_seat >= 0:
            params[k.STOP_VALUE] = -1 if mine[t.stop_seat] else 1
        mine_a = np.array([1 if m else 0 for m in mine], np.int64)
        gen[0] += 1
        every = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
        rem = sum(t.points[c] for c in range(len(t.codes)) if every >> c & 1)

        def search(p: Any, alpha: int, beta: int, restrict: int = -1) -> int:
            fr[0, k.SEAT], fr[0, k.NPLAYED], fr[0, k.LED] = p.leader, 0, -1
            fr[0, k.WS], fr[0, k.WK], fr[0, k.WC] = -1, -1, -1
            fr[0, k.PTS], fr[0, k.TMASK], fr[0, k.FLAGS], fr[0, k.LEFT] = 0, 0, p.flags, p.tricks_left
            fr[0, k.ALPHA], fr[0, k.BETA], fr[0, k.RESTRICT], fr[0, k.CARD] = alpha, beta, restrict, -1
            fr[0, k.REM] = rem
            return int(k.run(np.array(p.hands, np.int64), np.array(p.voids, np.int64), fr, tab, sm, runs, nxt,
                             mine_a, params, moves, prio, tt, gen[0], 1 << 60))

        return dd._bisect(search, pos, dd._range(t, pos, mine))

    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated: " + ",".join(NAMES))
    parser.add_argument("--block", type=int, default=1,
                        help="deals each kernel solves in turn, at least 1 (more than one keeps its table warm)")
    args = parser.parse_args()
    if args.block < 1:
        parser.error("--block is at least 1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    with tempfile.TemporaryDirectory() as into:
        kernels = {"ours": solver(ours), args.rev: solver(theirs(args.rev, into))}
        rows = []
        for name, (game, raw) in zip(NAMES, WHOLE):
            if args.only and name not in args.only.split(","):
                continue
            setup = importlib.import_module(f"domain.{game}.doubledummy")._setup
            positions = [setup(s)[:3] for s in first_leads(game, raw, args.deals, args.seed)]
            for value in kernels.values():                   # compiled (or loaded) before timing
                value(*positions[0])
            spent = dict.fromkeys(kernels, 0.0)
            same = True
            for b in range(0, len(positions), args.block):
                block = positions[b:b + args.block]
                got: dict[str, list[int]] = {}
                for label in (list(kernels) if (b // args.block) % 2 else list(kernels)[::-1]):
                    start = time.perf_counter()
                    got[label] = [kernels[label](*position) for position in block]
                    spent[label] += time.perf_counter() - start
                same = same and len({tuple(v) for v in got.values()}) == 1
            rows.append({"config": name, "deals": args.deals,
                         "ms_a_deal": {k: round(v / args.deals * 1000, 3) for k, v in spent.items()},
                         "ours_over_theirs": round(spent["ours"] / spent[args.rev], 3), "same_values": same})
    print(json.dumps({"rev": args.rev, "seed": args.seed, "load": [round(x, 2) for x in os.getloadavg()],
                      "configs": rows}, indent=2))


if __name__ == "__main__":
    main()
