"""The review of a deal (domain/review.py) on deals played by bots through the real rules.

For one deal of each game: one review entry per card played, in order; each card's value
is the solver's value of the position after it, never above the best, whose value is the
position's own; a forced card has no fair figures; the fair figures are consistent (the
cost within the spread); accuracy within 0..100; the same seed gives the same review; the
contract table is filled. And a player who sees every card leaves a clearly positive
fair-play signal where honest players do not.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain import review
from domain.bots import arena, policy_for
from domain.cards import SEATS, TEAM, Seat
from domain.game import StartDeal
from domain.games import load
from tests.fairplay_cheat import WorldSearcher

GAMES = [("belote", {"variant": "classic"}), ("belote", {"variant": "coinche", "rules": "official"}),
         ("cinch", {}), ("cinch", {"mode": "individual"}), ("five_hundred", {})]


def played(name: str, raw: dict[str, Any], board: int) -> tuple[Any, Any, Seat, list[str], list[dict[str, Any]]]:
    game = load(name)
    options = game.parse_options(raw)
    basic = policy_for(name, "basic")
    for attempt in range(board, board + 40):        # the first deal that is not thrown in
        deck, dealer = arena.board_deal(game, attempt, 3)
        _, actions = arena.play(game, options, dealer, deck, {s: basic for s in SEATS}, random.Random(attempt))
        if any(a["action"] == "play" for a in actions):
            return game, options, dealer, deck, actions
    raise AssertionError("every deal was thrown in")


@pytest.mark.parametrize("name,raw", GAMES, ids=[f"{n}-{r}" for n, r in GAMES])
def test_each_card_is_valued_against_the_position_it_was_played_in(name: str, raw: dict[str, Any]) -> None:
    game, options, dealer, deck, actions = played(name, raw, 0)
    got = review.review(game, options, str(dealer), deck, actions, worlds=3, seed=7)
    plays = [(i, a) for i, a in enumerate(actions) if a["action"] == "play"]
    assert [(c.index, c.seat, c.card) for c in got.cards] == [(i, a["seat"], a["card"]) for i, a in plays]

    state, _ = game.apply(game.initial(options), StartDeal(dealer=dealer, deck=tuple(deck)))
    by_index = {c.index: c for c in got.cards}
    for i, action in enumerate(actions):
        if i in by_index:
            card, solution = by_index[i], game.double_dummy.solve(state)
            assert card.best == solution.value == max(solution.cards.values())
            assert card.value == solution.cards[card.card] and card.cost == card.best - card.value >= 0
            assert card.choices == len(solution.cards)
            if card.choices == 1:
                assert card.fair_value is None and card.signal is None
            elif card.fair_value is not None:
                assert 0 <= card.fair_cost <= card.fair_spread and 1 <= card.worlds <= 3
        state, _ = game.apply(state, game.parse_action(action))
    assert got.unit in ("card_points", "tricks", "points")
    assert all(a is None or 0.0 <= a <= 100.0 for a in got.accuracy.values())
    assert got.par == got.cards[0].best and got.par_side is not None
    assert got.contract_table and all(row for row in got.contract_table.values())
    assert review.review(game, options, str(dealer), deck, actions, worlds=3, seed=7) == got


def test_a_player_who_sees_every_card_leaves_a_signal_his_honest_opponents_do_not() -> None:
    """Four Belote deals: North-South play the true deal's best card (they see every hand),
    East-West the honest search from their own view. The cheats' mean signal stands well
    above zero; the honest side's does not (bench/fairplay.py measures the subtler cheat,
    seeing only the partner's hand, over many deals: docs/review.md)."""
    game = load("belote")
    options = game.parse_options({"variant": "classic"})
    now: list[Any] = [None]
    seats = {s: WorldSearcher("belote", options, lambda: now[0], peek=False, worlds=3, sees_all=TEAM[s] == "NS")
             for s in SEATS}
    sums = {"NS": [0, 0.0], "EW": [0, 0.0]}
    for board in range(4):
        deck, dealer = arena.board_deal(game, board, 11)
        _, actions = arena.play(game, options, dealer, deck, seats, random.Random(board),
                                before=lambda s: now.__setitem__(0, s))
        for card in review.review(game, options, str(dealer), deck, actions, worlds=6, seed=board).cards:
            if card.signal is not None:
                assert card.cost == 0 or TEAM[card.seat] == "EW"       # the cheats never lose a point
                sums[TEAM[card.seat]][0] += 1
                sums[TEAM[card.seat]][1] += card.signal
    cheat, honest = sums["NS"][1] / sums["NS"][0], sums["EW"][1] / sums["EW"][0]
    assert cheat > 2.0 and cheat > honest + 2.0, sums
