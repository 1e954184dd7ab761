"""The `master` level: the expert's sampled worlds, each SOLVED double dummy instead of
played out by `basic` — what bridge's GIB and Skat's Kermit do.

In the play every world is a deal consistent with the seat's view (`family.determinize`:
voids, the auction's evidence, kitty and discards), exactly as the expert deals it; the
game's double-dummy solver (`GameRules.double_dummy.solve`) then gives the result of the
deal, for the seat's side, after each legal card — one solve prices every candidate, so
there is no pruning and no playout noise. The card with the best mean over the worlds is
played (ties: `basic`'s card, then the first). The mean is of the deal's score margin where
the solver gives it (`margins`: Belote, Five Hundred), else of the game's own unit (Cinch
points): one world's best card is the same by either, but a mean is not — a contract made in
every world beats more points on average with a chance of failing it, as the score has it.

Five Hundred's conventions (`conventions.py`) hold the candidates: no bid of 8 or more
without the hand's own valuation behind it, no-trumps only with the Joker, the contractor's
unsupporting partner leads a trump first, no overtaking a misère bidder's winning card.

Belote's and Cinch's calls are solved too (`solved_calls.py`): each candidate is called in
each world, the rest of the deal to the first lead is `basic`'s, and the contract reached is
worth its score with what the solver says its play takes (`belote_calls.py`,
`cinch_calls.py`; partnership Cinch only). Five Hundred's and individual Cinch's calls are
the expert's: its auction search (worlds replayed on the calls, each call played out by
`basic`). The kitty, the discards and the robbing are `basic`'s.

Budget: worlds are solved until `worlds` (`play_worlds`, when smaller, caps the solved
worlds alone, the play's and the solved calls': the hints' setting) or until the time `budget`
is spent. Each solve is given the nodes the time left allows, at the rate this process
measured for the game (`domain.doubledummy.node_budget`), and one that would run past it is stopped and its world
dropped; a world is not begun when the slowest solve so far would end past the budget.
A mean over a handful of worlds is a guess: the first world must be solved within an
eighth of the budget (`MIN_WORLDS`), or the card is chosen the expert's way (its worlds
played out by `basic`) in the time left — at a Belote or Five Hundred deal's first trick,
where one solve of the whole deal can take the whole budget. `nodes` caps the nodes a
decision's solves visit in all (the hints' setting, no time budget): unlike time, a count
cuts the same way on any machine, since a position costs the same nodes whatever the
process solved before. When no world was solved, played out or dealt, `basic`'s card is
played.
"""

from __future__ import annotations

import logging
import random
import time
from types import ModuleType
from typing import Any, Callable, TypeVar

import domain.doubledummy as dd
from domain.bots import bidding, conventions, solved_calls
from domain.bots.expert import Expert
from domain.bots.sampling import Unsatisfiable
from domain.bots.seat_view import unwrap

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_BUDGET = 0.15       # seconds per decision
DEFAULT_WORLDS = 48
MIN_WORLDS = 8              # the first world within budget / MIN_WORLDS, else the expert's search
RATE_PRIOR = 150e-9         # seconds per node before this process has measured its own
RATE_SAMPLE = 20_000        # a solve of fewer nodes is mostly the driver's cost: not a sample


