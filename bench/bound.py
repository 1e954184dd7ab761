"""The perfect-information bound: what the expert's own search would reach if every world
it sampled were the true deal.

`Oracle` is the `expert` — the same candidates (calls and cards), the same playouts by
`basic`, the same budget and worlds, the same test before a call leaves basic's — with one
change: where the expert deals the cards it cannot see (`play_world`, `auction_world`),
every world the oracle gets is the true state of the deal. Its worlds then differ only in
the playouts' random numbers, so a call that wins in the true deal wins in every world and
the anchor test (beat basic's call by standard errors, world by world) passes once two
worlds agree. (Searching the true deal once is not the same thing: with one world that
test can never pass, and the bound would bid exactly like `basic`.)

It cheats by construction, so it lives here, in `bench/`, and nothing the service, the API
or a worker runs can reach it: no module under `domain/`, `infra/` or `services/` imports
`bench`, and `policy_for` has no level for it (`tests/unit/bots/test_bots_bound.py`).

The bound measures the expert: on the same boards, expert−basic over bound−basic is the
share of the margin perfect information would buy that the expert's inference gets.

    .venv/bin/python bench/bound.py --game cinch --boards 20 [--options JSON] [--jobs 2] [--knows play]
    .venv/bin/python bench/bound.py --game cinch --boards 20 --level master   # the master's play-only bound
    .venv/bin/python bench/bound.py --game belote --options '{"variant": "classic"}' --boards 300 --level master \
        --nodes 2000000 --known-tricks 3        # no clock; the bound knows the first three tricks only

`SolvedPlay` is the master's play-only bound: the master with the true deal, solved double
dummy, as its one world in the play; calls and discards the master's own.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from domain.bots import FAMILIES, policy_for  # noqa: E402
from domain.bots.arena import board_margins  # noqa: E402
from domain.bots.expert import Expert  # noqa: E402
from domain.bots.master import Master  # noqa: E402
from domain.games import load  # noqa: E402


PHASES = ("auction", "play")


class Oracle(Expert):
    """The expert given the true deal as every world; `truth` is set before each decision
    by the arena's `before` hook. `knows` the phases it is given it in (both: the bound; one:
    how much of the bound's margin that phase's knowledge makes, the other phase's worlds
    sampled as the expert's)."""

    def __init__(self, game_name: str, knows: tuple[str, ...] = PHASES, **settings: Any) -> None:
        super().__init__(FAMILIES[game_name], game_name, **settings)
        self.truth: Any = None
        self.knows = knows

    def play_world(self, table: Any, rng: random.Random, options: Any) -> Any:
        return self.truth if "play" in self.knows else super().play_world(table, rng, options)

    def auction_world(self, table: Any, rng: random.Random, options: Any) -> Any:
        return self.truth if "auction" in self.knows else super().auction_world(table, rng, options)

    def observe(self, state: Any) -> None:
        self.truth = state


class SolvedPlay(Master):
    """The play-only bound of the `master`: in the play its one world is the true deal,
    solved double dummy, so every card it plays is a best card of the real deal; its calls,
    kitty and discards are the master's own, from worlds sampled from its view.

    `known_tricks` K makes it a partial bound — the true deal during the first K tricks of
    the play, the master's own worlds after — which says where in the deal the master loses
    what the bound gains. A solve of the truth is never cut by `nodes` (a node cap bounds the
    master's search, not the bound's knowledge); the time `budget`, as the master's, holds."""

    def __init__(self, game_name: str, known_tricks: int | None = None, **settings: Any) -> None:
        super().__init__(FAMILIES[game_name], game_name, **settings)
        self.known_tricks = known_tricks
        self.truth: Any = None

    def knows(self, table: Any) -> bool:
        return self.known_tricks is None or len(table.tricks) < self.known_tricks

    def solve_worlds(self, table: Any, candidates: list[dict[str, Any]], rng: random.Random,
                     options: Any, begun: float) -> list[float]:
        if not self.knows(table):
            return super().solve_worlds(table, candidates, rng, options, begun)
        saved = self.play_worlds, self.nodes
        self.play_worlds, self.nodes = 1, None
        try:
            return super().solve_worlds(table, candidates, rng, options, begun)
        finally:
            self.play_worlds, self.nodes = saved

    def play_world(self, table: Any, rng: random.Random, options: Any) -> Any:
        return self.truth if self.knows(table) else super().play_world(table, rng, options)

    def observe(self, state: Any) -> None:
        self.truth = state


