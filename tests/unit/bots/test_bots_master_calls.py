"""The `master`'s Belote calls: each candidate judged by the contract `basic`'s auction
reaches after it, that contract's play solved double dummy. A candidate's worth in a world
is the score the solver's card points give the contract reached; knowing the deal, the
master calls the best of them."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from domain.belote import doubledummy as belote_dd
from domain.belote.ranking import deal_points
from domain.belote.scoring import contract_outcome
from domain.belote.state import OTHER_TEAM
from domain.bots import FAMILIES, auction_worlds, belote_calls, bidding, solved_calls
from domain.bots.master import Master
from domain.cards import TEAM, Seat
from domain.game import StartDeal
from domain.games import load

COINCHES = [{"variant": "coinche"}, {"variant": "coinche", "rules": "official"},
            {"variant": "coinche", "contracts": "suits_ta_sa"}]
IDS = ["house", "official", "ta_sa"]
TAKE_OR_PASS = [{"variant": "classic"}, {"variant": "classic", "rules": "official"}, {"variant": "sans_atout"}]


def decisions(game_name: str, raw: dict, seed: int, count: int, going_on: Callable[[Any], bool]):
    """A deal after `count` of `basic`'s decisions, fewer if the next one would leave the part
    of the deal `going_on` names: (game, state, the seat to act)."""
    game = load(game_name)
    rng = random.Random(seed)
    deck = list(game.deck)
    rng.shuffle(deck)
    state, _ = game.apply(game.initial(game.parse_options(raw)), StartDeal(dealer=Seat.N, deck=tuple(deck)))
    for _ in range(count):
        seat = state.deal.turn
        action = FAMILIES[game_name].basic(game.view(state, seat), rng)
        following, _ = game.apply(state, game.parse_action({"seat": str(seat), **action}))
        if not going_on(following):
            break
        state = following
    return game, state, state.deal.turn


def _auction(raw: dict, seed: int, calls: int):
    """A Belote deal after `calls` of `basic`'s calls (fewer if its auction ends first)."""
    return decisions("belote", raw, seed, calls, lambda state: state.deal.phase == "auction")


def _true_world_row(raw: dict, seed: int):
    """A deal after `seed % 4` of `basic`'s calls, the expert's candidates there, and their
    worth with the true deal as the one world."""
    basic = FAMILIES["belote"].basic
    game, state, seat = _auction(raw, seed, seed % 4)
    view = game.view(state, seat)
    candidates = [{"seat": str(seat), **a} for a in bidding.candidates("belote", view, basic(view, random.Random(0)))]
    commands = [game.parse_action(c) for c in candidates]
    row = belote_calls.world_values(game, state, commands, seat, random.Random(seed), lambda solve: solve())
    return game, state, seat, candidates, commands, row


def _exact_margin(state, seat, points) -> int:
    """The seat's side's score margin under the contract reached, every card played perfectly
    (`points`: the solver's card points of the contract's trump)."""
    score = contract_outcome(state, *points).score
    return score[TEAM[seat]] - score[OTHER_TEAM[TEAM[seat]]]


@pytest.mark.parametrize("raw", COINCHES, ids=IDS)
def test_a_coinche_call_is_worth_the_solved_score_of_the_contract_it_reaches(raw) -> None:
    """Coinched and failed contracts score no card points: their worth is exact. A made plain
    contract is scored with the points the probes bound, so it is made, and within the margins
    its least and most points give."""
    checked = {"exact": 0, "bounded": 0, "thrown in": 0}
    for seed in range(6):
        game, state, seat, candidates, commands, row = _true_world_row(raw, seed)
        solved = {}
        assert set(row) == set(range(len(candidates)))
        for i, command in enumerate(commands):
            reached = auction_worlds.first_lead(game, FAMILIES["belote"], state, command, random.Random(seed))
            if reached is None:
                assert row[i] == 0.0
                checked["thrown in"] += 1
                continue
            contract = reached.deal.contract
            if contract.trump not in solved:            # the play is the same whoever bid it, how high
                solved[contract.trump] = belote_dd.card_points(reached)
            P, capot = solved[contract.trump]
            outcome = contract_outcome(reached, P, capot)
            if outcome.result != "made" or contract.multiplier > 1:
                assert row[i] == _exact_margin(reached, seat, (P, capot)), (seed, candidates[i], contract)
                checked["exact"] += 1
            else:
                taker, other = contract.team, OTHER_TEAM[contract.team]
                total = P[taker] + P[other] if capot is None else 162
                least = belote_calls.needed(reached)
                margins = []
                for p in (least, total):
                    score = contract_outcome(reached, {taker: p, other: total - p}, None).score
                    margins.append(score[TEAM[seat]] - score[OTHER_TEAM[TEAM[seat]]])
                assert min(margins) <= row[i] <= max(margins)
                checked["bounded"] += 1
    assert checked["exact"] and checked["bounded"]


