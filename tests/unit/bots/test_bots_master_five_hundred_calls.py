"""The `master`'s Five Hundred calls: each candidate bid or pass judged by the contract
`basic`'s auction and kitty reach after it, that contract's play probed double dummy: the
probes tell whether the solver makes the contract, a slam, a misère, and the contract is
worth its score as often as the master makes such contracts in play."""

from __future__ import annotations

import random

from domain.bots import FAMILIES, auction_worlds, five_hundred_calls, solved_calls
from domain.bots.master import Master
from domain.cards import SEATS
from domain.five_hundred.doubledummy import value
from domain.five_hundred.scoring import score_deal
from tests.unit.bots.test_bots_master_calls import decisions

FAMILY = FAMILIES["five_hundred"]


def _auction(seed: int, calls: int):
    """A Five Hundred deal after `calls` of `basic`'s calls (fewer if its auction ends first)."""
    return decisions("five_hundred", {}, seed, calls, lambda state: state.phase == "auction")


def _candidates(master: Master, game, state, seat, seed: int) -> list[dict]:
    view = game.view(state, seat)
    return [{"seat": str(seat), **a} for a in master.calls(view, FAMILY.basic(view, random.Random(seed)))]


def _exact_margin(state, seat, tricks: int) -> int:
    """`seat`'s side's score margin when the contractor's side ends with `tricks` (misère:
    0 made, −1 its bidder took a trick), by the score formulas."""
    contract = state.deal.contract
    if contract.spec.misere:
        won = (-tricks, 0) if contract.side == 0 else (0, -tricks)
    else:
        won = (tricks, 10 - tricks) if contract.side == 0 else (10 - tricks, tricks)
    _, score = score_deal(contract, won)
    mine = 0 if str(seat) in "NS" else 1
    return score[mine] - score[1 - mine]


def _reached(seeds: range):
    """(seat, the candidates' contracts at their first lead, the candidates' row) per decision."""
    master = Master(FAMILY, "five_hundred", budget=None, worlds=1)
    for seed in seeds:
        game, state, seat = _auction(seed, seed % 4)
        commands = [game.parse_action(c) for c in _candidates(master, game, state, seat, seed)]
        row = five_hundred_calls.world_values(game, state, commands, seat, random.Random(seed), lambda solve: solve())
        assert set(row) == set(range(len(commands)))
        reached = [auction_worlds.first_lead(game, FAMILY, state, c, random.Random(seed)) for c in commands]
        yield seat, reached, row


def test_the_probes_tell_a_contract_made_a_slam_and_a_misere_as_the_exact_value_does() -> None:
    """Against the exact value: the range the probes leave holds it, and tells what the worth
    turns on — the bid's tricks, all ten, a misère without a trick — as the exact value does;
    each candidate is worth its contract's expected margin on that range."""
    seen = {"made": 0, "failed": 0, "thrown in": 0}
    for seat, reached, row in _reached(range(12)):
        for i, (state, bounds) in enumerate(zip(reached, five_hundred_calls.ranges(reached, lambda solve: solve()))):
            if state is None:
                assert row[i] == 0.0 and bounds is None
                seen["thrown in"] += 1
                continue
            exact = value(state)                     # the contractor leads: his side's value
            lo, hi = bounds
            assert lo <= exact <= hi
            assert row[i] == five_hundred_calls.expected_margin(state, seat, lo, hi)
            spec = state.deal.contract.spec
            if spec.misere:
                assert lo == hi == exact
                continue
            assert (lo >= spec.tricks) == (exact >= spec.tricks)
            assert (lo == 10) == (exact == 10) or spec.value >= 250
            seen["made" if exact >= spec.tricks else "failed"] += 1
    assert seen["made"] >= 10 and seen["failed"] >= 10, seen


def test_played_double_dummy_the_expected_margin_is_the_score(monkeypatch) -> None:
    """Were every contract made exactly when the solver makes it, a contract's worth would be
    the score margin its exact tricks give, for every seat."""
    monkeypatch.setattr(five_hundred_calls, "MADE", {False: 0.0, True: 1.0})
    monkeypatch.setattr(five_hundred_calls, "MISERE_MADE", {False: 0.0, True: 1.0})
    monkeypatch.setattr(five_hundred_calls, "SLAM_KEPT", 1.0)
    checked = 0
    for _, reached, _ in _reached(range(6)):
        for state in reached:
            if state is None:
                continue
            exact = value(state)
            for seat in SEATS:
                assert five_hundred_calls.expected_margin(state, seat, exact, exact) == _exact_margin(state, seat, exact)
            checked += 1
    assert checked >= 12


def test_the_probes_find_a_slam_and_a_misere_exactly() -> None:
    """All ten tricks score the slam's 250 over a bid worth less, and a misère is made or not
    by one trick: where the worth turns on them, the probes leave no trick to guess."""
    checked = {"slam": 0, "misere": 0}
    for seed in range(400):
        game, state, seat = _auction(seed, 0)
        for action in ({"action": "bid", "tricks": 6, "suit": "NT"}, {"action": "bid", "contract": "misere"}):
            if action not in game.view(state, seat).legal:
                continue
            reached = auction_worlds.first_lead(game, FAMILY, state, game.parse_action({"seat": str(seat), **action}),
                                                random.Random(seed))
            if reached is None or reached.deal.contract.seat != seat:
                continue
            exact = value(reached)
            kind = "misere" if reached.deal.contract.spec.misere else "slam" if exact == 10 else None
            if kind is None or checked[kind] >= 3:
                continue
            lo, hi = five_hundred_calls.tricks_range(reached, {}, lambda solve: solve())
            assert lo == hi == exact
            checked[kind] += 1
        if min(checked.values()) >= 3:
            return
    raise AssertionError(f"too few slams and misères among the deals: {checked}")


def test_the_master_solves_five_hundred_calls_from_its_view() -> None:
    master = Master(FAMILY, "five_hundred", budget=None, worlds=4)
    for seed in range(12):
        game, state, seat = _auction(seed, seed % 3)
        view = game.view(state, seat)
        candidates = _candidates(master, game, state, seat, seed)
        if len(candidates) < 2:
            continue
        action = master(view, random.Random(7))
        assert solved_calls.solved("five_hundred", state.options)
        assert master.last_way == "solved" and master.last_worlds == 4 and len(master.last_rows) == 4
        assert {k: v for k, v in action.items() if k != "seat"} in view.legal
        assert {"seat": str(seat), **{k: v for k, v in action.items() if k != "seat"}} in candidates
        return
    raise AssertionError("no decision with two candidates")


class Seeing(Master):
    """Test-only: every world of the auction is the true deal."""

    truth = None

    def auction_world(self, table, rng, options):
        return self.truth


def test_knowing_the_deal_the_master_calls_what_the_solved_contracts_score_best() -> None:
    """The same world three times: no spread, so every call better than `basic`'s beats it
    clearly, and the best is called — among the calls the conventions allow."""
    seeing = Seeing(FAMILY, "five_hundred", budget=None, worlds=3)
    chosen = 0
    for seed in range(16):
        game, state, seat = _auction(40 + seed, seed % 4)
        candidates = _candidates(seeing, game, state, seat, seed)
        if len(candidates) < 2:
            continue
        seeing.truth = state
        action = seeing(game.view(state, seat), random.Random(seed))
        assert seeing.last_way == "solved" and seeing.last_worlds == 3
        row = seeing.last_rows[0]
        assert row[candidates.index({"seat": str(seat), **{k: v for k, v in action.items() if k != "seat"}})] \
            == max(row.values()), (seed, candidates, row)
        chosen += 1
    assert chosen >= 4
