"""Given / when / then for counting and scoring (A.2, A.4.9, A.6, A.7.3, CA-1, CA-4, CA-5 and
the Clarifications), and for the match: game to the target, count-out, `deals`, rulings."""

from __future__ import annotations

import random

import pytest

from cinch_support import arrange, given, options, record, run, when
from domain.cinch import GAME
from domain.cinch.events import BidMade, DealScored, DealStarted, Passed, TrumpNamed
from domain.cinch.scoring import deal_score
from domain.cinch.state import Contract
from domain.cinch.ranking import TABLES
from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal
from domain.record import play_record
from test_cinch_examples import cs1_deal

# --- A.6.2 / A.6.3 through the published hand, with other bids ------------------------------------


def cs1_with_bid(value):
    dealer, deck, actions = cs1_deal()
    actions = [dict(a, value=value) if a["action"] == "bid" else a for a in actions]
    return dealer, deck, actions


@pytest.mark.parametrize("value", [1, 7])
def test_bid_made_with_equal_points_nobody_scores(value):
    deal = play_record(record([cs1_with_bid(value)]))["deals"][0]
    assert deal["result"] == "made" and deal["points"] == {"NS": 7, "EW": 7}
    assert deal["score"] == {"NS": 0, "EW": 0}


def test_bid_made_but_the_opponents_have_more_they_score_the_difference():
    # The Russian source's example: bid 6, bidders 6, opponents 8 -> opponents +2. CS-1 with the
    # Two to its holder gives exactly 6 to 8.
    deal = play_record(record([cs1_with_bid(6)], low_point="holder"))["deals"][0]
    assert deal["points"] == {"NS": 8, "EW": 6}
    assert deal["result"] == "made" and deal["score"] == {"NS": 2, "EW": 0}


def test_bid_made_with_more_points_the_bidders_score_the_difference():
    deal = play_record(record([cs1_with_bid(6)], low_point="holder"))["deals"][0]
    assert deal["score"]["EW"] == 0
    made, score = deal_score(options(), Contract(seat="E", value=6, trump="D"), {"NS": 4, "EW": 10})
    assert made and score == {"NS": 0, "EW": 6}


def test_failed_bid_all_points_in_play_both_formulas_agree():
    for scoring in ("shortfall", "points_plus_bid"):
        made, score = deal_score(options(failure_scoring=scoring), Contract(seat="N", value=10, trump="S"),
                                 {"NS": 9, "EW": 5})
        assert not made and score == {"NS": 0, "EW": 15}


def test_failed_bid_with_dead_points_the_formulas_differ():
    # Three points dead: bid 8, bidders 5, opponents 6.
    contract = Contract(seat="N", value=8, trump="S")
    assert deal_score(options(), contract, {"NS": 5, "EW": 6}) == (False, {"NS": 0, "EW": 17})
    assert deal_score(options(failure_scoring="points_plus_bid"), contract, {"NS": 5, "EW": 6}) == \
        (False, {"NS": 0, "EW": 14})


def test_individual_scoring_each_takes_his_points_failing_maker_loses_his_bid():
    contract = Contract(seat="E", value=6, trump="S")
    points = {"N": 5, "E": 4, "S": 0, "W": 5}
    for scoring in ("shortfall", "points_plus_bid"):   # failure_scoring does not apply
        assert deal_score(options(mode="individual", failure_scoring=scoring), contract, points) == \
            (False, {"N": 5, "E": -6, "S": 0, "W": 5})
    assert deal_score(options(mode="individual"), contract, {"N": 1, "E": 8, "S": 0, "W": 5}) == \
        (True, {"N": 1, "E": 8, "S": 0, "W": 5})


# --- A.4.9: counting cards shed face up ----------------------------------------------------------------

CLUBS = TABLES["C"].trumps


def shed_deal(low_point="trick_winner", seed=3):
    """E bids clubs holding seven, S (an opponent) holds seven: E sheds his Ten (dead), S
    sheds the Left Pedro 5S (credited to E-W); the rest is played at random."""
    hands = {"E": ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "2D", "3D"],
             "S": ["7C", "6C", "5C", "4C", "3C", "2C", "5S", "4D", "6D"]}
    deck = arrange("N", hands, last=CLUBS)
    actions = [{"seat": "E", "action": "bid", "value": 9}, {"seat": "S", "action": "pass"},
               {"seat": "W", "action": "pass"}, {"seat": "N", "action": "pass"},
               {"seat": "E", "action": "trump", "suit": "C"},
               {"seat": "E", "action": "discard", "cards": ["TC"]},
               {"seat": "S", "action": "discard", "cards": ["5S"]}]
    state, events = run(options(low_point=low_point), [("N", deck, actions)])
    rng = random.Random(seed)
    while state.phase != "awaiting_deal" and state.phase != "match_over":
        seat = state.deal.turn
        action = rng.choice(GAME.legal_actions(state, seat))
        if action["action"] == "rob":
            action = {"action": "rob", "keep": action["keep"]["from"][:6]}
        state, evs = GAME.apply(state, GAME.parse_action({"seat": seat, **action}))
        events.extend(evs)
    return state, events[-1]


