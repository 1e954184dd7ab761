"""The `expert` level: determinized Monte Carlo search (perfect-information Monte Carlo),
for the calls as for the cards.

For a decision the expert deals the cards it cannot see in many ways consistent with its
view — in the play `family.determinize` (voids shown, the auction's known cards, played
cards, the sizes of hands, kitty, stock and buried piles), before it `auction_worlds`
(its own hand where the dealing put it, the calls replayed, worlds where the others'
calls make sense preferred). In each world it plays every candidate and then the rest of
the deal with `basic` at all four seats — the rest of the auction too — through the REAL
rules (`GameRules.decide/evolve`), scoring the deal's margin for its side. Every candidate
is tried in the same worlds (common random numbers: a fair comparison with few worlds).

The budget goes where it counts: a decision with one sensible candidate is not searched,
and after `prune_at` worlds only the best `keep` candidates go on, so the remaining
worlds separate the close ones. The search stops at `worlds` worlds or at the time
`budget`, whichever comes first. For a fixed seed the decision depends only on the view
(it never sees the state) — unless the time budget cuts the search short, which only a
loaded machine does. Discards and the robbing of the pack follow `basic`.
"""

from __future__ import annotations

import logging
import math
import random
import time
from types import ModuleType
from typing import Any

import domain.bots.auction_worlds as auction_worlds
import domain.bots.bidding as bidding
from domain.bots.sampling import Unsatisfiable
from domain.bots.seat_view import unwrap
from domain.games import load

log = logging.getLogger(__name__)

DEFAULT_BUDGET = 0.12      # seconds per decision
DEFAULT_WORLDS = 48
MAX_STEPS = 400

