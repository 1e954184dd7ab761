"""A board's par (domain/belote/par.py): seconds per board for each Belote way of playing,
one core, after the solver's compile. Prints JSON.

    .venv/bin/python bench/par.py [--boards 30]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.belote import GAME  # noqa: E402
from domain.cards import DECK_32  # noqa: E402

WAYS = {"classic": {}, "classic official": {"rules": "official"}, "sans atout": {"variant": "sans_atout"},
        "coinche": {"variant": "coinche"}, "coinche official": {"variant": "coinche", "rules": "official"}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=30)
    args = parser.parse_args()
    t0 = time.perf_counter()
    GAME.par(GAME.parse_options({"deals": 1}), "N", DECK_32)           # the solver's compile, apart
    out = {"compile_s": round(time.perf_counter() - t0, 2), "boards": args.boards, "load": os.getloadavg()[0],
           "seconds_per_board": {}}
    for name, raw in WAYS.items():
        options = GAME.parse_options({"deals": 1, **raw})
        rng = random.Random(f"par {name}")
        times = []
        for _ in range(args.boards):
            deck = list(DECK_32)
            rng.shuffle(deck)
            start = time.perf_counter()
            GAME.par(options, rng.choice("NESW"), deck)
            times.append(time.perf_counter() - start)
        times.sort()
        out["seconds_per_board"][name] = {"p50": round(statistics.median(times), 3),
                                          "p90": round(times[int(0.9 * (len(times) - 1))], 3),
                                          "max": round(times[-1], 3)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