def test_the_least_points_needed_make_the_contract_and_one_fewer_fails_it() -> None:
    for seed in range(12):
        game, state, seat = _auction(COINCHES[seed % 3], seed, 3)
        view = game.view(state, seat)
        for action in bidding.candidates("belote", view, FAMILIES["belote"].basic(view, random.Random(0))):
            reached = auction_worlds.first_lead(game, FAMILIES["belote"], state,
                                                    game.parse_action({"seat": str(seat), **action}), random.Random(1))
            if reached is None or reached.deal.contract.value == "capot":
                continue
            taker = reached.deal.contract.team
            other = OTHER_TEAM[taker]
            least = belote_calls.needed(reached)
            total = 162 if reached.deal.contract.trump is not None or reached.options.official else 130
            assert contract_outcome(reached, {taker: least, other: total - least}, None).result == "made"
            assert contract_outcome(reached, {taker: least - 1, other: total - least + 1}, None).result != "made"


class Seeing(Master):
    """Test-only: every world of the auction is the true deal."""

    truth = None

    def auction_world(self, table, rng, options):
        return self.truth


@pytest.mark.parametrize("raw", COINCHES[:2], ids=IDS[:2])
def test_knowing_the_deal_the_master_calls_what_the_solved_contracts_score_best(raw) -> None:
    """The same world three times: no spread, so every call better than `basic`'s beats it
    clearly, and the best is called."""
    seeing = Seeing(FAMILIES["belote"], "belote", budget=None, worlds=3, options=raw)
    for seed in range(6):
        game, state, seat = _auction(raw, 20 + seed, seed % 3)
        seeing.truth = state
        action = seeing(game.view(state, seat), random.Random(seed))
        assert seeing.last_way == "solved" and seeing.last_worlds == 3
        row = seeing.last_rows[0]
        view = game.view(state, seat)
        candidates = bidding.candidates("belote", view, FAMILIES["belote"].basic(view, random.Random(seed)))
        if len(candidates) < 2:
            continue
        chosen = candidates.index({k: v for k, v in action.items() if k != "seat"})
        assert row[chosen] == max(row.values()), (seed, candidates, row)


@pytest.mark.parametrize(("raw", "seed"), [(COINCHES[0], 7), (TAKE_OR_PASS[0], 7), (TAKE_OR_PASS[1], 7),
                                            (TAKE_OR_PASS[2], 0)], ids=["coinche", "classic", "official", "sans_atout"])
def test_the_master_solves_belote_calls_from_its_view(raw, seed) -> None:
    """(Sans Atout's only call to weigh is `basic`'s take against passing: a deal it takes.)"""
    master = Master(FAMILIES["belote"], "belote", budget=None, worlds=4, options=raw)
    game, state, seat = _auction(raw, seed, 1)
    view = game.view(state, seat)
    action = master(view, random.Random(7))
    assert master.last_way == "solved" and master.last_worlds == 4 and len(master.last_rows) == 4
    assert {k: v for k, v in action.items() if k != "seat"} in view.legal


