"""Dealing the cards a seat cannot see, consistently with what it has seen.

A determinization gives every hidden card a holder: another seat (up to the number of
cards the view says it holds) or a face-down pile (the kitty, a discard, buried cards).
Each holder may refuse cards — a seat that showed void in a suit gets none of it, buried
Cinch cards are never trumps — and some cards have a known holder (the turn-up went to the
taker, a shown combination is still in its owner's hand). The sampler deals the most
constrained cards first to a random holder with room left, weighted by that room, so every
consistent deal is possible; a dead end (rare) simply deals again.
"""

from __future__ import annotations

import random
from typing import Callable, Hashable, Iterable, Mapping

Holder = Hashable


class Unsatisfiable(Exception):
    """No consistent deal found (a view contradicting itself, or bad luck many times)."""


def deal_hidden(cards: Iterable[str], room: Mapping[Holder, int], rng: random.Random,
                accepts: Callable[[Holder, str], bool] = lambda holder, card: True,
                known: Mapping[str, Holder] | None = None, attempts: int = 30,
                weight: Callable[[Holder, str], float] | None = None) -> dict[Holder, list[str]]:
    """Give each of `cards` a holder with `room`; `known` cards go to their holder first.
    `weight(holder, card)` (default 1) leans the deal toward what the auction suggests —
    a bidder holds its suit — without ever breaking a constraint."""
    known = known or {}
    pool = [c for c in cards if c not in known]
    holders = list(room)
    for attempt in range(attempts):
        left = dict(room)
        out: dict[Holder, list[str]] = {h: [] for h in holders}
        for card, holder in known.items():
            out[holder].append(card)
            left[holder] -= 1
        relaxed = attempt >= attempts - 3          # last tries: drop the soft refusals
        options = {c: [h for h in holders if relaxed or accepts(h, c)] for c in pool}
        order = sorted(pool, key=lambda c: (len(options[c]), rng.random()))
        ok = True
        for card in order:
            fits = [h for h in options[card] if left[h] > 0]
            if not fits:
                ok = False
                break
            weights = [left[h] * (weight(h, card) if weight else 1.0) for h in fits]
            holder = rng.choices(fits, weights)[0]
            out[holder].append(card)
            left[holder] -= 1
        if ok and all(v == 0 for v in left.values()):
            return out
    raise Unsatisfiable("no consistent deal of the hidden cards")
