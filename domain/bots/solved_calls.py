"""The master's calls: each candidate call judged by the contract it leads to, that
contract's play SOLVED double dummy in worlds dealt from the seat's view — GIB's and BEN's
Monte-Carlo bidding.

A world is the expert's (`auction_worlds`: the seat's own hand, the calls so far replayed,
worlds whose calls `basic` explains preferred). In it each candidate is called, and the rest
of the deal up to the first lead is `basic`'s at every seat (`auction_worlds.first_lead`): the auction the
table will really give, and Cinch's trump naming, discards and robbing; four passes are a
thrown-in deal, worth 0. Each game prices the contracts reached in its own module
(`GAMES`: `world_values`), as few solves as its score needs — Belote probes thresholds,
Cinch solves each contract's points once.

The choice is the expert's rule: `basic`'s call stands unless another beats it world by
world by `CONFIDENCE` standard errors; of those that do, the best mean. With no world solved
within half the budget, the expert's search chooses in the time left.

Belote's and partnership Cinch's calls are solved; Five Hundred's and individual Cinch's are
left to the expert's search.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

import domain.doubledummy as dd
from domain.bots import belote_calls, cinch_calls
from domain.bots.sampling import Unsatisfiable

T = TypeVar("T")
Within = Callable[[Callable[[], T]], T]
"""How a game's `world_values` calls the solver: `within(lambda: solve(...))` holds each
solve to the decision's budget (`dd.OutOfNodes` past it)."""

CONFIDENCE = 2.5            # standard errors by which a call must beat `basic`'s, world by world
FIRST_WORLD_SHARE = 0.5     # of the budget: past it unsolved, the calls are the expert's search
GAMES: dict[str, ModuleType] = {"belote": belote_calls, "cinch": cinch_calls}
"""The module that prices each game's contracts from their first lead (`world_values`), and
says whether its calls are solved (`solved`)."""


def solved(game_name: str, options: Any) -> bool:
    """Whether this game's calls are judged by solved worlds."""
    module = GAMES.get(game_name)
    return module is not None and module.solved(options)


def search(master: Any, table: Any, candidates: list[dict[str, Any]], rng: random.Random, options: Any,
           begun: float) -> tuple[list[dict[int, float]], int]:
    """The worlds' rows (each candidate's margin) solved in the master's budget, and how many
    solves were stopped. The first world must be solved within `FIRST_WORLD_SHARE` of the
    budget; a world whose solve runs past the time left is dropped, and none is begun that
    the slowest so far would end past the budget."""
    game = master.game
    module = GAMES[game.name]
    commands = [game.parse_action(c) for c in candidates]
    rows: list[dict[int, float]] = []
    failures, slowest, stopped = 0, 0.0, 0
    while len(rows) < master.play_worlds and failures < 3 * master.play_worlds:
        started = time.perf_counter()
        if master.budget is not None and rows and started + slowest > begun + master.budget:
            break
        try:
            world = master.auction_world(table, rng, options)
        except Unsatisfiable:
            failures += 1
            continue
        share = 1.0 if rows else FIRST_WORLD_SHARE
        try:
            row = module.world_values(game, world, commands, table.seat, rng,
                                      lambda solve, share=share: master.solve_within(solve, begun, share))
        except dd.OutOfNodes:
            stopped += 1
            break
        slowest = max(slowest, time.perf_counter() - started)
        rows.append(row)
    return rows, stopped


__all__ = ["CONFIDENCE", "GAMES", "Within", "search", "solved"]
