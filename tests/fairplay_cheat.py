"""A planted cheat for the fair-play measurements: a bot that sees its partner's hand.

Test-only, and the only policy in the project that reads the state: it is handed the true
deal through `truth` (the arena's `before` hook), never through a view. It plays as an honest
double-dummy searcher does — worlds drawn from its own view, each solved, the card with the
best mean — except that in each world it puts its partner's real hand in place (swapping
cards with whoever held them in the world). `peek=False` gives the honest twin: the same
search on the same worlds without the peek, so the two differ only by what they know.
`sees_all=True` is the crudest cheat: it solves the true deal and plays its best card.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import msgspec

from domain.bots import FAMILIES, unwrap
from domain.bots.sampling import Unsatisfiable
from domain.cards import SEAT_INDEX, partner_of
from domain.games import load


class WorldSearcher:
    def __init__(self, game_name: str, options: Any, truth: Callable[[], Any], *, peek: bool, worlds: int = 6,
                 sees_all: bool = False) -> None:
        self.game, self.family = load(game_name), FAMILIES[game_name]
        self.options, self.truth, self.peek, self.worlds, self.sees_all = options, truth, peek, worlds, sees_all

    def __call__(self, view: Any, rng: random.Random) -> dict[str, Any] | None:
        table, _ = unwrap(view)
        if table is None:
            return None
        if not self.family.searchable(table):
            return self.family.basic(table, rng)
        plays = [a for a in table.legal if a.get("action") == "play"]
        cards = sorted({a["card"] for a in plays})
        if len(cards) <= 1:
            return self.family.basic(table, rng)
        totals = dict.fromkeys(cards, 0.0)
        drawn = 0
        if self.sees_all:
            totals = {c: float(v) for c, v in self.game.double_dummy.solve(self.truth()).cards.items() if c in totals}
            drawn = self.worlds
        for _ in range(self.worlds * 3):
            if drawn == self.worlds:
                break
            try:
                world = self.family.determinize(table, rng, options=self.options)
            except Unsatisfiable:
                continue
            if self.peek:
                world = with_partner_hand(world, self.truth(), table.seat)
            values = self.game.double_dummy.solve(world).cards
            for card in cards:
                totals[card] += values[card]
            drawn += 1
        if drawn == 0:
            return self.family.basic(table, rng)
        best = max(cards, key=lambda c: (totals[c], c))
        chosen = [a for a in plays if a["card"] == best]
        action = next((a for a in chosen if a.get("belote") is True), chosen[0])
        return {"seat": str(table.seat), **{k: v for k, v in action.items() if k != "seat"}}


def with_partner_hand(world: Any, truth: Any, seat: Any) -> Any:
    """`world` with the partner's real hand: each of his real cards that the world gave to
    an opponent is swapped with one of the cards the world wrongly gave the partner."""
    partner = SEAT_INDEX[partner_of(seat)]
    real = list(truth.deal.hands[partner])
    hands = [list(h) for h in world.deal.hands]
    wrong = [c for c in hands[partner] if c not in real]
    for card in real:
        if card in hands[partner]:
            continue
        holder = next(i for i, h in enumerate(hands) if card in h)
        swap = wrong.pop()
        hands[holder][hands[holder].index(card)] = swap
        hands[partner][hands[partner].index(swap)] = card
    return msgspec.structs.replace(world, deal=msgspec.structs.replace(world.deal, hands=tuple(map(tuple, hands))))
