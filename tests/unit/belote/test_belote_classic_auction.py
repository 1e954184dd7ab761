"""Classic belote's take-or-pass auction (belote.md §3.1-3.3) and sans atout's (§4.1)."""

from __future__ import annotations

from belote_support import act, classic_deck, given, refused, when

from domain.belote import GAME
from domain.belote.events import AuctionClosed, Contract, Named, Passed, RestDealt, ThrownIn, Took
from domain.cards import Seat

# T-01's deal: dealer S, eldest E, turn-up TD.
FIRST = {"E": ["7S", "8S", "9S", "7H", "8H"], "N": ["TS", "JS", "QS", "9H", "TH"],
         "W": ["KS", "AS", "JH", "QH", "KH"], "S": ["AH", "7D", "8D", "9D", "JD"]}
REST = {"E": ["QD", "KD", "AD"], "N": ["7C", "8C"], "W": ["9C", "TC", "JC"], "S": ["QC", "KC", "AC"]}
DECK = classic_deck("S", FIRST, "TD", REST, taker="N")
CLASSIC = {"variant": "classic"}


def round_two() -> object:
    return given(CLASSIC, "S", DECK, [(s, "pass") for s in "ENWS"])


def test_t01_the_deal_gives_five_cards_and_a_turn_up():
    state = given(CLASSIC, "S", DECK)
    assert state.deal.turn_up == "TD"
    assert state.deal.hand(Seat.E) == ("7S", "8S", "9S", "7H", "8H")
    assert state.deal.turn == Seat.E


def test_t01_round_two_legal_names_exclude_the_turn_up_suit():
    state = given(CLASSIC, "S", DECK, [(s, "pass") for s in "ENWS"] + [("E", "pass")])
    legal = GAME.legal_actions(state, Seat.N)
    assert {a.get("suit") for a in legal if a["action"] == "name"} == {"S", "H", "C"}
    assert {"action": "pass"} in legal
    assert refused(state, "N", "name", suit="D") == "illegal_bid"


def test_t01_n_names_spades_gets_turn_up_and_two_and_e_leads():
    state = given(CLASSIC, "S", DECK, [(s, "pass") for s in "ENWS"] + [("E", "pass")])
    events = when(state, "N", "name", suit="S")
    assert events == [Named(Seat.N, "S"),
                      RestDealt({Seat.E: ("QD", "KD", "AD"), Seat.N: ("TD", "7C", "8C"),
                                 Seat.W: ("9C", "TC", "JC"), Seat.S: ("QC", "KC", "AC")}),
                      AuctionClosed(Contract(Seat.N, "NS", "S"))]
    state = act(state, "N", "name", suit="S")
    assert all(len(h) == 8 for h in state.deal.hands)
    assert state.deal.turn == Seat.E and state.deal.phase == "play"


def test_t01_all_pass_twice_throws_in_and_e_deals_next():
    state = given(CLASSIC, "S", DECK, [(s, "pass") for s in "ENWS"] + [(s, "pass") for s in "ENW"])
    assert when(state, "S", "pass") == [Passed(Seat.S), ThrownIn(0)]
    state = act(state, "S", "pass")
    status = GAME.status(state)
    assert status.phase == "awaiting_deal" and status.next_dealer == Seat.E
    assert status.match_score == {"NS": 0, "EW": 0}
    assert GAME.deal_summary(state) == {"contract": None, "result": "thrown_in", "tricks": [],
                                        "points": {"NS": 0, "EW": 0}, "score": {"NS": 0, "EW": 0}}


def test_round_one_take_makes_the_turn_up_suit_trump_and_gives_it_to_the_taker():
    state = given(CLASSIC, "S", DECK, [("E", "pass")])
    events = when(state, "N", "take")
    assert events[0] == Took(Seat.N)
    assert events[-1] == AuctionClosed(Contract(Seat.N, "NS", "D"))
    assert events[1].cards[Seat.N] == ("TD", "7C", "8C")


def test_round_one_offers_take_or_pass_to_the_seat_in_turn_only():
    state = given(CLASSIC, "S", DECK)
    assert GAME.legal_actions(state, Seat.E) == [{"action": "take"}, {"action": "pass"}]
    assert GAME.legal_actions(state, Seat.N) == []
    assert refused(state, "N", "take") == "not_your_turn"


def test_take_in_round_two_and_name_in_round_one_are_illegal_bids():
    assert refused(round_two(), "E", "take") == "illegal_bid"
    assert refused(given(CLASSIC, "S", DECK), "E", "name", suit="S") == "illegal_bid"


def test_coinche_actions_are_not_classic_actions():
    state = given(CLASSIC, "S", DECK)
    assert refused(state, "E", "bid", value=80, suit="S") == "bad_action"
    assert refused(state, "E", "coinche") == "bad_action"


def test_playing_during_the_auction_is_the_wrong_phase():
    assert refused(given(CLASSIC, "S", DECK), "E", "play", card="7S") == "wrong_phase"


# --- sans atout --------------------------------------------------------------------------

SA_REST = {"E": ["QD", "KD", "AD"], "N": ["TD", "7C", "8C"], "W": ["9C", "TC", "JC"], "S": ["QC", "KC", "AC"]}
SA_DECK = classic_deck("S", FIRST, None, SA_REST)
SA = {"variant": "sans_atout"}


def test_sans_atout_has_no_turn_up_and_a_single_round():
    state = given(SA, "S", SA_DECK)
    assert state.deal.turn_up is None
    assert GAME.legal_actions(state, Seat.E) == [{"action": "take"}, {"action": "pass"}]
    state = given(SA, "S", SA_DECK, [(s, "pass") for s in "ENW"])
    assert when(state, "S", "pass") == [Passed(Seat.S), ThrownIn(0)]


def test_sans_atout_take_deals_three_more_to_everyone_and_eldest_leads():
    state = given(SA, "S", SA_DECK, [("E", "pass")])
    events = when(state, "N", "take")
    assert events[1].cards == {Seat.E: ("QD", "KD", "AD"), Seat.N: ("TD", "7C", "8C"),
                               Seat.W: ("9C", "TC", "JC"), Seat.S: ("QC", "KC", "AC")}
    assert events[2] == AuctionClosed(Contract(Seat.N, "NS", None))
    state = act(state, "N", "take")
    assert state.deal.turn == Seat.E


def test_sans_atout_has_no_name_action():
    assert refused(given(SA, "S", SA_DECK), "E", "name", suit="S") == "bad_action"
