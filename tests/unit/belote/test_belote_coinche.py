"""The Coinche auction (belote.md §5.2, §8b) and its deal scores (§5.4-5.6), with §6 rows
1, 2 and 9 under both rule sets."""

from __future__ import annotations

import pytest
from belote_support import act, coinche_deck, given, play_on, refused, suit_per_seat, when

from domain.belote import GAME
from domain.belote.events import (AuctionClosed, BidMade, Coinched, Contract, DealScored, Passed,
                                  Surcoinched, ThrownIn)
from domain.belote.scoring import coinche_score, round_to_ten
from domain.cards import Seat

DECK = coinche_deck("E", suit_per_seat())        # eldest N holds every spade


def auction(actions=(), rules="house", combinations=False):
    return given({"variant": "coinche", "rules": rules, "combinations": combinations}, "E", DECK,
                 [(a[0], a[1], a[2]) if len(a) > 2 else a for a in actions])


def bid(seat, value, suit="S"):
    return (seat, "bid", {"value": value, "suit": suit})


# --- bidding --------------------------------------------------------------------------------

def test_the_deal_is_3_2_3_and_eldest_speaks_first():
    state = auction()
    assert state.deal.hand(Seat.N) == tuple(suit_per_seat()["N"])
    assert state.deal.turn == Seat.N and state.deal.turn_up is None


def test_bids_rise_by_tens_from_80_to_160_without_combinations():
    state = auction([bid("N", 80)])
    assert refused(state, "W", "bid", value=80, suit="H") == "illegal_bid"
    assert refused(state, "W", "bid", value=85, suit="H") == "illegal_bid"
    assert refused(state, "W", "bid", value=170, suit="H") == "illegal_bid"
    assert when(state, "W", "bid", value=160, suit="H") == [BidMade(Seat.W, 160, "H")]
    assert refused(auction(), "N", "bid", value=70, suit="S") == "illegal_bid"


def test_with_combinations_bids_go_up_to_650():
    state = auction([bid("N", 640)], combinations=True)
    assert when(state, "W", "bid", value=650, suit="H") == [BidMade(Seat.W, 650, "H")]
    assert refused(state, "W", "bid", value=660, suit="H") == "illegal_bid"
    values = {a["value"] for a in GAME.legal_actions(state, Seat.W) if a["action"] == "bid"}
    assert values == {650, "capot"}


def test_a_player_may_overbid_his_partner_and_bid_after_passing():
    state = auction([("N", "pass"), bid("W", 80), ("S", "pass"), bid("E", 90), ("N", "pass")])
    assert when(state, "W", "bid", value=100, suit="H") == [BidMade(Seat.W, 100, "H")]
    state = auction([("N", "pass"), bid("W", 80)])
    assert when(state, "S", "bid", value=90, suit="D") == [BidMade(Seat.S, 90, "D")]


def test_capot_outranks_everything():
    state = auction([bid("N", 160), bid("W", "capot", "H")])
    assert refused(state, "S", "bid", value="capot", suit="S") == "illegal_bid"
    assert GAME.legal_actions(state, Seat.S) == [{"action": "pass"}, {"action": "coinche"}]


def test_three_passes_after_a_bid_close_the_auction():
    state = auction([bid("N", 80), ("W", "pass"), ("S", "pass")])
    assert when(state, "E", "pass") == [Passed(Seat.E), AuctionClosed(Contract(Seat.N, "NS", "S", 80, 1))]
    state = act(state, "E", "pass")
    assert state.deal.turn == Seat.N and state.deal.phase == "play"     # eldest leads


def test_four_passes_without_a_bid_throw_the_deal_in():
    state = auction([("N", "pass"), ("W", "pass"), ("S", "pass")])
    assert when(state, "E", "pass") == [Passed(Seat.E), ThrownIn(0)]


def test_legal_bids_for_the_seat_in_turn():
    legal = GAME.legal_actions(auction(), Seat.N)
    assert legal[0] == {"action": "pass"}
    assert len([a for a in legal if a["action"] == "bid"]) == 9 * 4 + 4
    assert {"action": "coinche"} not in legal


# --- coinche and surcoinche (§6 row 9) ----------------------------------------------------------

@pytest.mark.parametrize("rules", ["house", "official"])
def test_only_an_opponent_of_the_bidder_may_coinche(rules):
    state = auction([bid("N", 80), ("W", "pass")], rules)
    assert refused(state, "S", "coinche") == "illegal_coinche"
    assert refused(auction(rules=rules), "N", "coinche") == "illegal_coinche"


