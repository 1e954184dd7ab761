"""`atout bots duel`: two bot levels over duplicate deals; prints one JSON object.

Each board is one shuffled deck played from the same dealer once per seating of A: twice
in a partnership game (A as NS, then as EW), four times in Cinch individual (A in each
seat in turn, B in the other three, A's margin being its score less the others' average),
so the luck of the cards cancels out: what is left is the difference in play. Per board we
take A's average margin over its seatings; the output gives the
boards each side won, the mean margin per deal and its 95% confidence interval (normal
approximation over boards). Boards are spread over one process per core (`--jobs`).

    atout bots duel --game belote --options '{"variant": "coinche"}' --a expert --b basic --deals 300 --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bots", help="bot tools: duel two levels over duplicate deals")
    sub = parser.add_subparsers(dest="bots_command", metavar="COMMAND")
    duel = sub.add_parser("duel", help="duplicate deals between two bot levels; prints JSON")
    duel.add_argument("--game", required=True, help="belote, cinch or five_hundred")
    duel.add_argument("--options", default="{}", help="match options as JSON (default {})")
    duel.add_argument("--a", default="expert", help="level of side A (default expert)")
    duel.add_argument("--b", default="basic", help="level of side B (default basic)")
    duel.add_argument("--deals", type=int, default=100, help="boards (each played twice; default 100)")
    duel.add_argument("--seed", type=int, default=1, help="seed of the decks (default 1)")
    duel.add_argument("--budget", type=float, default=None, help="expert seconds per decision (default: its own)")
    duel.add_argument("--worlds", type=int, default=None, help="expert worlds per decision (default: its own)")
    duel.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: CPU cores)")
    duel.set_defaults(func=run)
    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])


def _settings(args: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if args.budget is not None:
        out["budget"] = args.budget
    if args.worlds is not None:
        out["worlds"] = args.worlds
    return out


def _boards(job: tuple[str, dict[str, Any], str, str, int, list[int], dict[str, Any]]) -> list[float]:
    from domain.bots import policy_for
    from domain.bots.arena import board_margins
    from domain.games import load

    game_name, raw, a_level, b_level, seed, boards, settings = job
    game = load(game_name)
    options = game.parse_options(raw)
    expert = {**settings, "options": raw}
    a = policy_for(game_name, a_level, **(expert if a_level in ("expert", "master") else {}))
    b = policy_for(game_name, b_level, **(expert if b_level in ("expert", "master") else {}))
    out = []
    for board in boards:
        margins = board_margins(game, options, board, seed, a, b)
        out.append(sum(margins) / len(margins))
    return out


def duel(game_name: str, raw: dict[str, Any], a: str, b: str, deals: int, seed: int, jobs: int,
         settings: dict[str, Any] | None = None) -> dict[str, Any]:
    from domain.bots.arena import summarize

    jobs = max(1, min(jobs, deals))
    chunks = [list(range(k, deals, jobs)) for k in range(jobs)]
    work = [(game_name, raw, a, b, seed, chunk, settings or {}) for chunk in chunks]
    started = time.monotonic()
    if jobs == 1:
        results = [_boards(work[0])]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_boards, work))
    by_board: dict[int, float] = {}
    for chunk, margins in zip(chunks, results):
        by_board.update(zip(chunk, margins))
    summary = summarize([by_board[k] for k in range(deals)])
    return {"game": game_name, "options": raw, "a": a, "b": b, "seed": seed, **summary,
            "a_won_deals": summary["a_won"], "b_won_deals": summary["b_won"], "jobs": jobs,
            "seconds": round(time.monotonic() - started, 1)}


def run(args: argparse.Namespace) -> int:
    from domain.bots import FAMILIES, LEVELS

    try:
        raw = json.loads(args.options)
        if not isinstance(raw, dict):
            raise ValueError("options must be a JSON object")
        if args.game not in FAMILIES or args.a not in LEVELS or args.b not in LEVELS:
            raise ValueError(f"games: {', '.join(FAMILIES)}; levels: {', '.join(LEVELS)}")
        from domain.games import load

        load(args.game).parse_options(raw)
    except Exception as error:
        print(f"atout bots duel: {error}", file=sys.stderr)
        return 2
    result = duel(args.game, raw, args.a, args.b, args.deals, args.seed, args.jobs, _settings(args))
    print(json.dumps(result))
    return 0