@pytest.mark.parametrize("low_point", ["trick_winner", "holder"])
def test_counting_card_shed_by_an_opponent_scores_for_the_bidders_own_is_dead(low_point):
    state, scored = shed_deal(low_point)
    assert isinstance(scored, DealScored)
    credits = dict(scored.credits)
    assert credits["5S"] == "EW"   # Left Pedro shed by S, an opponent of the bidder E
    assert credits["TC"] is None   # Game shed by the bidder himself: dead
    assert sum(scored.points.values()) == 14 - 1
    # Credited points decide whether the bid was made (Clarifications).
    assert scored.result == ("made" if scored.points["EW"] >= 9 else "failed")


def test_shed_two_of_trumps_follows_a49_even_with_low_to_the_holder():
    hands = {"E": ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "2D", "3D"],
             "S": ["7C", "6C", "5C", "4C", "3C", "2C", "5S", "4D", "6D"]}
    deck = arrange("N", hands, last=CLUBS)
    actions = [{"seat": "E", "action": "bid", "value": 1}, {"seat": "S", "action": "pass"},
               {"seat": "W", "action": "pass"}, {"seat": "N", "action": "pass"},
               {"seat": "E", "action": "trump", "suit": "C"},
               {"seat": "E", "action": "discard", "cards": ["8C"]},
               {"seat": "S", "action": "discard", "cards": ["2C"]}]
    state, _ = run(options(low_point="holder"), [("N", deck, actions)])
    from domain.cinch.scoring import credits
    from msgspec.structs import replace
    assert dict(credits(replace(state, deal=replace(state.deal, tricks=()))))["2C"] == "EW"


# --- the match: game to the target --------------------------------------------------------------


def scored(deal, dealer, bidder, value, trump, result, score, points=None, credits=()):
    """The given events of one finished deal (evolve trusts them: no play needed)."""
    opts_sides = list(score)
    order = {"N": "ESWN", "E": "SWNE", "S": "WNES", "W": "NESW"}[dealer]
    bids = [BidMade(seat=s, value=value) if s == bidder else Passed(seat=s) for s in order]
    return [DealStarted(deal=deal, dealer=dealer, hands={s: () for s in "NESW"}, stock=()), *bids,
            TrumpNamed(seat=bidder, suit=trump),
            DealScored(deal=deal, result=result, points=points or {s: 0 for s in opts_sides}, score=score,
                       credits=credits)]


def test_first_side_to_the_target_wins_and_no_deal_follows():
    opts = options()
    events = scored(0, "N", "E", 5, "S", "made", {"NS": 0, "EW": 45}) + \
        scored(1, "E", "S", 8, "S", "failed", {"NS": 0, "EW": 14})
    state = given(opts, events)
    status = GAME.status(state)
    assert status.phase == "match_over" and status.winner == "EW" and status.match_score == {"NS": 0, "EW": 59}
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, StartDeal(dealer="S", deck=tuple(arrange("S", {}))))
    assert error.value.code == "match_over"


def test_target_option():
    state = given(options(target=42), scored(0, "N", "E", 5, "S", "made", {"NS": 0, "EW": 42}))
    assert GAME.status(state).winner == "EW"
    state = given(options(target=62), scored(0, "N", "E", 5, "S", "made", {"NS": 0, "EW": 42}))
    assert GAME.status(state).phase == "awaiting_deal" and GAME.status(state).next_dealer == "E"


def test_individual_several_over_the_target_maker_who_made_goes_out():
    opts = options(mode="individual")
    first = scored(0, "N", "E", 1, "S", "made", {"N": 48, "E": 46, "S": 0, "W": 0})
    last = scored(1, "E", "N", 5, "S", "made", {"N": 5, "E": 9, "S": 0, "W": 0})
    state = given(opts, first + last)
    assert GAME.status(state).match_score == {"N": 53, "E": 55, "S": 0, "W": 0}
    assert GAME.status(state).winner == "N"


