"""The `master` level: the play's worlds solved double dummy. Given the true deal as its one
world it plays a card the solver says is best; from its own view it solves worlds within
its budget and plays legal cards to the end of deals."""

from __future__ import annotations

import random

import pytest

from domain.bots import FAMILIES, policy_for
from domain.bots.arena import play_deal
from domain.bots.master import Master
from domain.cards import SEAT_INDEX, SEATS
from domain.five_hundred.state import SIDE_OF
from domain.game import StartDeal
from domain.games import load
from tests.unit.bots.test_bots_hidden import CONFIGS, IDS, _midplay


class Seeing(Master):
    """Test-only: every world is the true deal."""

    truth = None

    def play_world(self, table, rng, options):
        return self.truth


@pytest.mark.parametrize("game_name,raw", CONFIGS, ids=IDS)
def test_given_the_true_deal_the_master_plays_a_best_card(game_name, raw) -> None:
    """Best by the deal's score margin where the game gives one (a card with fewer points may
    tie the best: the contract fails or is made either way), else by the solver's value."""
    seeing = Seeing(FAMILIES[game_name], game_name, budget=None, worlds=1, options=raw)
    for seed, done in ((3, 0), (4, 2)):
        game, state, me = _midplay(game_name, raw, seed, done)
        seeing.truth = state
        solution = game.double_dummy.solve(state)
        action = seeing(game.view(state, me), random.Random(seed))
        assert seeing.last_worlds == 1
        worth = solution.cards if getattr(game.double_dummy, "margins", None) is None else game.double_dummy.margins(state)
        assert worth[action["card"]] == max(worth.values())


@pytest.mark.parametrize("game_name,raw", [CONFIGS[1], CONFIGS[5], CONFIGS[6]], ids=[IDS[1], IDS[5], IDS[6]])
def test_the_master_solves_worlds_from_its_view(game_name, raw) -> None:
    master = policy_for(game_name, "master", budget=None, worlds=3, options=raw)
    game, state, me = _midplay(game_name, raw, 5, 1)
    view = game.view(state, me)
    action = master(view, random.Random(5))
    assert master.last_worlds == 3 and len(master.last_rows) == 3
    assert {k: v for k, v in action.items() if k != "seat"} in view.legal


@pytest.mark.parametrize("game_name,raw", [CONFIGS[2], CONFIGS[4], CONFIGS[6]], ids=[IDS[2], IDS[4], IDS[6]])
def test_the_master_plays_whole_deals(game_name, raw) -> None:
    game = load(game_name)
    master = policy_for(game_name, "master", budget=None, worlds=2, options=raw)
    basic = policy_for(game_name, "basic")
    deck = list(game.deck)
    random.Random(9).shuffle(deck)
    seats = {s: (master if s in (SEATS[0], SEATS[2]) else basic) for s in SEATS}
    score = play_deal(game, game.parse_options(raw), SEATS[1], deck, seats, random.Random(9))
    assert score


def test_bot_master_is_a_seat_level() -> None:
    from services.matches.requests import seat_holder

    holder = seat_holder("E", "bot:master", None)
    assert holder is not None and holder.kind == "bot" and holder.level == "master"


@pytest.mark.parametrize("game_name,raw", [CONFIGS[1], CONFIGS[6]], ids=[IDS[1], IDS[6]])
def test_a_solve_past_the_budget_is_stopped_and_the_master_still_plays(game_name, raw, monkeypatch) -> None:
    """At a deal's first trick one solve can outlast the decision's time: it is stopped at
    the nodes an eighth of the budget allows, and the card is chosen by the expert's search
    (worlds played out by `basic`) in the time left; with worlds solved, they stand."""
    game, state, me = _midplay(game_name, raw, 6, 0)
    view = game.view(state, me)
    master = policy_for(game_name, "master", budget=0.15, worlds=8, options=raw)
    monkeypatch.setitem(Master.rates, game_name, 10.0)  # ten seconds a node: no node fits
    action = master(view, random.Random(6))
    assert master.last_way == "played out" and master.last_stopped == 1 and master.last_worlds >= 1
    assert {k: v for k, v in action.items() if k != "seat"} in view.legal
    auction = game.apply(game.initial(game.parse_options(raw)), StartDeal(dealer=SEATS[0], deck=tuple(game.deck)))[0]
    call = master(game.view(auction, game.status(auction).to_act[0]), random.Random(6))
    if game_name == "belote":                           # Coinche's calls are solved: stopped too
        assert master.last_way == "played out" and master.last_stopped == 1 and call is not None
    else:
        assert master.last_stopped == 0                 # each decision counts its own stops
    monkeypatch.setitem(Master.rates, game_name, 1e-12)  # every node fits: worlds are solved
    master = policy_for(game_name, "master", budget=30.0, worlds=2, options=raw)
    action = master(view, random.Random(6))
    assert master.last_way == "solved" and master.last_worlds == 2 and master.last_stopped == 0
    assert {k: v for k, v in action.items() if k != "seat"} in view.legal


