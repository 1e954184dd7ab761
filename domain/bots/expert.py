"""The `expert` level: determinized Monte Carlo search (perfect-information Monte Carlo).

For a card to play, the expert deals the cards it cannot see in many ways consistent with
its view (`family.determinize`: voids shown, the auction's known cards, played cards, the
sizes of hands, kitty, stock and buried piles), and in each such world plays every
candidate card and then the rest of the deal with the `basic` players of all four seats,
through the REAL rules (`GameRules.decide/evolve`), scoring the deal's margin for its side.
Every candidate is tried in the same worlds (common random numbers, so the comparison is
fair with few worlds), and the card with the best total wins.

The search stops at `worlds` worlds or at the time `budget`, whichever comes first; with
the default settings a decision stays well under 200 ms. For a fixed seed the decision
depends only on the view (it never sees the state) — unless the time budget cuts the
search short, which only a loaded machine does. Bidding, discards and the robbing of
the pack follow `basic` (their outcome needs whole-deal search, too slow for the budget).
"""

from __future__ import annotations

import logging
import random
import time
from types import ModuleType
from typing import Any

from domain.bots.sampling import Unsatisfiable
from domain.bots.seat_view import unwrap
from domain.games import load

log = logging.getLogger(__name__)

DEFAULT_BUDGET = 0.12      # seconds per decision
DEFAULT_WORLDS = 40
MAX_STEPS = 200


class Expert:
    """A policy object: `expert(view, rng) -> action | None`; see the module docstring."""

    def __init__(self, family: ModuleType, game_name: str, *, budget: float | None = DEFAULT_BUDGET,
                 worlds: int = DEFAULT_WORLDS, min_worlds: int = 4) -> None:
        self.family, self.game = family, load(game_name)
        self.budget, self.worlds, self.min_worlds = budget, worlds, min_worlds
        self.last_worlds = 0

    def __call__(self, view: Any, rng: random.Random) -> dict[str, Any] | None:
        table, raw_options = unwrap(view)
        if table is None:
            return None
        basic = self.family.basic(table, rng)
        if basic is None or not self.family.searchable(table):
            return basic
        candidates = self._candidates(table)
        if len(candidates) <= 1:
            return basic
        extra = {}
        if raw_options is not None and self.game.name == "five_hundred":
            extra["options"] = self.game.parse_options(raw_options)
        try:
            totals = self.search(table, candidates, rng, extra)
        except Exception:              # a view the sampler cannot handle: never stall a turn
            log.exception("expert search failed; playing the basic card")
            return basic
        best = max(range(len(candidates)), key=lambda i: (totals[i], candidates[i] == basic))
        return candidates[best]

    def _candidates(self, table: Any) -> list[dict[str, Any]]:
        seat = str(table.seat)
        out = []
        for action in table.legal:
            if action.get("action") != "play" or action.get("belote") is False:
                continue
            out.append({"seat": seat, **action})
        return out

    def search(self, table: Any, candidates: list[dict[str, Any]], rng: random.Random,
               extra: dict[str, Any]) -> list[float]:
        deadline = None if self.budget is None else time.perf_counter() + self.budget
        totals = [0.0] * len(candidates)
        commands = [self.family.command(a) for a in candidates]
        seat = table.seat
        worlds = failures = 0
        while worlds < self.worlds and failures < 20:
            if deadline is not None and worlds >= self.min_worlds and time.perf_counter() > deadline:
                break
            try:
                state = self.family.determinize(table, rng, **extra)
            except Unsatisfiable:
                failures += 1
                continue
            for i, command in enumerate(commands):
                totals[i] += self.rollout(state, command, seat, rng)
            worlds += 1
        self.last_worlds = worlds
        return totals

    def rollout(self, state: Any, command: Any, seat: Any, rng: random.Random) -> float:
        """Play `command`, then the deal to its end with `basic` everywhere; the margin."""
        game, family = self.game, self.family
        for _ in range(MAX_STEPS):
            for event in game.decide(state, command):
                value = family.deal_value(event, seat)
                if value is not None:
                    return value
                state = game.evolve(state, event)
            actor = family.to_act(state)
            if actor is None:
                return 0.0
            command = family.rollout_command(state, actor, rng)
        return 0.0
