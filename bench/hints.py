"""Hint benchmark: how long `domain.bots.hints.suggest` (the master without its time budget,
plus the reason) takes per decision, per game. Prints one JSON object.

    .venv/bin/python bench/hints.py [--deals 4] [--seed 1]

Each game plays `--deals` seeded deals; at every decision with more than one legal action
the seat to act is given a hint from its view (what `GET /v1/matches/{id}/hint` computes),
then a uniformly random legal action is played. Reports p50, p99 and max in milliseconds
and the number of decisions timed. One process, one core.
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

from domain.bots.hints import suggest  # noqa: E402
from domain.cards import SEATS  # noqa: E402
from domain.game import StartDeal  # noqa: E402
from domain.games import load  # noqa: E402
from domain.playout import choose_action  # noqa: E402

CONFIGS = [("belote", {"variant": "classic"}), ("belote", {"variant": "coinche"}),
           ("belote", {"variant": "sans_atout"}), ("cinch", {}), ("five_hundred", {})]


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(game_name: str, raw: dict, deals: int, seed: int) -> dict:
    game = load(game_name)
    rng = random.Random(seed)
    times: list[float] = []
    for d in range(deals):
        deck = list(game.deck)
        rng.shuffle(deck)
        state, _ = game.apply(game.initial(game.parse_options(raw)), StartDeal(dealer=SEATS[d % 4], deck=tuple(deck)))
        for _ in range(400):
            status = game.status(state)
            if status.phase != "in_deal":
                break
            seat = status.to_act[0]
            view = game.view(state, seat)
            if len(view.legal) > 1 or any(isinstance(v, dict) for a in view.legal for v in a.values()):
                started = time.perf_counter()
                suggest(game_name, view)
                times.append((time.perf_counter() - started) * 1000)
            state, _ = game.apply(state, game.parse_action(choose_action(game, state, rng, public_turns=True)))
    return {"game": game_name, "options": raw, "decisions": len(times), "p50_ms": round(_quantile(times, 0.5), 1),
            "p99_ms": round(_quantile(times, 0.99), 1), "max_ms": round(max(times), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    results = [run(g, o, args.deals, args.seed) for g, o in CONFIGS]
    print(json.dumps({"bench": "hints", "deals_per_game": args.deals, "seed": args.seed,
                      "load_average": os.getloadavg()[0], "python": platform.python_version(),
                      "results": results}, indent=1))


if __name__ == "__main__":
    main()
