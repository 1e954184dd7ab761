"""The master's reading of the play (`domain/bots/inference.py`): a world is checked against
the other seats' cards so far, `basic` being the model of a player. The true deal of a
deal played by `basic` agrees with every card; the worlds a seat could believe do not all
agree; a player who is not `basic` is read as one; and the master weighs each world by
`doubt` to the power of its misses."""

from __future__ import annotations

import random
from typing import ClassVar

import pytest

from domain.bots import FAMILIES, policy_for
from domain.bots.master import Master
from domain.bots.sampling import Unsatisfiable
from domain.cards import SEATS
from domain.game import StartDeal
from domain.games import load
from tests.unit.bots.test_bots_hidden import CONFIGS, IDS


def _played_to(game_name: str, raw: dict, seed: int, tricks_done: int, level: str = "basic"):
    """A state of the card play, after `tricks_done` tricks, where the seat in turn has a
    choice; every card before it played by `level` (the auction by `basic`)."""
    game = load(game_name)
    rng = random.Random(seed)
    basic, other = policy_for(game_name, "basic"), policy_for(game_name, level)
    deck = list(game.deck)
    rng.shuffle(deck)
    state, _ = game.apply(game.initial(game.parse_options(raw)), StartDeal(dealer=SEATS[seed % 4], deck=tuple(deck)))
    while game.status(state).phase == "in_deal":
        views = [game.view(state, s) for s in game.status(state).to_act]
        view = next(v for v in views if v.turn == v.seat) if views[0].phase == "play" else None
        if view is not None and len(view.tricks) >= tricks_done and len({a.get("card") for a in view.legal}) > 1:
            return game, state, view.seat
        actions = [(other if v.phase == "play" else basic)(v, rng) for v in sorted(views, key=lambda v: v.turn == v.seat)]
        state, _ = game.apply(state, game.parse_action(next(a for a in actions if a is not None)))
    return None


def _worlds(game, game_name: str, raw: dict, view, count: int) -> list:
    rng, out = random.Random(1), []
    for _ in range(count):
        try:
            out.append(FAMILIES[game_name].determinize(view, rng, game.parse_options(raw)))
        except Unsatisfiable:   # a view the sampler could not deal this time
            continue
    return out


@pytest.mark.parametrize("game_name,raw", CONFIGS, ids=IDS)
def test_the_true_deal_agrees_with_basic_players_and_some_worlds_do_not(game_name, raw) -> None:
    family = FAMILIES[game_name]
    sampled = []
    for seed in range(1, 5):
        found = _played_to(game_name, raw, seed, 3)
        if found is None:
            continue
        game, state, me = found
        view = game.view(state, me)
        misses = family.inference(view)
        assert misses(state) == 0
        sampled += [misses(w) for w in _worlds(game, game_name, raw, view, 20)]
    assert sampled and max(sampled) > 0 and min(sampled) == 0


@pytest.mark.parametrize("game_name,raw", [CONFIGS[0], CONFIGS[4], CONFIGS[6]], ids=[IDS[0], IDS[4], IDS[6]])
def test_a_player_who_is_not_basic_is_read_as_one(game_name, raw) -> None:
    """Random cards at every seat: the true deal misses some of them."""
    read = []
    for seed in range(1, 5):
        found = _played_to(game_name, raw, seed, 4, level="random")
        if found is not None:
            game, state, me = found
            read.append(FAMILIES[game_name].inference(game.view(state, me))(state))
    assert read and max(read) > 0


class Listed(Master):
    """Test-only: the worlds given, in turn."""

    listed: ClassVar[list] = []
    dealt = 0

    def play_world(self, table, rng, options):
        self.dealt += 1
        return self.listed[(self.dealt - 1) % len(self.listed)]


@pytest.mark.parametrize("doubt", [1.0, 0.5])
def test_the_master_weighs_each_world_by_doubt_to_its_misses(doubt) -> None:
    game_name, raw = CONFIGS[0]
    game, state, me = _played_to(game_name, raw, 2, 3)
    view = game.view(state, me)
    family = FAMILIES[game_name]
    misses = family.inference(view)
    wrong = next(w for w in _worlds(game, game_name, raw, view, 40) if misses(w) > 0)
    master = Listed(family, game_name, budget=None, worlds=2, options=raw, doubt=doubt)
    master.listed = [state, wrong]
    candidates = master.held_plays(view)
    totals = master.solve_worlds(view, candidates, random.Random(0), master._options(view, None), 0.0)
    worth = [game.double_dummy.margins(w) for w in (state, wrong)]
    weight = doubt ** misses(wrong)
    assert totals == [worth[0][c["card"]] + weight * worth[1][c["card"]] for c in candidates]