def master_boards(game_name: str, raw: dict[str, Any], indices: list[int], seed: int,
                  settings: dict[str, Any], known_tricks: int | None = None) -> dict[str, list[float]]:
    """Per board, the average margin over its seatings of the solved-play bound − basic and
    master − basic (the bound knowing the deal during the first `known_tricks` tricks only,
    when given)."""
    game = load(game_name)
    options = game.parse_options(raw)
    basic = policy_for(game_name, "basic")
    master = policy_for(game_name, "master", options=raw, **settings)
    bound = SolvedPlay(game_name, known_tricks=known_tricks, options=raw, **settings)
    out: dict[str, list[float]] = {"bound": [], "master": []}
    for board in indices:
        m = board_margins(game, options, board, seed, bound, basic, before=bound.observe)
        out["bound"].append(sum(m) / len(m))
        m = board_margins(game, options, board, seed, master, basic)
        out["master"].append(sum(m) / len(m))
    return out


def boards(game_name: str, raw: dict[str, Any], indices: list[int], seed: int, settings: dict[str, Any],
           knows: tuple[str, ...] = PHASES) -> dict[str, list[float]]:
    """Per board, the average margin over its seatings of bound−basic and expert−basic."""
    game = load(game_name)
    options = game.parse_options(raw)
    basic = policy_for(game_name, "basic")
    expert = policy_for(game_name, "expert", options=raw, **settings)
    oracle = Oracle(game_name, knows, options=raw, **settings)
    out: dict[str, list[float]] = {"bound": [], "expert": []}
    for board in indices:
        m = board_margins(game, options, board, seed, oracle, basic, before=oracle.observe)
        out["bound"].append(sum(m) / len(m))
        m = board_margins(game, options, board, seed, expert, basic)
        out["expert"].append(sum(m) / len(m))
    return out


def share(bound: list[float], expert: list[float], level: str = "expert") -> dict[str, Any]:
    """The level's share of the bound's margin over basic, on the same boards."""
    from domain.bots.arena import summarize

    b, e = summarize(bound), summarize(expert)
    gap = b["margin_per_deal"]
    return {"boards": len(bound), "bound_minus_basic": b, f"{level}_minus_basic": e,
            "share": round(e["margin_per_deal"] / gap, 3) if gap > 0 else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--options", default="{}")
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--knows", default="auction,play", choices=["auction,play", "play", "auction"],
                        help="the phases the bound is given the true deal in (both: the bound)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--level", default="expert", choices=["expert", "master"],
                        help="master: the bound solves the true deal in the play (--knows play implied)")
    parser.add_argument("--nodes", type=int, default=None,
                        help="master: no clock, this many nodes a decision (the same search on any machine or load)")
    parser.add_argument("--known-tricks", type=int, default=None,
                        help="master: the bound knows the deal during the first K tricks of the play only")
    args = parser.parse_args()
    if args.level != "master" and (args.nodes is not None or args.known_tricks is not None):
        parser.error("--nodes and --known-tricks are for --level master")
    raw = json.loads(args.options)
    knows = ("play",) if args.level == "master" else tuple(args.knows.split(","))
    settings: dict[str, Any] = {} if args.nodes is None else {"budget": None, "nodes": args.nodes}
    run = (partial(master_boards, args.game, raw, seed=args.seed, settings=settings, known_tricks=args.known_tricks)
           if args.level == "master" else partial(boards, args.game, raw, seed=args.seed, settings={}, knows=knows))
    chunks = [list(range(k, args.boards, args.jobs)) for k in range(args.jobs)]
    by_board: dict[str, dict[int, float]] = {"bound": {}, args.level: {}}
    with ProcessPoolExecutor(args.jobs) as pool:
        for chunk, part in zip(chunks, pool.map(run, chunks)):
            for kind, margins in part.items():
                by_board[kind].update(zip(chunk, margins))
    bound, level = ([m[i] for i in sorted(m)] for m in (by_board["bound"], by_board[args.level]))
    print(json.dumps({"game": args.game, "options": raw, "seed": args.seed, "knows": list(knows),
                      "level": args.level, "nodes": args.nodes, "known_tricks": args.known_tricks,
                      **share(bound, level, args.level), "per_board": {"bound": bound, args.level: level}}))

if __name__ == "__main__":
    main()
