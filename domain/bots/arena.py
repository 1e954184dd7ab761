"""Bots playing whole deals against each other with the real rules, in memory: what the
duplicate duel (`atout bots duel`), the strength benchmark and the tests use.

Each seat is asked with its own view only (`GameRules.view(state, seat)`), exactly as the
worker does; a seat listed out of turn (a House coinche) is asked before the seat in turn.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Mapping, Sequence

from domain.cards import SEATS, Seat
from domain.game import GameRules, StartDeal

Policy = Callable[[Any, random.Random], "dict[str, Any] | None"]


def play_deal(game: GameRules, options: Any, dealer: Seat, deck: Sequence[str],
              policies: Mapping[Seat, Policy], rng: random.Random, max_actions: int = 600,
              on_decision: Callable[[Seat, float], None] | None = None) -> dict[str, int]:
    """Play one deal from `deck`; return what it adds to each side's score."""
    import time

    state, _ = game.apply(game.initial(options), StartDeal(dealer=dealer, deck=tuple(deck)))
    for _ in range(max_actions):
        status = game.status(state)
        if status.phase != "in_deal":
            return dict(game.deal_summary(state)["score"])
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
        state, _ = game.apply(state, game.parse_action(action))
    raise AssertionError("the deal did not end")


def margin(score: Mapping[str, int], side: str) -> int:
    other = "EW" if side == "NS" else "NS"
    return score.get(side, 0) - score.get(other, 0)


def duplicate_board(game: GameRules, options: Any, board: int, seed: int, a: Policy, b: Policy
                    ) -> tuple[float, float]:
    """Board `board` of a duel: one deal played twice with the partnerships swapped, from
    the same deck and dealer. Returns (A's margin as NS, A's margin as EW)."""
    deal_rng = random.Random(f"{seed}/{board}")
    deck = list(game.deck)
    deal_rng.shuffle(deck)
    dealer = SEATS[board % 4]
    out = []
    for a_side in ("NS", "EW"):
        seats = {s: (a if (s in (Seat.N, Seat.S)) == (a_side == "NS") else b) for s in SEATS}
        rng = random.Random(f"{seed}/{board}/{a_side}")
        score = play_deal(game, options, dealer, deck, seats, rng)
        out.append(float(margin(score, a_side)))
    return out[0], out[1]


def summarize(margins: Sequence[float]) -> dict[str, Any]:
    """Per board: A's average margin over its two seatings; the mean with a 95% interval."""
    n = len(margins)
    mean = sum(margins) / n if n else 0.0
    var = sum((m - mean) ** 2 for m in margins) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n > 1 else float("inf")
    return {"boards": n, "a_won": sum(1 for m in margins if m > 0), "b_won": sum(1 for m in margins if m < 0),
            "tied": sum(1 for m in margins if m == 0), "margin_per_deal": round(mean, 2),
            "ci95": [round(mean - half, 2), round(mean + half, 2)]}
