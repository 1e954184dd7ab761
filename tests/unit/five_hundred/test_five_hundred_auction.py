"""B.3 the continuous auction: order, total bid order, misère and open misère timing, passes
final, three passes after a bid, 10NT, all pass. FS-2 is here."""

from __future__ import annotations

import pytest
from five_hundred_support import E, N, S, W, act, bid, deal, pass_, refused, when

from domain.five_hundred import GAME
from domain.five_hundred.bids import BIDS, avondale
from domain.five_hundred.events import BidMade, ContractWon, DealScored, KittyTaken, Passed


def names(state):
    return [a.get("contract") or f"{a['tricks']}{a['suit']}" for a in GAME.legal_actions(state, state.deal.turn)
            if a["action"] == "bid"]


# --- FS-2 ------------------------------------------------------------------------------------

def test_fs2_the_auction_of_the_worked_example():
    state = deal(dealer=S)
    assert state.deal.turn == W
    state = act(state, bid(W, 6, "S"), pass_(N), bid(E, 6, "NT"), bid(S, 7, "D"), pass_(W))
    assert state.deal.turn == E  # N skipped: he has passed
    state = act(state, bid(E, contract="misere"), bid(S, 8, "S"))
    assert state.deal.turn == E  # W and N skipped
    events = when(state, pass_(E))
    assert events[0] == Passed(seat=E)
    assert events[1] == ContractWon(seat=S, tricks=8, suit="S", contract="tricks", value=240)
    assert isinstance(events[2], KittyTaken) and events[2].seat == S and len(events[2].cards) == 3


def test_fs2_rejections():
    state = act(deal(dealer=S), bid(W, 6, "S"), pass_(N), bid(E, 6, "NT"))
    assert refused(state, bid(S, contract="misere")) == "illegal_bid"  # no 7-bid yet
    state = act(state, bid(S, 7, "D"))
    assert refused(state, bid(W, 7, "C")) == "illegal_bid"
    assert refused(state, bid(W, 6, "NT")) == "illegal_bid"
    state = act(state, pass_(W), bid(E, contract="misere"), bid(S, 8, "S"))
    assert refused(state, bid(E, contract="misere")) == "illegal_bid"
    assert refused(state, bid(N, 9, "NT")) == "not_your_turn"  # N has passed


def test_fs2_open_misere_at_any_point_and_only_10h_10nt_over_it():
    state = deal(dealer=S)
    assert "open_misere" in names(state)
    state = act(state, bid(W, contract="open_misere"))
    assert names(state) == ["10H", "10NT"]
    assert refused(state, bid(N, 10, "D")) == "illegal_bid"


# --- Each auction rule -----------------------------------------------------------------------

def test_total_order_and_avondale_values():
    order = [b.describe() for b in BIDS]
    assert order[:5] == ["6S", "6C", "6D", "6H", "6NT"]
    assert order[order.index("7NT") + 1] == "misere" and order[order.index("misere") + 1] == "8S"
    assert order[order.index("10D") + 1] == "open misere" and order[-2:] == ["10H", "10NT"]
    assert [avondale(6, s) for s in ("S", "C", "D", "H", "NT")] == [40, 60, 80, 100, 120]
    assert avondale(10, "NT") == 520 and avondale(8, "S") == 240
    assert {b.kind: b.value for b in BIDS if b.misere} == {"misere": 250, "open_misere": 500}


def test_eldest_bids_first_and_the_minimum_is_6_spades():
    state = deal(dealer=N)
    assert state.deal.turn == E and refused(state, bid(S, 6, "S")) == "not_your_turn"
    assert names(state)[0] == "6S"
    with pytest.raises(Exception):
        GAME.parse_action(bid(E, 5, "NT"))


def test_a_bid_must_outrank_the_current_one_more_tricks_or_a_higher_suit():
    state = act(deal(dealer=N), bid(E, 7, "H"))
    assert refused(state, bid(S, 7, "H")) == "illegal_bid"
    assert refused(state, bid(S, 7, "D")) == "illegal_bid"
    assert when(state, bid(S, 7, "NT")) == [BidMade(seat=S, tricks=7, suit="NT")]
    assert when(state, bid(S, 8, "S")) == [BidMade(seat=S, tricks=8, suit="S")]


def test_misere_only_when_the_highest_bid_is_a_7_bid():
    state = act(deal(dealer=N), bid(E, 7, "S"))
    assert when(state, bid(S, contract="misere")) == [BidMade(seat=S, contract="misere")]
    state = act(deal(dealer=N), bid(E, 6, "NT"))
    assert refused(state, bid(S, contract="misere")) == "illegal_bid"
    state = act(deal(dealer=N), bid(E, 8, "S"))
    assert refused(state, bid(S, contract="misere")) == "illegal_bid"
    assert refused(deal(dealer=N), bid(E, contract="misere")) == "illegal_bid"


def test_misere_is_beaten_by_any_8_bid_but_beats_7nt():
    state = act(deal(dealer=N), bid(E, 7, "S"), bid(S, contract="misere"))
    assert refused(state, bid(W, 7, "NT")) == "illegal_bid"
    assert when(state, bid(W, 8, "S"))


