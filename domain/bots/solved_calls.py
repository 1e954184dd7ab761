"""The master's calls: each candidate call judged by the contract it leads to, that
contract's play SOLVED double dummy in worlds dealt from the seat's view — GIB's and BEN's
Monte-Carlo bidding.

A world is the expert's (`auction_worlds`: the seat's own hand, the calls so far replayed,
worlds whose calls `basic` explains preferred). In it each candidate is called, and the rest
of the deal up to the first lead is `basic`'s at every seat (`first_lead`): the auction the
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

import importlib
import random
import time
from types import ModuleType
from typing import Any, Callable, TypeVar

import domain.doubledummy as dd
from domain.bots.sampling import Unsatisfiable

T = TypeVar("T")
Within = Callable[[Callable[[], T]], T]
"""How a game's `world_values` calls the solver: `within(lambda: solve(...))` holds each
solve to the decision's budget (`dd.OutOfNodes` past it)."""

CONFIDENCE = 2.5            # standard errors by which a call must beat `basic`'s, world by world
FIRST_WORLD_SHARE = 0.5     # of the budget: past it unsolved, the calls are the expert's search
MAX_CALLS = 64              # decisions after the candidate before a rollout gives up (an auction has ~10)
GAMES = {"belote": "domain.bots.belote_calls", "cinch": "domain.bots.cinch_calls"}
"""The module that prices each game's contracts from their first lead (`world_values`), and
says whether its calls are solved (`solved`)."""


def _module(game_name: str) -> ModuleType | None:
    name = GAMES.get(game_name)
    return importlib.import_module(name) if name is not None else None


def solved(game_name: str, options: Any) -> bool:
    """Whether this game's calls are judged by solved worlds."""
    module = _module(game_name)
    return module is not None and module.solved(options)


def first_lead(game: Any, family: ModuleType, state: Any, command: Any, rng: random.Random) -> Any | None:
    """The state at the first lead after `command` and `basic`'s decisions at every seat
    whose turn it is (a House coinche out of turn left out, as in the expert's playouts);
    None when the deal ends first (thrown in)."""
    for _ in range(MAX_CALLS):
        for event in game.decide(state, command):
            state = game.evolve(state, event)
        if family.to_act(state) is not None:
            return state
        status = game.status(state)
        turn = state.deal.turn if state.deal is not None else None
        if status.phase != "in_deal" or turn is None or turn not in status.to_act:
            return None
        action = family.basic(game.view(state, turn), rng)
        if action is None:
            return None
        command = game.parse_action({"seat": str(turn), **action})
    return None


def search(master: Any, table: Any, candidates: list[dict[str, Any]], rng: random.Random, options: Any,
           begun: float) -> tuple[list[dict[int, float]], int]:
    """The worlds' rows (each candidate's margin) solved in the master's budget, and how many
    solves were stopped. The first world must be solved within `FIRST_WORLD_SHARE` of the
    budget; a world whose solve runs past the time left is dropped, and none is begun that
    the slowest so far would end past the budget."""
    game = master.game
    module = _module(game.name)
    assert module is not None
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


__all__ = ["CONFIDENCE", "GAMES", "Within", "first_lead", "search", "solved"]