def test_the_master_leaves_five_hundred_calls_to_the_expert() -> None:
    game = load("five_hundred")
    deck = list(game.deck)
    random.Random(3).shuffle(deck)
    state, _ = game.apply(game.initial(game.parse_options({})), StartDeal(dealer=Seat.N, deck=tuple(deck)))
    master = Master(FAMILIES["five_hundred"], "five_hundred", budget=None, worlds=4)
    master(game.view(state, state.deal.turn), random.Random(3))
    assert not solved_calls.solved("five_hundred", state.options) and master.last_way is None


@pytest.mark.parametrize("raw", TAKE_OR_PASS, ids=["classic", "official", "sans_atout"])
def test_a_take_made_is_worth_its_solved_points_within_what_the_refining_probes_leave(raw) -> None:
    """A classic or Sans Atout contract made scores its card points: the threshold's probe and
    `REFINE` halvings leave them within an eighth of the made range, so the worth is the
    exact solved margin within the margin that much of the points makes; failed contracts'
    worth is exact."""
    refine = belote_calls.REFINE[raw["variant"]]
    checked = {"made": 0, "failed": 0}
    for seed in range(12):
        game, state, seat, candidates, commands, row = _true_world_row(raw, seed)
        for i, command in enumerate(commands):
            reached = auction_worlds.first_lead(game, FAMILIES["belote"], state, command, random.Random(seed))
            if reached is None:
                continue
            P, capot = belote_dd.card_points(reached)
            taker, other = reached.deal.contract.team, OTHER_TEAM[reached.deal.contract.team]
            total, _ = deal_points(reached.deal.contract.trump, reached.options.official)
            if contract_outcome(reached, P, capot).result != "made":
                # A failed contract's score needs no points but a capot's, which is not probed.
                assert row[i] == _exact_margin(reached, seat, ({taker: 0, other: total}, None)), (seed, candidates[i])
                checked["failed"] += 1
                continue
            # A capot is not probed either: it is scored as the top of the made points.
            points = total if capot is not None else P[taker]
            exact = _exact_margin(reached, seat, ({taker: points, other: total - points}, None))
            width = -(-(total + 1 - belote_calls.needed(reached) + 1) // 2 ** refine)
            assert abs(row[i] - exact) <= 2 * width, (seed, candidates[i], row[i], exact, width)
            checked["made"] += 1
    assert checked["made"] and checked["failed"]


@pytest.mark.parametrize("raw", COINCHES, ids=IDS)
def test_a_probe_says_what_the_exact_card_points_say(raw) -> None:
    """`reaches(state, team, points)` is `card_points(state)[team] >= points`, at the points
    themselves, one either side, and a capot's total."""
    for seed in range(4):
        game, state, seat = _auction(raw, 40 + seed, 8)
        while state.deal.phase == "auction":
            action = FAMILIES["belote"].basic(game.view(state, state.deal.turn), random.Random(seed))
            state, _ = game.apply(state, game.parse_action({"seat": str(state.deal.turn), **action}))
        if state.deal.phase != "play":
            continue
        P, _ = belote_dd.card_points(state)
        for team in ("NS", "EW"):
            for points in (P[team] - 1, P[team], P[team] + 1, 252):
                assert belote_dd.reaches(state, team, points) == (P[team] >= points), (seed, team, points, P)


def test_dropping_a_sans_atout_take_keeps_its_own_bar_when_the_calls_are_solved() -> None:
    """Solved worlds' defenders are perfect, so passing looks better in them than at the
    table: the master passes over `basic`'s Sans Atout take only by `DROP_CONFIDENCE`, where
    classic's calls need `CONFIDENCE`."""
    for raw, seed, bar in ((TAKE_OR_PASS[2], 0, bidding.DROP_CONFIDENCE), (TAKE_OR_PASS[0], 7, solved_calls.CONFIDENCE)):
        master = Master(FAMILIES["belote"], "belote", budget=None, worlds=4, options=raw)
        game, state, seat = _auction(raw, seed, 1)
        view = game.view(state, seat)
        master(view, random.Random(seed))
        assert master.last_way == "solved" and master.call_confidence(view) == bar