def test_house_coinche_out_of_turn_even_after_passing():
    state = auction([bid("N", 80), ("W", "pass"), ("S", "pass")], "house")
    assert when(state, "W", "coinche") == [Coinched(Seat.W)]
    assert {"action": "coinche"} in GAME.legal_actions(state, Seat.W)
    assert set(GAME.status(state).to_act) == {Seat.W, Seat.E}      # E in turn, W out of turn
    state = act(state, "W", "coinche")
    assert state.deal.turn == Seat.S                  # first contracting player after W


def test_official_coinche_only_in_turn():
    state = auction([bid("N", 80), ("W", "pass"), ("S", "pass")], "official")
    assert refused(state, "W", "coinche") == "not_your_turn"
    assert GAME.legal_actions(state, Seat.W) == []
    assert when(state, "E", "coinche") == [Coinched(Seat.E)]


@pytest.mark.parametrize("rules", ["house", "official"])
def test_after_a_coinche_bids_are_frozen_and_both_passes_end_coinched(rules):
    state = auction([bid("N", 80), ("W", "coinche")], rules)
    assert state.deal.turn == Seat.S
    assert refused(state, "S", "bid", value=90, suit="S") == "illegal_bid"
    assert refused(state, "E", "pass") == "not_your_turn"           # the coincher's partner
    assert refused(state, "W", "coinche") == ("illegal_coinche" if rules == "house" else "not_your_turn")
    state = act(state, "S", "pass")
    assert state.deal.turn == Seat.N
    assert when(state, "N", "pass") == [Passed(Seat.N), AuctionClosed(Contract(Seat.N, "NS", "S", 80, 2))]


def test_house_surcoinche_by_the_partner_out_of_turn():
    state = auction([bid("N", 80), ("W", "coinche")], "house")
    assert GAME.legal_actions(state, Seat.N) == [{"action": "surcoinche"}]
    assert when(state, "N", "surcoinche") == [Surcoinched(Seat.N),
                                              AuctionClosed(Contract(Seat.N, "NS", "S", 80, 4))]


def test_house_a_contracting_player_who_passed_may_not_surcoinche():
    state = auction([bid("N", 80), ("W", "coinche"), ("S", "pass")], "house")
    assert refused(state, "S", "surcoinche") == "illegal_surcoinche"
    assert when(state, "N", "surcoinche")[0] == Surcoinched(Seat.N)


def test_official_surcoinche_only_in_turn():
    state = auction([bid("N", 80), ("W", "coinche")], "official")
    assert refused(state, "N", "surcoinche") == "not_your_turn"
    assert GAME.legal_actions(state, Seat.N) == []
    assert GAME.legal_actions(state, Seat.S) == [{"action": "pass"}, {"action": "surcoinche"}]
    state = act(state, "S", "pass")
    assert when(state, "N", "surcoinche")[0] == Surcoinched(Seat.N)


@pytest.mark.parametrize("rules", ["house", "official"])
def test_surcoinche_needs_a_coinche_and_the_coinched_team(rules):
    state = auction([bid("N", 80)], rules)
    assert refused(state, "W", "surcoinche") == "illegal_surcoinche"
    state = auction([bid("N", 80), ("W", "coinche")], rules)
    assert refused(state, "S", "coinche") == "illegal_coinche"


def test_a_capot_bid_can_be_coinched():
    state = auction([bid("N", "capot")])
    assert when(state, "E", "coinche") == [Coinched(Seat.E)]


# --- deal scores through the rules (§6 rows 1 and 2) ------------------------------------------

def finish(actions, rules):
    state = play_on(auction(actions, rules), 31)
    seat = str(state.deal.turn)
    card = GAME.legal_actions(state, state.deal.turn)[0]["card"]
    return when(state, seat, "play", card=card)[-1]


PASS3 = [("W", "pass"), ("S", "pass"), ("E", "pass")]


@pytest.mark.parametrize("rules,score", [("house", 352), ("official", 350)])
def test_row1_rounding_plain_contract_made_with_capot_and_belote(rules, score):
    scored = finish([bid("N", 80)] + PASS3, rules)
    assert scored == DealScored(0, "made", {"NS": 252, "EW": 0}, {"NS": score, "EW": 0}, 0)


@pytest.mark.parametrize("rules,score", [("house", (160 + 20 + 80) * 2), ("official", (250 + 20 + 80) * 2)])
def test_row2_coinched_capot_base(rules, score):
    scored = finish([bid("N", 80), ("W", "coinche"), ("S", "pass"), ("N", "pass")], rules)
    assert scored.result == "made" and scored.score == {"NS": score, "EW": 0}


@pytest.mark.parametrize("rules,score", [("house", (160 + 20 + 80) * 4), ("official", (250 + 20 + 80) * 4)])
def test_surcoinched_capot(rules, score):
    actions = [bid("N", 80), ("W", "coinche"), ("S", "pass"), ("N", "surcoinche")]
    assert finish(actions, rules).score == {"NS": score, "EW": 0}