class Master(Expert):
    """A policy object: `master(view, rng) -> action | None`; see the module docstring.
    `last_worlds` is how many worlds the last decision searched, `last_phase` its phase,
    `last_way` how it chose ("solved", "played out": the expert's search, "basic"), and
    `last_stopped` how many of its solves were stopped (the bench reports them)."""

    rates: dict[str, float] = {}
    """Seconds per node of the process's last long solves, per game (a Five Hundred node
    costs about twice a Belote one): how a time left becomes nodes."""

    def __init__(self, family: ModuleType, game_name: str, *, budget: float | None = DEFAULT_BUDGET,
                 worlds: int = DEFAULT_WORLDS, play_worlds: int | None = None,
                 nodes: int | None = None, **settings: Any) -> None:
        super().__init__(family, game_name, budget=budget, worlds=worlds, **settings)
        self.nodes = nodes
        self.last_way: str | None = None
        self.last_stopped = self.last_nodes = 0
        self.play_worlds = worlds if play_worlds is None else min(worlds, play_worlds)
        if self.game.double_dummy is None:
            raise ValueError(f"no double-dummy solver for {game_name!r}")
        self.last_phase: str | None = None

    def __call__(self, view: Any, rng: random.Random) -> dict[str, Any] | None:
        table, raw = unwrap(view)
        self.last_phase = None if table is None else str(table.phase)
        self.last_stopped = self.last_nodes = 0
        if table is None or not self.family.searchable(table):
            self.last_way = None               # the calls: the expert's
            return super().__call__(view, rng)
        begun = time.perf_counter()
        self.last_worlds, self.last_rows, self.last_way = 0, [], "basic"
        basic = self.family.basic(table, rng)
        candidates = self.held_plays(table)
        if basic is None or not candidates:
            return basic
        fallback = basic if basic in candidates else candidates[0]     # the conventions hold it too
        if len(candidates) == 1:
            return fallback
        options = self._options(table, raw)
        try:
            totals = self.solve_worlds(table, candidates, rng, options, begun)
            self.last_way = "solved"
            if self.last_worlds == 0 and self.budget is not None:
                totals = self._played_out(table, candidates, rng, options, begun)
        except Exception:              # a view the sampler or solver cannot handle: never stall a turn
            log.exception("master search failed; playing the basic action")
            self.last_way = "basic"
            return fallback
        if self.last_worlds == 0:
            self.last_way = "basic"
            return fallback
        return candidates[max(range(len(candidates)), key=lambda i: (totals[i], candidates[i] == basic, -i))]

    def search_calls(self, table: Any, candidates: list[dict[str, Any]], rng: random.Random,
                     options: Any) -> list[float]:
        """Belote's and Cinch's calls judged by solved worlds (`solved_calls.py`), the others by
        the expert's search — and those too, in the time left, when no world was solved."""
        if not solved_calls.solved(self.game.name, options):
            return super().search_calls(table, candidates, rng, options)
        begun = time.perf_counter()
        self.last_way = "solved"
        self.last_rows, self.last_stopped = solved_calls.search(self, table, candidates, rng, options, begun)
        self.last_worlds = len(self.last_rows)
        if self.last_worlds or self.budget is None:
            return [sum(r[i] for r in self.last_rows) for i in range(len(candidates))]
        self.last_way = "played out"
        return self.search(table, candidates, rng, lambda r: self.auction_world(table, r, options),
                           budget=max(0.0, begun + self.budget - time.perf_counter()))

    def call_confidence(self, table: Any) -> float:
        """Solved worlds' margins are exact, so a call beats `basic`'s by fewer standard
        errors than a playout's — but dropping a Sans Atout take keeps its own, higher bar."""
        if self.last_way == "solved":
            return bidding.confidence(self.game.name, table, solved_calls.CONFIDENCE)
        return super().call_confidence(table)

    def _played_out(self, table: Any, candidates: list[dict[str, Any]], rng: random.Random, options: Any,
                    begun: float) -> list[float]:
        """The expert's search (each world played out by `basic`) in what is left of the budget."""
        assert self.budget is not None
        self.last_way = "played out"
        return self.search(table, candidates, rng, lambda r: self.play_world(table, r, options),
                           budget=max(0.0, begun + self.budget - time.perf_counter()))

    def play_world(self, table: Any, rng: random.Random, options: Any) -> Any:
        if self.game.name == "five_hundred":
            return self.family.determinize(table, rng, options=options, conventions_read=True)
        return super().play_world(table, rng, options)

    def calls(self, table: Any, basic: dict[str, Any]) -> list[dict[str, Any]]:
        """The expert's candidate calls the conventions allow (`conventions.py`)."""
        calls = super().calls(table, basic)
        if self.game.name != "five_hundred":
            return calls
        kept = conventions.keep_calls(table, calls, basic)
        return kept or calls[:1]

    def held_plays(self, table: Any) -> list[dict[str, Any]]:
        """The legal cards the conventions allow (`conventions.py`): in Five Hundred the
        partner's first lead in trumps, no overtaking a misère bidder who holds the trick."""
        plays = self._plays(table)
        if self.game.name != "five_hundred":
            return plays
        cards = list(dict.fromkeys(p["card"] for p in plays))
        allowed = conventions.first_lead_trumps(table, cards)
        allowed = conventions.under_misere(table, allowed, self.family.hint_table(table, allowed)[0])
        return [p for p in plays if p["card"] in allowed]

    def solve_worlds(self, table: Any, candidates: list[dict[str, Any]], rng: random.Random,
                     options: Any, begun: float) -> list[float]:
        """Each candidate's total over the worlds solved in the budget."""
        solver = self.game.double_dummy
        cards = [c["card"] for c in candidates]
        totals = [0.0] * len(candidates)
        solved = failures = 0
        slowest = 0.0
        self.last_stopped = self.last_nodes = 0
        while solved < self.play_worlds and failures < 3 * self.play_worlds:
            started = time.perf_counter()
            if self.budget is not None and solved and started + slowest > begun + self.budget:
                break                  # the next solve would likely end past the budget
            try:
                state = self.play_world(table, rng, options)
            except Unsatisfiable:
                failures += 1
                continue
            try:
                values = self._solve(solver, state, begun, first=not solved)
            except dd.OutOfNodes:
                self.last_stopped += 1
                break                  # the time is spent: what was solved stands
            slowest = max(slowest, time.perf_counter() - started)
            row = {i: float(values[c]) for i, c in enumerate(cards)}
            for i, v in row.items():
                totals[i] += v
            self.last_rows.append(row)
            solved += 1
        self.last_worlds = solved
        return totals

    def _solve(self, solver: Any, state: Any, begun: float, first: bool) -> dict[str, int]:
        """One world's values; the first world within an eighth of the budget."""
        return self.solve_within(lambda: _values(solver, state), begun, 1 / MIN_WORLDS if first else 1.0)

    def solve_within(self, solve: Callable[[], T], begun: float, share: float = 1.0) -> T:
        """`solve()` within the nodes the time left of `share` of the budget allows and what is
        left of the decision's `nodes` (no limit without either): `dd.OutOfNodes` past them."""
        limit = None
        if self.budget is not None:
            end = begun + self.budget * share
            limit = int((end - time.perf_counter()) / Master.rates.get(self.game.name, RATE_PRIOR))
        if self.nodes is not None:
            limit = min(limit if limit is not None else self.nodes, self.nodes - self.last_nodes)
        if limit is None:
            return solve()
        with dd.node_budget(limit):        # holds the process's one solve: the count is ours
            started, before = time.perf_counter(), dd.nodes_visited()
            try:
                out = solve()
            finally:
                used = dd.nodes_visited() - before
                self.last_nodes += used
        if used >= RATE_SAMPLE:
            # A sample counts at most twice the rate: the kernel's first load or a collection
            # inside a solve must not make the next solves' budgets a tenth of what they are.
            rate = Master.rates.get(self.game.name, RATE_PRIOR)
            sample = min(2 * rate, (time.perf_counter() - started) / used)
            Master.rates[self.game.name] = 0.7 * rate + 0.3 * sample
        return out


def _values(solver: Any, state: Any) -> dict[str, int]:
    """Each legal card's worth in one solved world: the deal's score margin where the game
    gives it (`margins`: a contract made or failed weighs as the score weighs it), else the
    solver's value in the game's unit."""
    margins = getattr(solver, "margins", None)
    return margins(state) if margins is not None else solver.solve(state).cards


__all__ = ["DEFAULT_BUDGET", "DEFAULT_WORLDS", "MIN_WORLDS", "Master"]