def test_a_node_cap_cuts_the_search_the_same_way_every_time() -> None:
    """The hints' cap is a count of nodes, not a time: the same view gives the same worlds
    solved and the same card, whatever the process solved in between."""
    game_name, raw = CONFIGS[1]
    game, state, me = _midplay(game_name, raw, 6, 0)
    view = game.view(state, me)
    first = policy_for(game_name, "master", budget=None, worlds=1, nodes=10**12, options=raw)
    first(view, random.Random(6))
    assert first.last_worlds == 1 and first.last_stopped == 0
    cap = first.last_nodes + 1000                      # the first world, and hardly more
    runs = []
    for other in (None, 2, None):
        if other is not None:                        # something else solved in between
            _, other_state, _ = _midplay("five_hundred", {}, other, 0)
            load("five_hundred").double_dummy.solve(other_state)
        capped = policy_for(game_name, "master", budget=None, worlds=6, nodes=cap, options=raw)
        action = capped(view, random.Random(6))
        runs.append((action, capped.last_worlds, capped.last_rows, capped.last_nodes))
        assert 0 < capped.last_worlds < 6 and capped.last_stopped == 1 and capped.last_nodes <= cap
    assert runs[0] == runs[1] == runs[2]
    none = policy_for(game_name, "master", budget=None, worlds=6, nodes=1, options=raw)
    assert none(view, random.Random(6)) == FAMILIES[game_name].basic(view, random.Random(6))
    assert none.last_worlds == 0


@pytest.mark.parametrize("tricks_done", [0, 3, 7])
def test_a_five_hundred_cards_margin_is_the_score_its_perfect_line_ends_with(tricks_done) -> None:
    """`margins` turns each card's solved tricks into the deal's score margin (the contract's
    value won or lost, the defenders' ten a trick): the best card's is what the solver's line
    scores through the real rules, and a card with more tricks never has a smaller margin."""
    game = load("five_hundred")
    solver, family = game.double_dummy, FAMILIES["five_hundred"]
    for seed in (3, 4, 5):
        _, state, me = _midplay("five_hundred", {}, seed, tricks_done)
        margins, tricks = solver.margins(state), solver.solve(state).cards
        for a in tricks:
            for b in tricks:
                if tricks[a] > tricks[b]:
                    assert margins[a] >= margins[b]
        best, side = max(margins.values()), SIDE_OF[SEAT_INDEX[me]]
        scored = None
        while scored is None:             # each seat plays to the best margin for its side
            seat = state.deal.turn
            worth = []                    # (margin for `me`'s side, the state after, or None)
            for action in (a for a in game.view(state, seat).legal if a.get("action") == "play"):
                after, end = state, None
                for event in game.decide(state, game.parse_action({"seat": str(seat), **action})):
                    end = family.deal_value(event, me)
                    if end is not None:
                        break
                    after = game.evolve(after, event)
                if end is None:
                    m = max(solver.margins(after).values())
                    end = m if SIDE_OF[SEAT_INDEX[after.deal.turn]] == side else -m
                    worth.append((end, after))
                else:
                    worth.append((end, None))
            pick = max if SIDE_OF[SEAT_INDEX[seat]] == side else min
            value, state = pick(worth, key=lambda w: (w[0], w[1] is None))
            if state is None:
                scored = value
        assert scored == best


def test_a_belote_world_scores_the_combinations_the_table_compared() -> None:
    """Past the first trick a sampled world knows only the combinations shown: its margins
    count those the comparison kept, as the deal's score will, and belote for its holder."""
    from domain.belote.scoring import declared_bonuses

    raw = {"variant": "classic", "combinations": True}
    for seed in range(40):
        game, state, me = _midplay("belote", raw, seed, 2)
        if state.deal.combination_team is not None:
            break
    else:
        raise AssertionError("no deal with a combination that counts")
    world = FAMILIES["belote"].determinize(game.view(state, me), random.Random(seed))
    team = state.deal.contract.team
    assert declared_bonuses(world, team)[1] == declared_bonuses(state, team)[1] == \
        {state.deal.combination_team: state.deal.combination_points,
         {"NS": "EW", "EW": "NS"}[state.deal.combination_team]: 0}
