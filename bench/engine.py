"""Engine benchmark: seeded random legal deals through decide/evolve, legal-action
generation included, on one core. Prints one JSON object.

    .venv/bin/python bench/engine.py [--seconds 3] [--seed 1]

Legal actions are generated for the seats the status says may act (as a server does for
the player in turn), and one is chosen uniformly. Each configuration plays whole deals (from StartDeal to the deal's end, starting a new
match when one ends) for about `--seconds`, and reports deals/s and actions/s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.games import load  # noqa: E402
from domain.playout import play_deal  # noqa: E402

CONFIGS = [
    ("belote", {"variant": "classic"}),
    ("belote", {"variant": "classic", "combinations": False}),
    ("belote", {"variant": "sans_atout"}),
    ("belote", {"variant": "coinche"}),
    ("belote", {"variant": "coinche", "rules": "official"}),
    ("cinch", {}),
    ("cinch", {"mode": "individual"}),
    ("five_hundred", {}),
]


def measure(game_name: str, raw_options: dict, seconds: float, seed: int) -> dict:
    game = load(game_name)
    options = game.parse_options(raw_options)
    rng = random.Random(seed)
    state = game.initial(options)
    deals = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        if game.status(state).phase == "match_over":
            state = game.initial(options)
        for _, state, _ in play_deal(game, state, rng, public_turns=True):
            actions += 1
        actions -= 1  # the StartDeal is not a player's action
        deals += 1
    elapsed = time.perf_counter() - start
    return {"game": game_name, "options": raw_options, "deals": deals, "seconds": round(elapsed, 3),
            "deals_per_s": round(deals / elapsed, 1), "actions_per_s": round(actions / elapsed, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="only these games")
    args = parser.parse_args()
    results = []
    for name, options in CONFIGS:
        if args.game and name not in args.game:
            continue
        try:
            results.append(measure(name, options, args.seconds, args.seed))
        except ImportError as error:
            results.append({"game": name, "options": options, "error": f"not available: {error}"})
    print(json.dumps({"benchmark": "engine", "python": platform.python_version(), "cores_used": 1,
                      "results": results}, indent=2))


if __name__ == "__main__":
    main()