class Expert:
    """A policy object: `expert(view, rng) -> action | None`; see the module docstring.
    `options`: the match's raw options, when the view does not carry them (a game view
    rather than a `MatchView`)."""

    def __init__(self, family: ModuleType, game_name: str, *, budget: float | None = DEFAULT_BUDGET,
                 worlds: int = DEFAULT_WORLDS, min_worlds: int = 1, prune_at: int = 8, keep: int = 3, sure: float = 3.0,
                 bid: bool = True, bid_confidence: float = 2.5, anchor: str | None = None, options: dict[str, Any] | None = None) -> None:
        self.family, self.game = family, load(game_name)
        self.budget, self.worlds, self.min_worlds = budget, worlds, min_worlds
        self.prune_at, self.keep, self.sure, self.bid = prune_at, keep, sure, bid
        self.raw_options = options
        self.bid_confidence = bid_confidence
        self.anchor = anchor
        self.last_rows: list[dict[int, float]] = []
        self.last_worlds = 0

    def __call__(self, view: Any, rng: random.Random) -> dict[str, Any] | None:
        table, raw = unwrap(view)
        self.last_worlds, self.last_rows = 0, []
        if table is None:
            return None
        basic = self.family.basic(table, rng)
        if basic is None:
            return basic
        options = self._options(table, raw)
        seat = str(table.seat)
        searching_play = self.family.searchable(table)
        if searching_play:
            candidates = self._plays(table)
        elif self.bid and table.phase in ("auction", "trump") and table.turn == table.seat:
            candidates = [{"seat": seat, **a} for a in self.calls(table, basic)]
        else:
            return basic
        if len(candidates) <= 1:
            return basic
        try:
            totals = (self.search(table, candidates, rng, lambda r: self.play_world(table, r, options))
                      if searching_play else self.search_calls(table, candidates, rng, options))
        except Exception:              # a view the sampler cannot handle: never stall a turn
            log.exception("expert search failed; playing the basic action")
            return basic
        if self.last_worlds == 0:
            return basic
        if searching_play:
            return candidates[max(range(len(candidates)), key=lambda i: (totals[i], candidates[i] == basic))]
        return self.choose_call(table, candidates, totals, basic)

    def choose_call(self, table: Any, candidates: list[dict[str, Any]], totals: list[float],
                    basic: dict[str, Any]) -> dict[str, Any]:
        """A call is worth more than a card and its worlds are fewer: the anchor (passing, or
        basic's call where passing is not allowed) stands unless a call beats it clearly,
        world by world (`last_rows`); of those that do, the best."""
        anchor = self._anchor(candidates, basic)
        if anchor is None:
            return candidates[max(range(len(candidates)), key=lambda i: (totals[i], candidates[i] == basic))]
        z = self.call_confidence(table)
        clear = [i for i in range(len(candidates)) if i != anchor and totals[i] > totals[anchor]
                 and _beats([r[i] - r[anchor] for r in self.last_rows if i in r and anchor in r], z)]
        return candidates[max(clear, key=lambda i: totals[i])] if clear else candidates[anchor]

    def search_calls(self, table: Any, candidates: list[dict[str, Any]], rng: random.Random,
                     options: Any) -> list[float]:
        """Each candidate call's total over its worlds, each played out (`search`)."""
        return self.search(table, candidates, rng, lambda r: self.auction_world(table, r, options))

    def call_confidence(self, table: Any) -> float:
        """The standard errors by which a call must beat the anchor, world by world."""
        return bidding.confidence(self.game.name, table, self.bid_confidence)

    def calls(self, table: Any, basic: dict[str, Any]) -> list[dict[str, Any]]:
        """The auction actions (without "seat") this level simulates."""
        return bidding.candidates(self.game.name, table, basic)

    def _anchor(self, candidates: list[dict[str, Any]], basic: dict[str, Any]) -> int | None:
        if self.anchor == "pass":
            passing = next((i for i, c in enumerate(candidates) if c.get("action") == "pass"), None)
            if passing is not None:
                return passing
        return candidates.index(basic) if basic in candidates else None

    def _options(self, table: Any, raw: dict[str, Any] | None) -> Any:
        if getattr(table, "options", None) is not None:
            return table.options
        return self.game.parse_options(raw if raw is not None else (self.raw_options or {}))

    def _plays(self, table: Any) -> list[dict[str, Any]]:
        seat = str(table.seat)
        return [{"seat": seat, **a} for a in self.family.play_candidates(table)]

    # --- worlds: what the bound replaces with the true deal ------------------------------------

    def play_world(self, table: Any, rng: random.Random, options: Any) -> Any:
        return self.family.determinize(table, rng, options=options)

    def auction_world(self, table: Any, rng: random.Random, options: Any) -> Any:
        basic = self.family.basic
        return auction_worlds.world(self.game, options, table, rng, explain=lambda v, s: basic(v, rng))

    # --- the search ----------------------------------------------------------------------------

    def search(self, table: Any, candidates: list[dict[str, Any]], rng: random.Random, sample: Any,
               budget: float | None = None) -> list[float]:
        """Totals per candidate over the worlds played (-inf for one dropped early), in `budget`
        seconds (the level's own by default). After `prune_at` worlds only the best `keep` go on;
        the search ends early once the leader's lead over the runner-up, world by world, is
        `sure` standard errors or nothing at all."""
        budget = self.budget if budget is None else budget
        deadline = None if budget is None else time.perf_counter() + budget
        commands = [self.game.parse_action(a) for a in candidates]
        rows: list[dict[int, float]] = []
        alive = list(range(len(candidates)))
        seat = table.seat
        failures = 0
        while len(rows) < self.worlds and failures < 3 * self.worlds:
            worlds = len(rows)
            if deadline is not None and worlds >= self.min_worlds and time.perf_counter() > deadline:
                break
            try:
                state = sample(rng)
            except Unsatisfiable:
                failures += 1
                continue
            values: dict[int, float] = {}
            for i in alive:
                if deadline is not None and worlds >= self.min_worlds and time.perf_counter() > deadline:
                    break                            # a world half played is dropped
                values[i] = self.playout(state, commands[i], seat, rng)
            if len(values) < len(alive):
                break
            rows.append(values)
            if len(rows) >= self.prune_at:
                if len(alive) > self.keep:
                    alive = sorted(alive, key=lambda i: -sum(r[i] for r in rows))[:self.keep]
                if _settled(rows, alive, self.sure):
                    break
        self.last_worlds = len(rows)
        self.last_rows = rows
        return [sum(r[i] for r in rows) if i in alive else float("-inf") for i in range(len(candidates))]

    def playout(self, state: Any, command: Any, seat: Any, rng: random.Random) -> float:
        """Play `command`, then the deal to its end with `basic` everywhere; the margin."""
        game, family = self.game, self.family
        for _ in range(MAX_STEPS):
            for event in game.decide(state, command):
                value = family.deal_value(event, seat)
                if value is not None:
                    return value
                state = game.evolve(state, event)
            actor = family.to_act(state)
            if actor is not None:
                command = family.rollout_command(state, actor, rng)
                continue
            command = auction_worlds.basic_command(game, family, state, rng)
            if command is None:
                return 0.0                           # thrown in
        return 0.0


def _settled(rows: list[dict[int, float]], alive: list[int], sure: float) -> bool:
    """Whether more worlds would hardly change the choice: the leader beats the runner-up
    by `sure` standard errors of their paired difference, or they never differed."""
    if len(alive) < 2:
        return True
    ranked = sorted(alive, key=lambda i: -sum(r[i] for r in rows))
    diffs = [r[ranked[0]] - r[ranked[1]] for r in rows]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0.0:
        return True
    return mean > sure * math.sqrt(var / n)


def _beats(diffs: list[float], z: float) -> bool:
    """Whether the paired differences are above zero by `z` standard errors."""
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > 0 and (var == 0.0 or mean > z * math.sqrt(var / n))
