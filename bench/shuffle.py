"""Shuffle benchmark: verifiable deals per second per deck, on one core. Prints one JSON object.

    .venv/bin/python bench/shuffle.py [--seconds 1]

Why it exists: every deal and every `record play` with a `fair` block recomputes a deck, and
a chain check can hash up to N times; this keeps both costs visible.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.fair import GAME_DECK_SIZE, chain_element, match_context, shuffle_deck  # noqa: E402


def _rate(work, seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            work(done)
            done += 1
    return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    secret = bytes(range(32))
    seed = chain_element(secret, 1000, 1)
    entropy = {"N": "north", "E": "east", "S": "south", "W": "west"}
    result = {"python": platform.python_version(), "machine": platform.machine()}
    for game in GAME_DECK_SIZE:
        result[f"{game}_deals_per_s"] = round(_rate(
            lambda i: shuffle_deck(game, seed, match_context("bench", i % 1000 + 1), entropy), args.seconds))
    result["chain_1000_per_s"] = round(_rate(lambda i: chain_element(secret, 1000, 0), args.seconds))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
