"""Given events / when an action / then events (or a refusal) for the auction (A.4.1–A.4.4,
CA-2 and the stuck-dealer Clarification)."""

from __future__ import annotations

import pytest

from cinch_support import arrange, given, options, run, when
from domain.cinch import GAME
from domain.cinch.events import BidMade, Passed, TrumpNamed
from domain.cinch.state import Contract
from domain.game import RuleViolation, StartDeal

DECK = arrange("N", {})


def dealt(opts=None, dealer="N"):
    """The events of a fresh deal dealt by `dealer`."""
    opts = opts or options()
    return GAME.decide(GAME.initial(opts), StartDeal(dealer=dealer, deck=tuple(arrange(dealer, {}))))


def after(actions, opts=None, dealer="N"):
    opts = opts or options()
    state, _ = run(opts, [(dealer, arrange(dealer, {}), actions)])
    return state


def refused(state, action):
    with pytest.raises(RuleViolation) as error:
        when(state, action)
    return error.value.code


def bid(seat, value):
    return {"seat": seat, "action": "bid", "value": value}


def pas(seat):
    return {"seat": seat, "action": "pass"}


def test_eldest_speaks_first():
    state = given(options(), dealt())
    assert state.deal.turn == "E" and state.phase == "auction"
    assert when(state, bid("E", 1)) == [BidMade(seat="E", value=1)]
    assert refused(state, bid("N", 1)) == "not_your_turn"


def test_each_bid_tops_the_last_and_may_overbid_a_partner():
    state = after([bid("E", 5), pas("S")])
    assert refused(state, bid("W", 5)) == "illegal_bid"
    assert when(state, bid("W", 6)) == [BidMade(seat="W", value=6)]  # W overbids his partner E


def test_a_pass_is_final_one_round_only():
    state = after([pas("E"), bid("S", 3), pas("W"), pas("N")])
    # The round is over: E may not come back in; the high bidder names trumps.
    assert state.phase == "trump"
    assert refused(state, bid("E", 4)) == "wrong_phase"


def test_fourteen_is_the_highest_bid_and_cannot_be_topped():
    state = after([bid("E", 14)])
    assert GAME.legal_actions(state, "S") == [{"action": "pass"}]
    assert refused(state, bid("S", 14)) == "illegal_bid"
    with pytest.raises(RuleViolation) as error:
        GAME.parse_action(bid("S", 15))
    assert error.value.code == "bad_action"


def test_min_bid_option():
    state = after([], options(min_bid=7))
    assert refused(state, bid("E", 6)) == "illegal_bid"
    assert [a.get("value") for a in GAME.legal_actions(state, "E")] == [None, 7, 8, 9, 10, 11, 12, 13, 14]


def test_stuck_dealer_must_bid_after_three_passes():
    state = after([pas("E"), pas("S"), pas("W")])
    assert refused(state, pas("N")) == "illegal_bid"
    assert {"action": "pass"} not in GAME.legal_actions(state, "N")
    assert [a["value"] for a in GAME.legal_actions(state, "N")] == list(range(1, 15))
    assert when(state, bid("N", 1)) == [BidMade(seat="N", value=1)]


def test_stuck_dealer_bids_from_min_bid():
    state = after([pas("E"), pas("S"), pas("W")], options(min_bid=6))
    assert refused(state, bid("N", 5)) == "illegal_bid"
    assert [a["value"] for a in GAME.legal_actions(state, "N")] == list(range(6, 15))


def test_dealer_who_is_not_stuck_may_pass():
    state = after([bid("E", 2), pas("S"), pas("W")])
    assert when(state, pas("N")) == [Passed(seat="N")]


def test_auction_ends_with_the_dealer_and_the_high_bidder_names_trumps():
    state = after([bid("E", 2), bid("S", 4), pas("W"), pas("N")])
    assert state.phase == "trump" and state.deal.turn == "S"
    assert state.deal.contract == Contract(seat="S", value=4)
    assert refused(state, {"seat": "E", "action": "trump", "suit": "H"}) == "not_your_turn"
    assert when(state, {"seat": "S", "action": "trump", "suit": "H"})[0] == TrumpNamed(seat="S", suit="H")


def test_only_the_bidder_names_and_only_after_the_auction():
    state = after([bid("E", 2)])
    assert refused(state, {"seat": "E", "action": "trump", "suit": "H"}) == "wrong_phase"
    assert GAME.legal_actions(state, "E") == []


def test_nothing_before_a_deal_is_dealt():
    state = GAME.initial(options())
    assert refused(state, bid("E", 2)) == "deal_over"
    assert GAME.legal_actions(state, "E") == []


def test_malformed_bids():
    for action in (bid("E", 0), bid("E", True), bid("E", "5"), {"seat": "E", "action": "bid"},
                   {"seat": "E", "action": "bid", "value": 3, "suit": "H"}, {"seat": "X", "action": "pass"},
                   {"seat": "E", "action": "double"}, {"seat": ["E"], "action": "pass"}, "pass"):
        with pytest.raises(RuleViolation) as error:
            GAME.parse_action(action)
        assert error.value.code == "bad_action", action


def test_check_order_malformed_before_turn():
    state = after([])
    # N is not on turn AND the bid is malformed: malformed wins.
    with pytest.raises(RuleViolation) as error:
        GAME.parse_action(bid("N", 99))
    assert error.value.code == "bad_action"
    assert refused(state, bid("N", 3)) == "not_your_turn"
    assert refused(state, {"seat": "N", "action": "play", "card": "AS"}) == "wrong_phase"
