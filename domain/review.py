"""The review of a finished deal: what each card was worth knowing every card, and knowing
only what its player could see at that moment.

Two values per card played, both the double-dummy result of the deal for the player's side
(`GameRules.double_dummy`, in the game's own units):

- the *true* value: the real deal solved after the card, every later card played perfectly.
  `cost` (best − value) is what the card gave away against the cards as they lay — what a
  bridge hand viewer shows;
- the *fair* value: the same, averaged over worlds consistent with the player's view when he
  played (the bots' own sampler, `family.determinize`: voids shown, the auction's evidence,
  the cards seen). `fair_cost` judges him on what he could know; `accuracy` is built from it
  (docs/review.md).

The fair-play signal of a card is how much better it did in the true deal than in the worlds
its player could imagine, each measured against the mean of his legal cards:
`(value − mean true) − (fair value − mean fair)`. Whoever cannot see a hidden card chooses
independently of where the hidden cards lie, so his signal is zero on average (up to how far
the sampler is from the real posterior, which the null measured on bot seats absorbs);
play that only knowing hidden cards explains pushes it up.

Pure and deterministic: the worlds come from a `random.Random` seeded by the caller.
"""

from __future__ import annotations

import random
from statistics import fmean
from typing import Any, Literal, Mapping, Sequence

import msgspec

from domain.bots import FAMILIES
from domain.bots.sampling import Unsatisfiable
from domain.cards import Seat
from domain.game import GameRules, StartDeal

WORLDS = 8             # fair-baseline worlds per card with a choice (bench/review.py: a Belote deal in ~2 s of a core)
TRIES = 3              # samplings tried per world wanted (a view may admit few)


class CardReview(msgspec.Struct, frozen=True):
    """One card played: its true and fair values for the player's side."""

    index: int                     # the action's index in the deal's `actions`
    trick: int                     # 0-based
    seat: str
    card: str
    choices: int                   # distinct legal cards at that moment
    value: int                     # double-dummy result after this card (true deal)
    best: int                      # the best legal card's
    cost: int                      # best − value
    fair_value: float | None = None    # None: a forced card, or no world could be drawn
    fair_best: float | None = None
    fair_cost: float | None = None
    fair_spread: float | None = None   # fair best − fair worst: what the choice could cost
    signal: float | None = None
    worlds: int = 0


class DealReview(msgspec.Struct, frozen=True):
    """A finished deal's review. `contract_table`: contract label -> declaring side -> its
    double-dummy result, from the hands as the play began (a bridge hand record's table);
    `par`: the double-dummy result at the first card, for `par_side`."""

    game: str
    unit: Literal["card_points", "tricks", "points", ""]   # "": no card was played
    contract_table: dict[str, dict[str, int]]
    par: int | None
    par_side: str | None
    cards: list[CardReview]
    accuracy: dict[str, float | None]


def review(game: GameRules, options: Any, dealer: str, deck: Sequence[str], actions: Sequence[Mapping[str, Any]],
           *, worlds: int = WORLDS, seed: int = 0) -> DealReview:
    """Replay the deal through the real rules and review each card played."""
    solver = game.double_dummy
    if solver is None:
        raise ValueError(f"{game.name} has no double-dummy solver")
    family = FAMILIES[game.name]
    rng = random.Random(seed)
    state, _ = game.apply(game.initial(options), StartDeal(dealer=Seat(dealer), deck=tuple(deck)))
    table: dict[str, dict[str, int]] = {}
    par: tuple[int, str] | None = None
    first: Any = None
    cards: list[CardReview] = []
    for index, action in enumerate(actions):
        command = game.parse_action(action)
        if action.get("action") == "play":
            if par is None:
                table = solver.contract_table(state)
                first = solver.solve(state)
                par = (first.value, first.side)
            trick = len(game.view(state, None).tricks)          # the tricks already taken
            cards.append(_card(game, family, solver, state, options, action, index, trick, rng, worlds))
        state, _ = game.apply(state, command)
    unit = first.unit if par is not None else ""
    return DealReview(game=game.name, unit=unit, contract_table=table,
                      par=None if par is None else par[0], par_side=None if par is None else par[1],
                      cards=cards, accuracy=accuracy(cards))


def _card(game: GameRules, family: Any, solver: Any, state: Any, options: Any, action: Mapping[str, Any],
          index: int, trick: int, rng: random.Random, worlds: int) -> CardReview:
    seat, card = str(action["seat"]), str(action["card"])
    true = solver.solve(state).cards
    best = max(true.values())
    value = true[card]
    fair = _fair(game, family, solver, state, options, seat, list(true), rng, worlds) if len(true) > 1 else None
    base = CardReview(index=index, trick=trick, seat=seat, card=card, choices=len(true), value=value,
                      best=best, cost=best - value)
    if fair is None:
        return base
    means, n = fair
    fair_best, fair_value = max(means.values()), means[card]
    signal = (value - fmean(true.values())) - (fair_value - fmean(means.values()))
    return msgspec.structs.replace(base, fair_value=round(fair_value, 3), fair_best=round(fair_best, 3),
                                   fair_cost=round(fair_best - fair_value, 3),
                                   fair_spread=round(fair_best - min(means.values()), 3),
                                   signal=round(signal, 3), worlds=n)


def _fair(game: GameRules, family: Any, solver: Any, state: Any, options: Any, seat: str, legal: list[str],
          rng: random.Random, worlds: int) -> tuple[dict[str, float], int] | None:
    """Each legal card's mean double-dummy value over worlds drawn from the seat's view."""
    view = game.view(state, Seat(seat))
    totals = dict.fromkeys(legal, 0.0)
    drawn = 0
    for _ in range(worlds * TRIES):
        if drawn == worlds:
            break
        try:
            world = family.determinize(view, rng, options=options)
        except Unsatisfiable:
            continue
        values = solver.solve(world).cards
        for card in legal:
            totals[card] += values[card]
        drawn += 1
    if drawn == 0:
        return None
    return {card: total / drawn for card, total in totals.items()}, drawn


def accuracy(cards: Sequence[CardReview]) -> dict[str, float | None]:
    """Per seat: 100 × (1 − Σ fair cost / Σ fair spread) over his cards whose choice could
    cost something in the worlds he could see; None when none could."""
    cost: dict[str, float] = {}
    spread: dict[str, float] = {}
    for c in cards:
        cost.setdefault(c.seat, 0.0)
        spread.setdefault(c.seat, 0.0)
        if c.fair_spread:
            cost[c.seat] += c.fair_cost or 0.0
            spread[c.seat] += c.fair_spread
    return {seat: (round(100.0 * (1.0 - cost[seat] / spread[seat]), 1) if spread[seat] > 0 else None)
            for seat in sorted(cost)}
