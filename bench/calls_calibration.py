"""How often the `master` makes in play what the double-dummy solver makes: the rates by
which its solved Five Hundred calls weigh a contract (`domain/bots/five_hundred_calls.py`).

The solver sees every card; the seats in play see their own. So over boards dealt as the
bots' duels deal them, with `basic`'s auction and kitty and four `master`s in the play at
their default budget, the benchmark solves each contract at its first lead and counts what
the play then made of it: the contracts the solver makes and fails, a misère likewise, the
ten tricks it finds over a bid worth less than the slam's 250, and the tricks the
contractor's side took against the solver's. JSON on stdout.

    .venv/bin/python bench/calls_calibration.py --boards 800 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from domain.bots import FAMILIES
from domain.bots.arena import board_deal, board_rng, play
from domain.bots.master import Master
from domain.cards import SEATS
from domain.five_hundred.doubledummy import value
from domain.five_hundred.scoring import SLAM
from domain.games import load


def _contracts(boards: range, seed: int) -> list[dict[str, Any]]:
    """Per board whose deal is played: the contract, the solver's value at the first lead for
    the contractor's side, and what that side took."""
    game = load("five_hundred")
    options = game.parse_options({})
    master = Master(FAMILIES["five_hundred"], "five_hundred")
    out = []
    for board in boards:
        deck, dealer = board_deal(game, board, seed)
        first: dict[str, Any] = {}

        def before(state: Any, first: dict[str, Any] = first) -> None:
            deal = state.deal
            if state.phase == "play" and not first and not deal.tricks and not deal.trick.plays:
                spec = deal.contract.spec
                first.update(solver=value(state), side=deal.contract.side, misere=spec.misere,
                             tricks=spec.tricks, value=spec.value)

        state, _ = play(game, options, dealer, deck, dict.fromkeys(SEATS, master), board_rng(board, seed, "all"),
                        before=before)
        if first:
            won = state.deal.won[first["side"]]
            out.append({**first, "taken": -won if first["misere"] else won})
    return out


def _rate(rows: list[dict[str, Any]], made: Any) -> dict[str, Any]:
    return {"contracts": len(rows), "made_in_play": round(sum(map(made, rows)) / len(rows), 3) if rows else None}


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    trick = [r for r in rows if not r["misere"]]
    misere = [r for r in rows if r["misere"]]
    slams = [r for r in trick if r["solver"] == 10 and r["value"] < SLAM]
    return {
        "contracts": len(rows),
        "solver_made": _rate([r for r in trick if r["solver"] >= r["tricks"]], lambda r: r["taken"] >= r["tricks"]),
        "solver_failed": _rate([r for r in trick if r["solver"] < r["tricks"]], lambda r: r["taken"] >= r["tricks"]),
        "misere_solver_made": _rate([r for r in misere if r["solver"] == 0], lambda r: r["taken"] == 0),
        "misere_solver_failed": _rate([r for r in misere if r["solver"] < 0], lambda r: r["taken"] == 0),
        "slam_solver_found": {"contracts": len(slams),
                              "kept_in_play": round(sum(r["taken"] == 10 for r in slams) / len(slams), 3) if slams else None},
        "taken_less_solver": dict(sorted(Counter(r["taken"] - r["solver"] for r in trick).items())),
        "taken_less_solver_mean": round(sum(r["taken"] - r["solver"] for r in trick) / len(trick), 3) if trick else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=800)
    parser.add_argument("--from-board", type=int, default=0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    boards = range(args.from_board, args.from_board + args.boards)
    chunks = [boards[i::args.jobs] for i in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [r for part in pool.map(_contracts, chunks, [args.seed] * args.jobs) for r in part]
    print(json.dumps({"boards": args.boards, "from_board": args.from_board, "seed": args.seed, **summarize(rows)},
                     indent=2))


if __name__ == "__main__":
    main()
