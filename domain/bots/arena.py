"""Bots playing whole deals against each other with the real rules, in memory: what the
duplicate duel (`atout bots duel`), the strength benchmark and the tests use.

Each seat is asked with its own view only (`GameRules.view(state, seat)`), exactly as the
worker does; a seat listed out of turn (a House coinche) is asked before the seat in turn.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Callable, Mapping, Sequence

from domain.cards import SEATS, Seat
from domain.game import GameRules, StartDeal

Policy = Callable[[Any, random.Random], "dict[str, Any] | None"]


def play(game: GameRules, options: Any, dealer: Seat, deck: Sequence[str], policies: Mapping[Seat, Policy],
         rng: random.Random, max_actions: int = 600, on_decision: Callable[[Seat, float], None] | None = None,
         before: Callable[[Any], None] | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """Play one deal from `deck`; return the final state and every action taken, in order.
    `before(state)` is called before each decision (the bench's bound reads the truth there)."""
    state, _ = game.apply(game.initial(options), StartDeal(dealer=dealer, deck=tuple(deck)))
    actions: list[dict[str, Any]] = []
    for _ in range(max_actions):
        status = game.status(state)
        if status.phase != "in_deal":
            return state, actions
        if before is not None:
            before(state)
        action = None
        views = {seat: game.view(state, seat) for seat in status.to_act}
        order = sorted(status.to_act, key=lambda s: views[s].turn == s)
        for seat in order:
            started = time.perf_counter()
            action = policies[seat](views[seat], rng)
            if on_decision is not None and action is not None:
                on_decision(seat, time.perf_counter() - started)
            if action is not None:
                break
        if action is None:
            raise AssertionError(f"nobody acts although {status.to_act} may")
        actions.append(action)
        state, _ = game.apply(state, game.parse_action(action))
    raise AssertionError("the deal did not end")


def play_deal(game: GameRules, options: Any, dealer: Seat, deck: Sequence[str],
              policies: Mapping[Seat, Policy], rng: random.Random, max_actions: int = 600,
              on_decision: Callable[[Seat, float], None] | None = None) -> dict[str, int]:
    """Play one deal from `deck`; return what it adds to each side's score."""
    state, _ = play(game, options, dealer, deck, policies, rng, max_actions, on_decision)
    return dict(game.deal_summary(state)["score"])


def margin(score: Mapping[str, int], side: str) -> float:
    """`side`'s lead: over the other side, or (a seat for itself) over the others' average."""
    if side in ("NS", "EW"):
        other = "EW" if side == "NS" else "NS"
        return float(score.get(side, 0) - score.get(other, 0))
    others = [v for k, v in score.items() if k != side]
    return score.get(side, 0) - sum(others) / len(others)


def seatings(game: GameRules, options: Any) -> list[tuple[str, frozenset[Seat]]]:
    """How a board is replayed: each side (or, each seat for itself, each seat) once as A."""
    sides = game.sides(options)
    if set(sides) == {"NS", "EW"}:
        return [("NS", frozenset({Seat.N, Seat.S})), ("EW", frozenset({Seat.E, Seat.W}))]
    return [(str(s), frozenset({s})) for s in SEATS]


def board_margins(game: GameRules, options: Any, board: int, seed: int, a: Policy, b: Policy,
                  before: Callable[[Any], None] | None = None,
                  after: Callable[[frozenset[Seat], Any], None] | None = None) -> list[float]:
    """Board `board` of a duel: one deck and dealer played once per seating of A (the two
    partnerships swapped; in a game of four players for themselves, A in each seat in turn,
    B in the other three). A's margin in each. `after(seats of A, final state)` is told each
    seating's deal (the bench counts what A lost in it)."""
    deck, dealer = board_deal(game, board, seed)
    out = []
    for name, seats_of_a in seatings(game, options):
        seats = {s: (a if s in seats_of_a else b) for s in SEATS}
        state, _ = play(game, options, dealer, deck, seats, board_rng(board, seed, name), before=before)
        if after is not None:
            after(seats_of_a, state)
        out.append(margin(game.deal_summary(state)["score"], name))
    return out


def board_deal(game: GameRules, board: int, seed: int) -> tuple[list[str], Seat]:
    """The deck and dealer of board `board`."""
    deck = list(game.deck)
    random.Random(f"{seed}/{board}").shuffle(deck)
    return deck, SEATS[board % 4]


def board_rng(board: int, seed: int, seating: str) -> random.Random:
    """The bots' random numbers in one seating of a board."""
    return random.Random(f"{seed}/{board}/{seating}")


def duplicate_board(game: GameRules, options: Any, board: int, seed: int, a: Policy, b: Policy
                    ) -> tuple[float, float]:
    """A partnership board: (A's margin as NS, A's margin as EW)."""
    as_ns, as_ew = board_margins(game, options, board, seed, a, b)
    return as_ns, as_ew


def summarize(margins: Sequence[float]) -> dict[str, Any]:
    """Per board: A's average margin over its two seatings; the mean with a 95% interval."""
    n = len(margins)
    mean = sum(margins) / n if n else 0.0
    var = sum((m - mean) ** 2 for m in margins) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n > 1 else float("inf")
    return {"boards": n, "a_won": sum(1 for m in margins if m > 0), "b_won": sum(1 for m in margins if m < 0),
            "tied": sum(1 for m in margins if m == 0), "margin_per_deal": round(mean, 2),
            "ci95": [round(mean - half, 2), round(mean + half, 2)]}