@pytest.mark.parametrize("rules,score", [("house", 522), ("official", 520)])
def test_capot_bid_and_made(rules, score):
    assert finish([bid("N", "capot")] + PASS3, rules).score == {"NS": score, "EW": 0}


@pytest.mark.parametrize("rules", ["house", "official"])
def test_defenders_capot_sinks_the_contract(rules):
    actions = [("N", "pass"), bid("W", 80), ("S", "pass"), ("E", "pass"), ("N", "pass")]
    scored = finish(actions, rules)
    assert scored.result == "failed" and scored.score == {"NS": 160 + 20 + 80, "EW": 0}


# --- the formulas of §5.5 ----------------------------------------------------------------------

Z = {"NS": 0, "EW": 0}


def cs(P, value, m=1, B=Z, K=Z, capot=None, official=False):
    return coinche_score("NS", P, B, K, capot, value, m, official)


def test_round_to_ten_five_up():
    assert [round_to_ten(v) for v in (84, 85, 86, 252, 0)] == [80, 90, 90, 250, 0]


def test_published_capot_figures():
    capot = {"NS": 252, "EW": 0}
    assert cs(capot, "capot", official=True, capot="NS").score == {"NS": 500, "EW": 0}
    assert cs({"NS": 150, "EW": 12}, "capot", official=True).score == {"NS": 0, "EW": 410}
    assert cs(capot, "capot", 2, official=True, capot="NS").score == {"NS": 1000, "EW": 0}
    assert cs(capot, "capot", 4, official=True, capot="NS").score == {"NS": 2000, "EW": 0}


def test_made_needs_the_bid_and_more_than_the_defence():
    assert cs({"NS": 82, "EW": 80}, 80).result == "made"
    assert cs({"NS": 81, "EW": 81}, 80).result == "failed"              # tie = failed
    assert cs({"NS": 89, "EW": 73}, 90, official=True).result == "failed"   # rounding never decides
    assert cs({"NS": 72, "EW": 90}, 80, B={"NS": 20, "EW": 0}).result == "made"   # belote counts
    assert cs({"NS": 72, "EW": 90}, 80).result == "failed"


def test_plain_made_and_failed_house_and_official():
    assert cs({"NS": 95, "EW": 67}, 80).score == {"NS": 175, "EW": 67}
    assert cs({"NS": 95, "EW": 67}, 80, official=True).score == {"NS": 180, "EW": 70}
    assert cs({"NS": 75, "EW": 87}, 80, B={"NS": 20, "EW": 0}, official=True).result == "made"
    assert cs({"NS": 75, "EW": 87}, 100).score == {"NS": 0, "EW": 260}


def test_belote_inside_the_multiplier_for_the_winner_only():
    made = cs({"NS": 100, "EW": 62}, 80, 2, B={"NS": 0, "EW": 20})
    assert made.score == {"NS": (160 + 80) * 2, "EW": 20}
    failed = cs({"NS": 60, "EW": 102}, 80, 2, B={"NS": 20, "EW": 0})
    assert failed.score == {"NS": 20, "EW": (160 + 80) * 2}


def test_row7_combinations_in_coinche_house_and_official():
    K = {"NS": 0, "EW": 50}
    P = {"NS": 120, "EW": 42}
    assert cs(P, 80, K=K).score == {"NS": 200, "EW": 92}
    assert cs(P, 80, K=K, official=True).score == {"NS": 200, "EW": 90}
    assert cs(P, 80, 2, K=K).score == {"NS": 480, "EW": 50}
    assert cs(P, 80, 2, K=K, official=True).score == {"NS": 580, "EW": 0}
    assert cs({"NS": 100, "EW": 62}, 80, K=K).result == "failed"        # combinations count
    assert cs({"NS": 60, "EW": 102}, 80, 2, K={"NS": 20, "EW": 0}).score == {"NS": 20, "EW": 480}
    assert cs({"NS": 60, "EW": 102}, 80, 2, K={"NS": 20, "EW": 0}, official=True).score == {"NS": 0, "EW": 520}
    capot = {"NS": 252, "EW": 0}
    assert cs(capot, 80, K=K, capot="NS").score == {"NS": 332, "EW": 50}
    assert cs(capot, 80, K=K, capot="NS", official=True).score == {"NS": 380, "EW": 0}


def test_a33_all_tricks_beat_any_defence_but_the_bid_must_be_reached():
    capot = {"NS": 252, "EW": 0}
    huge = {"NS": 0, "EW": 350}                     # carrés of jacks and nines in one hand
    assert cs(capot, 80, K=huge, capot="NS").result == "made"
    assert cs(capot, 300, K=huge, capot="NS").result == "failed"
