"""A board's par (domain/<game>/par.py): seconds per board for each partnership way of
playing, one core, after the solvers' compile. Prints JSON.

    .venv/bin/python bench/par.py [--boards 30] [--ways coinche,cinch,five_hundred]
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

from domain.cards import DECK_32, DECK_43, DECK_52  # noqa: E402
from domain.games import GAMES  # noqa: E402

WAYS = {"classic": ("belote", {}), "classic official": ("belote", {"rules": "official"}),
        "sans atout": ("belote", {"variant": "sans_atout"}), "coinche": ("belote", {"variant": "coinche"}),
        "coinche official": ("belote", {"variant": "coinche", "rules": "official"}),
        "cinch": ("cinch", {}), "five_hundred": ("five_hundred", {})}
DECKS = {"belote": DECK_32, "cinch": DECK_52, "five_hundred": DECK_43}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=30)
    parser.add_argument("--ways", default=",".join(WAYS), help="comma-separated: " + ", ".join(WAYS))
    args = parser.parse_args()
    ways = args.ways.split(",")
    t0 = time.perf_counter()
    for game in dict.fromkeys(WAYS[w][0] for w in ways):                 # the solvers' compile, apart
        GAMES[game].par(GAMES[game].parse_options({"deals": 1}), "N", DECKS[game])
    out = {"compile_s": round(time.perf_counter() - t0, 2), "boards": args.boards, "load": os.getloadavg()[0],
           "seconds_per_board": {}}
    for name in ways:
        game, raw = WAYS[name]
        rules = GAMES[game]
        options = rules.parse_options({"deals": 1, **raw})
        rng = random.Random(f"par {name}")
        times = []
        for _ in range(args.boards):
            deck = list(DECKS[game])
            rng.shuffle(deck)
            start = time.perf_counter()
            rules.par(options, rng.choice("NESW"), deck)
            times.append(time.perf_counter() - start)
        times.sort()
        out["seconds_per_board"][name] = {"p50": round(statistics.median(times), 3),
                                          "p90": round(times[int(0.9 * (len(times) - 1))], 3),
                                          "max": round(times[-1], 3)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