def test_open_misere_may_open_the_auction_and_is_under_10h():
    state = deal(dealer=N)
    assert when(state, bid(E, contract="open_misere")) == [BidMade(seat=E, contract="open_misere")]
    state = act(deal(dealer=N), bid(E, 10, "H"))
    assert refused(state, bid(S, contract="open_misere")) == "illegal_bid"


def test_misere_bids_are_refused_when_the_option_is_off():
    state = act(deal(dealer=N, options={"misere": False}), bid(E, 7, "S"))
    assert refused(state, bid(S, contract="misere")) == "illegal_bid"
    assert refused(state, bid(S, contract="open_misere")) == "illegal_bid"
    assert not {"misere", "open_misere"} & set(names(state))


def test_a_pass_is_final():
    state = act(deal(dealer=N), pass_(E), bid(S, 6, "S"), bid(W, 6, "C"), bid(N, 6, "D"))
    assert state.deal.turn == S  # E skipped
    assert refused(state, bid(E, 7, "NT")) == "not_your_turn"
    assert GAME.legal_actions(state, E) == []


def test_a_player_may_overcall_his_partner():
    state = act(deal(dealer=N), bid(E, 6, "S"), pass_(S))
    assert when(state, bid(W, 6, "C")) == [BidMade(seat=W, tricks=6, suit="C")]


def test_three_passes_after_a_bid_end_the_auction():
    state = act(deal(dealer=N), bid(E, 6, "S"), pass_(S), pass_(W))
    events = when(state, pass_(N))
    assert [type(e) for e in events] == [Passed, ContractWon, KittyTaken]
    assert events[1].seat == E and events[2].cards == state.deal.kitty


def test_the_last_seat_bidding_after_three_passes_wins_at_once():
    state = act(deal(dealer=N), pass_(E), pass_(S), pass_(W))
    events = when(state, bid(N, 6, "S"))
    assert [type(e) for e in events] == [BidMade, ContractWon, KittyTaken] and events[1].seat == N


def test_10nt_ends_the_auction_at_once():
    state = deal(dealer=N)
    events = when(state, bid(E, 10, "NT"))
    assert [type(e) for e in events] == [BidMade, ContractWon, KittyTaken]
    state = act(state, bid(E, 10, "NT"))
    assert state.phase == "discard" and state.deal.turn == E
    assert refused(state, pass_(S)) == "wrong_phase"


def test_all_four_pass_throws_the_hand_in():
    state = act(deal(dealer=N), pass_(E), pass_(S), pass_(W))
    events = when(state, pass_(N))
    assert events == [Passed(seat=N), DealScored(deal=0, result="thrown_in", points={"NS": 0, "EW": 0},
                                                 score={"NS": 0, "EW": 0})]
    state = act(state, pass_(N))
    status = GAME.status(state)
    assert status.phase == "awaiting_deal" and status.next_dealer == E and status.match_score == {"NS": 0, "EW": 0}


def test_legal_calls_are_pass_then_every_higher_bid():
    state = act(deal(dealer=N), bid(E, 9, "NT"))
    actions = GAME.legal_actions(state, S)
    assert actions[0] == {"action": "pass"}
    assert names(state) == ["10S", "10C", "10D", "open_misere", "10H", "10NT"]
    assert GAME.legal_actions(state, W) == []


def test_out_of_phase_and_out_of_turn_codes():
    state = deal(dealer=N)
    assert refused(state, bid(S, 6, "S")) == "not_your_turn"
    assert refused(state, {"seat": "E", "action": "play", "card": state.deal.hands[1][0]}) == "wrong_phase"
    assert refused(state, {"seat": "E", "action": "discard", "cards": list(state.deal.hands[1][:3])}) == "wrong_phase"
    assert refused(state, bid(E, contract="sans_atout")) == "bad_action"


def test_parse_action_reads_the_vocabulary_and_refuses_anything_else():
    from domain.five_hundred.commands import Bid, Discard, Pass, Play
    from domain.game import RuleViolation

    assert GAME.parse_action({"seat": N, "action": "pass"}) == Pass(seat=N)
    assert GAME.parse_action({"seat": "E", "action": "bid", "contract": "open_misere"}) == Bid(seat=E, contract="open_misere")
    assert GAME.parse_action({"seat": "S", "action": "play", "card": "10h"}) == Play(seat=S, card="TH")
    assert GAME.parse_action({"seat": "W", "action": "discard", "cards": ["jk", "10D", "AS"]}) == \
        Discard(seat=W, cards=("JK", "TD", "AS"))
    for bad in [{"seat": ["N"], "action": "pass"}, {"seat": "N", "action": ["play"]}, "pass",
                {"seat": "N", "action": "play", "card": ["AS"]}, {"seat": "N", "action": "discard", "cards": "ASKSQS"},
                {"seat": "N", "action": "bid", "tricks": 7, "suit": "S", "contract": "misere"},
                {"seat": "N", "action": "bid", "tricks": True, "suit": "S"}, {"seat": "N", "action": "bid", "tricks": 7},
                {"seat": "N", "action": "play", "card": "AS", "suit": ["H"]}, {"seat": "N", "action": "pass", "x": 1},
                {"action": "pass"}, {"seat": "N", "action": "discard", "cards": ["AS", "KS", "QS", "JS"]}]:
        with pytest.raises(RuleViolation) as error:
            GAME.parse_action(bad)  # type: ignore[arg-type]
        assert error.value.code == "bad_action", bad
