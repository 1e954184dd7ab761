"""The `master`'s Cinch calls: each candidate bid, pass or trump judged by the contract
`basic`'s auction, trump naming and exchange reach after it, that contract's play solved
double dummy once. A candidate's worth in a world is the score margin the solved points
give; knowing the deal, the master calls the best of them."""

from __future__ import annotations

import random

import pytest

from domain.bots import FAMILIES, auction_worlds, bidding, cinch_calls, solved_calls
from domain.bots.master import Master
from domain.cinch import doubledummy as cinch_dd
from domain.cinch.commands import Play
from domain.cinch.events import DealScored
from domain.cinch.options import side_table
from tests.unit.bots.test_bots_master_calls import decisions

PARTNERSHIP = [{}, {"low_point": "holder", "failure_scoring": "points_plus_bid"}]
INDIVIDUAL = {"mode": "individual"}


def _decision(raw: dict, seed: int, calls: int):
    """A Cinch deal after `calls` of `basic`'s decisions (fewer if the trump is named first)."""
    return decisions("cinch", raw, seed, calls, lambda state: state.phase in ("auction", "trump"))


def _perfect_play(game, state) -> DealScored:
    """The deal's end with every card the solver's best for the side that plays it."""
    while True:
        seat = state.deal.turn
        cards = cinch_dd.solve(state).cards
        card = max(cards, key=lambda c: cards[c])
        for event in game.decide(state, Play(seat=seat, card=card)):
            if isinstance(event, DealScored):
                return event
            state = game.evolve(state, event)


@pytest.mark.parametrize("raw", PARTNERSHIP, ids=["house", "holder_low"])
def test_a_partnership_call_is_worth_the_score_of_its_contract_played_perfectly(raw) -> None:
    """The one solve per contract, the points in play and the score formulas give exactly the
    score margin the solver's line, played through the real rules, scores."""
    family = FAMILIES["cinch"]
    checked = 0
    for seed in range(8):
        game, state, seat = _decision(raw, seed, seed % 5)
        view = game.view(state, seat)
        candidates = [{"seat": str(seat), **a}
                      for a in bidding.candidates("cinch", view, family.basic(view, random.Random(0)))]
        commands = [game.parse_action(c) for c in candidates]
        row = cinch_calls.world_values(game, state, commands, seat, random.Random(seed), lambda solve: solve())
        assert set(row) == set(range(len(candidates)))
        for i, command in enumerate(commands):
            reached = auction_worlds.first_lead(game, family, state, command, random.Random(seed))
            assert reached is not None                 # a stuck dealer bids: no deal is thrown in
            scored = _perfect_play(game, reached)
            assert sum(scored.points.values()) == cinch_calls.points_in_play(reached)
            score = scored.score
            mine = side_table(reached.options)[seat]
            other = next(s for s in score if s != mine)
            assert row[i] == score[mine] - score[other], (seed, candidates[i])
            checked += 1
    assert checked >= 16


def test_individual_cinch_calls_stay_the_expert_s() -> None:
    """Individually the solver can only set the three others against the bidder: the calls
    are the expert's playouts."""
    master = Master(FAMILIES["cinch"], "cinch", budget=None, worlds=4, options=INDIVIDUAL)
    game, state, seat = _decision(INDIVIDUAL, 1, 1)
    master(game.view(state, seat), random.Random(7))
    assert not solved_calls.solved("cinch", state.options) and master.last_way is None
    assert master.last_worlds == 4                 # the expert's search ran


@pytest.mark.parametrize(("raw", "calls"), [({}, 0), ({}, 2), ({}, 9), (PARTNERSHIP[1], 1)],
                         ids=["first_bid", "later_bid", "trump", "holder_low"])
def test_the_master_solves_cinch_calls_from_its_view(raw, calls) -> None:
    master = Master(FAMILIES["cinch"], "cinch", budget=None, worlds=4, options=raw)
    for seed in range(12):
        game, state, seat = _decision(raw, seed, calls)
        view = game.view(state, seat)
        if len(bidding.candidates("cinch", view, FAMILIES["cinch"].basic(view, random.Random(0)))) < 2:
            continue
        action = master(view, random.Random(7))
        assert master.last_way == "solved" and master.last_worlds == 4 and len(master.last_rows) == 4
        assert {k: v for k, v in action.items() if k != "seat"} in view.legal
        if calls == 9:
            assert state.phase == "trump"
        return
    pytest.fail("no decision with two candidates")


class Seeing(Master):
    """Test-only: every world of the auction is the true deal."""

    truth = None

    def auction_world(self, table, rng, options):
        return self.truth


@pytest.mark.parametrize("raw", PARTNERSHIP, ids=["house", "holder_low"])
def test_knowing_the_deal_the_master_calls_what_the_solved_contracts_score_best(raw) -> None:
    seeing = Seeing(FAMILIES["cinch"], "cinch", budget=None, worlds=3, options=raw)
    chosen = 0
    for seed in range(10):
        game, state, seat = _decision(raw, 60 + seed, seed % 5)
        view = game.view(state, seat)
        candidates = bidding.candidates("cinch", view, FAMILIES["cinch"].basic(view, random.Random(seed)))
        if len(candidates) < 2:
            continue
        seeing.truth = state
        action = seeing(view, random.Random(seed))
        assert seeing.last_way == "solved" and seeing.last_worlds == 3
        row = seeing.last_rows[0]
        assert row[candidates.index({k: v for k, v in action.items() if k != "seat"})] == max(row.values())
        chosen += 1
    assert chosen >= 4
