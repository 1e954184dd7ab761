"""Fit each partnership way of playing's IMP table from bot duels; print JSON.

Each board is played in two rooms, as in a teams match: expert bots sit NS in one room and
EW in the other, basic bots at the other seats; the board difference is the expert side's
result in one room plus its result in the other (each result is the side's score minus
its opponents'). Usage: `.venv/bin/python bench/imp_scales.py [--boards 400] [--seed 1]`.
The tables printed go into each game's `domain/<game>/imp_scale.py`.
"""

from __future__ import annotations

import argparse
import json
import time

from domain.bots import policy_for
from domain.bots.arena import board_margins
from domain.games import load
from domain.tournaments import imps

WAYS = {"belote_classic": ("belote", {}), "belote_sans_atout": ("belote", {"variant": "sans_atout"}),
        "belote_coinche": ("belote", {"variant": "coinche"}), "cinch_partnership": ("cinch", {}),
        "five_hundred": ("five_hundred", {})}
UNITS = {"belote_classic": 10, "belote_sans_atout": 10, "belote_coinche": 10, "cinch_partnership": 1,
         "five_hundred": 10}


def differences(game_name: str, raw: dict, boards: int, seed: int) -> list[float]:
    game = load(game_name)
    options = game.parse_options(raw)
    expert = policy_for(game_name, "expert", budget=0.005, worlds=8, options=raw)
    basic = policy_for(game_name, "basic")
    return [sum(board_margins(game, options, board, seed, expert, basic)) for board in range(boards)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = {}
    for pool, (game, raw) in WAYS.items():
        started = time.monotonic()
        diffs = differences(game, raw, args.boards, args.seed)
        nonzero = [abs(d) for d in diffs if d]
        out[pool] = {"boards": len(diffs), "zero": len(diffs) - len(nonzero),
                     "median_abs": imps.quantile(nonzero, 0.5) if nonzero else 0,
                     "p90_abs": imps.quantile(nonzero, 0.9) if nonzero else 0,
                     "max_abs": max(nonzero, default=0),
                     "scale": list(imps.fit(diffs, UNITS[pool])),
                     "seconds": round(time.monotonic() - started, 1)}
    print(json.dumps({"seed": args.seed, "ways": out}))


if __name__ == "__main__":
    main()
