"""How far a better first guess could take the double-dummy search: for each whole deal, the
nodes and time of its value by bisection (what `value` does), then, on an empty table, of the
two null-window probes that prove that value once it is known (at it, and one past it) — what
a perfect first guess would leave to do. Prints one JSON object, with the cost of a node the
targets of `bench/dd.py` would need either way.

    .venv/bin/python bench/dd_proof.py [--deals 200] [--seed 2] [--only classic,five_hundred]

Node counts are exact and do not depend on the machine's load; times do (run it on a quiet
machine, as `bench/dd.py`).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import domain.doubledummy as dd
from bench.dd import TARGETS, WHOLE, first_leads, pct
from bench.dd_ab import NAMES
from domain.doubledummy import kernel


def measured(t: Any, pos: Any, mine: tuple[bool, ...]) -> tuple[int, int, float, int, float]:
    """(value, bisection's nodes and seconds, the two proving probes' nodes and seconds)."""
    with dd.ONE_SOLVE:
        n0 = dd.nodes_visited()
        t0 = time.perf_counter()
        search, _ = dd.SEARCH[0](t, mine)
        v = dd._bisect(search, pos, dd._range(t, pos, mine))
        t1 = time.perf_counter()
        n1 = dd.nodes_visited()
        search, _ = dd.SEARCH[0](t, mine)           # a new search's number: an empty table
        at = search(pos, v - 1, v)
        past = search(pos, v, v + 1)
        t2 = time.perf_counter()
        n2 = dd.nodes_visited()
    if at < v or past > v:
        raise AssertionError(f"the probes do not prove {v}: {at}, {past}")
    return v, n1 - n0, t1 - t0, n2 - n1, t2 - t1


def config(name: str, game: str, raw: dict, deals: int, seed: int) -> dict[str, Any]:
    setup = importlib.import_module(f"domain.{game}.doubledummy")._setup
    positions = [setup(s)[:3] for s in first_leads(game, raw, deals, seed)]
    measured(*positions[0])                         # compiled (or loaded) before timing
    rows = [measured(*p) for p in positions]
    bis_nodes = [r[1] for r in rows]
    proof_nodes = [r[3] for r in rows]
    bis_ms = [r[2] * 1000 for r in rows]
    proof_ms = [r[4] * 1000 for r in rows]
    ns = sum(r[2] for r in rows) / max(1, sum(bis_nodes)) * 1e9
    target = TARGETS[game]["p50_ms"]
    return {"config": name, "deals": deals,
            "bisection": {"nodes_p50": int(pct(bis_nodes, .5)), "nodes_mean": round(statistics.mean(bis_nodes)),
                          "ms_p50": round(pct(bis_ms, .5), 2)},
            "proof_only": {"nodes_p50": int(pct(proof_nodes, .5)), "nodes_mean": round(statistics.mean(proof_nodes)),
                           "ms_p50": round(pct(proof_ms, .5), 2)},
            "proof_over_bisection_nodes": round(sum(proof_nodes) / max(1, sum(bis_nodes)), 3),
            "ns_per_node": round(ns, 1), "target_p50_ms": target,
            "ns_per_node_for_target": {"bisection": round(target * 1e6 / pct(bis_nodes, .5), 1),
                                       "proof_only": round(target * 1e6 / pct(proof_nodes, .5), 1)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated: " + ",".join(NAMES))
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals is at least 1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    load_before = [round(x, 2) for x in os.getloadavg()]
    rows = [config(name, game, raw, args.deals, args.seed) for name, (game, raw) in zip(NAMES, WHOLE)
            if not args.only or name in args.only.split(",")]
    print(json.dumps({"cpu": kernel.host_cpu(), "seed": args.seed, "load_before": load_before,
                      "load_after": [round(x, 2) for x in os.getloadavg()], "configs": rows}, indent=2))


if __name__ == "__main__":
    main()
