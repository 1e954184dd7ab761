"""Rulings (void a deal, adjust a score) refuse the same things with the same codes in
every game (docs/disputes.md, "Rulings"); only Five Hundred's between-deals rule differs."""

from __future__ import annotations

import random

import pytest

from domain.game import AdjustScore, DealVoided, RuleViolation, ScoreAdjusted, StartDeal, VoidDeal
from domain.games import load
from domain.playout import play_deal

GAMES = [
    pytest.param("belote", {"variant": "classic", "target": 5000}, ("NS", "EW"), False, id="belote"),
    pytest.param("belote", {"variant": "coinche", "target": 5000}, ("NS", "EW"), False, id="coinche"),
    pytest.param("cinch", {"target": 500}, ("NS", "EW"), False, id="cinch"),
    pytest.param("cinch", {"mode": "individual", "target": 500}, ("N", "E", "S", "W"), False,
                 id="cinch-individual"),
    pytest.param("five_hundred", {"target": 5000}, ("NS", "EW"), True, id="five_hundred"),
]


def one_deal_played(name: str, raw: dict) -> tuple:
    game = load(name)
    state = game.initial(game.parse_options(raw))
    for _, state, _ in play_deal(game, state, random.Random(7)):
        pass
    assert game.status(state).phase == "awaiting_deal"
    return game, state


def next_deal_started(game, state):
    status = game.status(state)
    state, _ = game.apply(state, StartDeal(dealer=status.next_dealer, deck=game.deck))
    assert game.status(state).phase == "in_deal"
    return state


def refused(game, state, command) -> str:
    with pytest.raises(RuleViolation) as error:
        game.decide(state, command)
    return error.value.code


@pytest.mark.parametrize("name, raw, sides, between_deals", GAMES)
def test_a_deal_is_voided_once(name, raw, sides, between_deals):
    game, state = one_deal_played(name, raw)
    state, events = game.apply(state, VoidDeal(deal=0, admin="a", reason="misdeal"))
    assert events == [DealVoided(deal=0, admin="a", reason="misdeal")]
    assert set(game.status(state).match_score.values()) == {0}
    assert refused(game, state, VoidDeal(deal=0)) == "bad_action"


@pytest.mark.parametrize("name, raw, sides, between_deals", GAMES)
def test_a_ruling_on_a_deal_never_started_is_a_bad_action(name, raw, sides, between_deals):
    game, state = one_deal_played(name, raw)
    for deal in (1, 5, -1):
        assert refused(game, state, VoidDeal(deal=deal)) == "bad_action"
        assert refused(game, state, AdjustScore(deal=deal, score={sides[0]: 3})) == "bad_action"


@pytest.mark.parametrize("name, raw, sides, between_deals", GAMES)
def test_an_adjustment_gives_integer_points_to_the_game_s_sides(name, raw, sides, between_deals):
    game, state = one_deal_played(name, raw)
    before = game.status(state).match_score
    for score in ({sides[0]: 1.5}, {sides[0]: "3"}, {sides[0]: True}, {sides[0]: None}, {"XY": 3},
                  {sides[0]: 2, "XY": 3}):
        assert refused(game, state, AdjustScore(deal=0, score=score)) == "bad_action", score
    if sides == ("NS", "EW"):
        assert refused(game, state, AdjustScore(deal=0, score={"N": 3})) == "bad_action"
    else:
        assert refused(game, state, AdjustScore(deal=0, score={"NS": 3})) == "bad_action"
    state, events = game.apply(state, AdjustScore(deal=0, score={sides[-1]: -4}, admin="a"))
    assert events == [ScoreAdjusted(deal=0, score={sides[-1]: -4}, admin="a")]
    after = game.status(state).match_score
    assert after[sides[-1]] == before[sides[-1]] - 4
    assert all(after[s] == before[s] for s in sides[:-1])


@pytest.mark.parametrize("name, raw, sides, between_deals", GAMES)
def test_the_deal_being_played_is_ruled_on_once_it_is_over(name, raw, sides, between_deals):
    game, state = one_deal_played(name, raw)
    state = next_deal_started(game, state)
    assert refused(game, state, VoidDeal(deal=1)) == "wrong_phase"
    assert refused(game, state, AdjustScore(deal=1, score={sides[0]: 3})) == "wrong_phase"
    assert refused(game, state, AdjustScore(deal=0, score={sides[0]: 0.5})) == "bad_action"
    if between_deals:
        assert refused(game, state, VoidDeal(deal=0)) == "wrong_phase"
        assert refused(game, state, AdjustScore(deal=0, score={sides[0]: 3})) == "wrong_phase"
    else:
        voided, _ = game.apply(state, VoidDeal(deal=0))
        assert set(game.status(voided).match_score.values()) == {0}
        adjusted, _ = game.apply(state, AdjustScore(deal=0, score={sides[0]: 3}))
        assert game.status(adjusted).match_score[sides[0]] == game.status(state).match_score[sides[0]] + 3