def test_individual_several_over_the_target_count_out_high_low_jack_game_pedros():
    opts = options(mode="individual")
    first = scored(0, "N", "E", 1, "S", "made", {"N": 48, "E": 46, "S": 0, "W": 0})
    credits = (("AS", "E"), ("2S", "N"), ("JS", "E"), ("TS", "N"), ("5S", "E"), ("5C", "N"))
    last = scored(1, "E", "S", 5, "S", "failed", {"N": 7, "E": 7, "S": -5, "W": 0},
                  points={"N": 7, "E": 7, "S": 0, "W": 0}, credits=credits)
    state = given(opts, first + last)
    # N ends higher (55 to 53) but E reaches 51 first in the count: 47, 48, 53 at the Right Pedro.
    assert GAME.status(state).match_score == {"N": 55, "E": 53, "S": -5, "W": 0}
    assert GAME.status(state).winner == "E"


def test_individual_scores_can_fall():
    state = given(options(mode="individual"), scored(0, "N", "E", 9, "S", "failed", {"N": 3, "E": -9, "S": 5, "W": 6}))
    assert GAME.status(state).match_score["E"] == -9


def test_deals_option_exactly_n_deals_side_ahead_wins_tie_is_a_tie():
    opts = options(deals=2, target=10)
    one = scored(0, "N", "E", 5, "S", "made", {"NS": 0, "EW": 12})
    state = given(opts, one)
    assert GAME.status(state).phase == "awaiting_deal"   # over the target, but the match is 2 deals
    two = scored(1, "E", "S", 5, "S", "made", {"NS": 12, "EW": 0})
    state = given(opts, one + two)
    assert GAME.status(state).phase == "match_over" and GAME.status(state).winner is None
    three = scored(1, "E", "S", 5, "S", "made", {"NS": 13, "EW": 0})
    assert GAME.status(given(opts, one + three)).winner == "NS"


# --- rulings -------------------------------------------------------------------------------------


def test_void_deal_reopens_a_won_match():
    opts = options()
    state = given(opts, scored(0, "N", "E", 5, "S", "made", {"NS": 0, "EW": 45}) +
                  scored(1, "E", "S", 8, "S", "failed", {"NS": 0, "EW": 14}))
    assert GAME.status(state).winner == "EW"
    state, _ = GAME.apply(state, VoidDeal(deal=1))
    status = GAME.status(state)
    assert status.phase == "awaiting_deal" and status.winner is None and status.match_score == {"NS": 0, "EW": 45}
    assert status.next_dealer == "S"
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, VoidDeal(deal=1))
    assert error.value.code == "bad_action"


def test_adjust_score_changes_the_winner():
    state = given(options(), scored(0, "N", "E", 5, "S", "made", {"NS": 0, "EW": 53}))
    state, _ = GAME.apply(state, AdjustScore(deal=0, score={"NS": 60}))
    assert GAME.status(state).winner == "NS" and GAME.status(state).match_score == {"NS": 60, "EW": 53}
    state, _ = GAME.apply(state, AdjustScore(deal=0, score={"NS": -7}))
    assert GAME.status(state).winner is None   # 53 all: a tie over the target plays on
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, AdjustScore(deal=0, score={"N": 3}))
    assert error.value.code == "bad_action"
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, AdjustScore(deal=4, score={"NS": 3}))
    assert error.value.code == "bad_action"


def test_scores_through_a_record_with_rulings():
    rec = record([cs1_deal()])
    rec["rulings"] = [{"deal": 0, "ruling": "adjust", "score": {"EW": 5}}]
    result = play_record(rec)
    assert result["match_score"] == {"NS": 15, "EW": 5}
    rec["rulings"] = [{"deal": 0, "ruling": "void"}]
    assert play_record(rec)["match_score"] == {"NS": 0, "EW": 0}


def test_when_the_last_card_is_played_the_deal_is_scored():
    dealer, deck, actions = cs1_deal()
    state, _ = run(options(), [(dealer, deck, actions[:-1])])
    events = when(state, actions[-1])
    assert events[-1] == DealScored(
        deal=0, result="failed", points={"NS": 7, "EW": 7}, score={"NS": 15, "EW": 0},
        credits=(("AD", "EW"), ("2D", "EW"), ("JD", "NS"), ("TD", "NS"), ("5D", "NS"), ("5H", "EW")))
