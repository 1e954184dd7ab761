"""What a deal's review costs a worker: CPU seconds per finished deal, per game.

Deals are played by `basic` bots through the real rules (`domain.bots.arena`), then reviewed
exactly as the workers review them (`domain.review.review`, `ATOUT_REVIEW_WORLDS` worlds per
card with a choice). Times are the process's CPU time (one core), after one warm-up review
per game (the solver's compile or cache load is reported apart). The target: a Belote deal
in at most 2 s of one core, so that workers can be sized (docs/review.md). Prints one JSON
object.

    .venv/bin/python bench/review.py --deals 20 [--worlds 16]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from domain import review  # noqa: E402
from domain.bots import arena, policy_for  # noqa: E402
from domain.cards import SEATS  # noqa: E402
from domain.games import load  # noqa: E402

WAYS = [("belote", {"variant": "classic"}), ("belote", {"variant": "sans_atout"}),
        ("belote", {"variant": "coinche", "rules": "official"}), ("cinch", {}), ("cinch", {"mode": "individual"}),
        ("five_hundred", {})]
TARGET_BELOTE = 2.0


def measure(name: str, raw: dict, deals: int, worlds: int, seed: int) -> dict:
    game = load(name)
    options = game.parse_options(raw)
    basic = policy_for(name, "basic")
    played = []
    board = 0
    while len(played) < deals + 1:
        deck, dealer = arena.board_deal(game, board, seed)
        _, actions = arena.play(game, options, dealer, deck, {s: basic for s in SEATS}, random.Random(board))
        board += 1
        if any(a["action"] == "play" for a in actions):
            played.append((deck, dealer, actions))
    started = time.process_time()
    deck, dealer, actions = played[0]
    review.review(game, options, str(dealer), deck, actions, worlds=worlds, seed=0)
    warm_up = time.process_time() - started
    times = []
    for i, (deck, dealer, actions) in enumerate(played[1:], start=1):
        started = time.process_time()
        review.review(game, options, str(dealer), deck, actions, worlds=worlds, seed=i)
        times.append(time.process_time() - started)
    times.sort()
    return {"game": name, "options": raw, "deals": len(times), "first_review_s": round(warm_up, 3),
            "cpu_s_mean": round(statistics.fmean(times), 3), "cpu_s_p50": round(times[len(times) // 2], 3),
            "cpu_s_p90": round(times[int(len(times) * 0.9)], 3), "cpu_s_max": round(times[-1], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=review.WORLDS)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rows = [measure(name, raw, args.deals, args.worlds, args.seed) for name, raw in WAYS]
    belote = [r for r in rows if r["game"] == "belote"]
    print(json.dumps({"worlds": args.worlds, "ways": rows, "load": os.getloadavg()[0],
                      "verdict": {"belote_mean_le_2s": all(r["cpu_s_mean"] <= TARGET_BELOTE for r in belote)}}))


if __name__ == "__main__":
    main()
