"""Given / when / then for trump naming, the automatic discard, the `discard` decision for
more than six trumps, the draw, stock exhaustion and the dealer robbing the pack (A.4.4–A.4.8,
CA-5, CA-6, CA-10 and the Clarifications)."""

from __future__ import annotations

import pytest

from cinch_support import arrange, options, run, when
from domain.cards import DECK_52
from domain.cinch import GAME
from domain.cinch.events import CardsDrawn, NonTrumpsDiscarded, PackRobbed, TrumpNamed, TrumpsDiscarded
from domain.cinch.ranking import TABLES
from domain.game import RuleViolation

HEARTS = TABLES["H"].trumps
CLUBS = TABLES["C"].trumps


def refused(state, action):
    with pytest.raises(RuleViolation) as error:
        when(state, action)
    return error.value.code


def bid_and_pass(bidder, value=1, dealer="N"):
    order = {"N": ["E", "S", "W", "N"], "E": ["S", "W", "N", "E"]}[dealer]
    return [{"seat": s, "action": "bid", "value": value} if s == bidder else {"seat": s, "action": "pass"}
            for s in order]


def test_non_trumps_go_face_up_automatically_left_pedro_kept_then_draws_eldest_first():
    hands = {"E": ["AH", "5D", "2S", "3S", "4S", "6S", "7S", "8S", "9S"],     # 5D: the Left Pedro
             "S": ["KH", "QH", "JH", "2C", "3C", "4C", "6C", "7C", "8C"],
             "W": ["TH", "9H", "8H", "7H", "2D", "3D", "4D", "6D", "7D"]}
    stock = ["AS", "KS", "QS", "JS", "TS", "AC", "KC", "QC", "JC", "TC", "9C", "AD", "KD"]
    deck = arrange("N", hands, stock, last=HEARTS)
    state, _ = run(options(), [("N", deck, bid_and_pass("E"))])
    events = when(state, {"seat": "E", "action": "trump", "suit": "H"})
    assert events == [
        TrumpNamed(seat="E", suit="H"),
        NonTrumpsDiscarded(seat="E", cards=("2S", "3S", "4S", "6S", "7S", "8S", "9S")),
        NonTrumpsDiscarded(seat="S", cards=("2C", "3C", "4C", "6C", "7C", "8C")),
        NonTrumpsDiscarded(seat="W", cards=("2D", "3D", "4D", "6D", "7D")),
        CardsDrawn(seat="E", cards=("AS", "KS", "QS", "JS"), count=4),
        CardsDrawn(seat="S", cards=("TS", "AC", "KC"), count=3),
        CardsDrawn(seat="W", cards=("QC", "JC"), count=2),
    ]
    state, _ = GAME.apply(state, GAME.parse_action({"seat": "E", "action": "trump", "suit": "H"}))
    assert state.phase == "rob" and state.deal.turn == "N"
    assert state.deal.hand("E") == ("AH", "5D", "AS", "KS", "QS", "JS")
    assert len(state.deal.stock) == 16 - 9


def test_more_than_six_trumps_the_seat_chooses_which_to_shed():
    hands = {"E": ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "2D", "3D"],
             "S": ["7C", "6C", "5C", "4C", "3C", "2C", "5S", "4D", "6D"]}
    deck = arrange("N", hands, last=CLUBS)
    state, _ = run(options(), [("N", deck, bid_and_pass("E") + [{"seat": "E", "action": "trump", "suit": "C"}])])
    assert state.phase == "discard" and state.deal.turn == "E" and state.deal.pending == ("E", "S")
    assert GAME.legal_actions(state, "E") == [
        {"action": "discard", "cards": {"choose": 1, "from": ["AC", "KC", "QC", "JC", "TC", "9C", "8C"]}}]
    assert GAME.legal_actions(state, "S") == []
    assert refused(state, {"seat": "E", "action": "discard", "cards": ["8C", "9C"]}) == "illegal_discard"
    assert refused(state, {"seat": "E", "action": "discard", "cards": ["7C"]}) == "card_not_in_hand"
    assert refused(state, {"seat": "S", "action": "discard", "cards": ["7C"]}) == "not_your_turn"
    assert refused(state, {"seat": "E", "action": "play", "card": "AC"}) == "wrong_phase"
    assert when(state, {"seat": "E", "action": "discard", "cards": ["8C"]}) == [TrumpsDiscarded(seat="E", cards=("8C",))]
    state, _ = GAME.apply(state, GAME.parse_action({"seat": "E", "action": "discard", "cards": ["8C"]}))
    assert state.deal.turn == "S"
    events = when(state, {"seat": "S", "action": "discard", "cards": ["5S"]})  # may shed a Pedro (CA-5 (a))
    assert events[0] == TrumpsDiscarded(seat="S", cards=("5S",))
    assert [(e.seat, e.count) for e in events[1:]] == [("E", 0), ("S", 0), ("W", 6)]


def test_stock_runs_out_the_face_up_discards_are_reused_in_order():
    # Trumps hearts. E and S hold no trump, W one: they need 6 + 6 + 5 = 17 > 16 cards.
    plain = [c for c in DECK_52 if c not in HEARTS]
    hands = {"E": plain[0:9], "S": plain[9:18], "W": ["2H"] + plain[18:26],
             "N": ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H"]}
    stock = ["5H", "4H", "3H", "5D"] + plain[26:38]
    deck = arrange("N", hands, stock)
    state, _ = run(options(), [("N", deck, bid_and_pass("E"))])
    events = when(state, {"seat": "E", "action": "trump", "suit": "H"})
    draws = [e for e in events if isinstance(e, CardsDrawn)]
    assert draws == [CardsDrawn(seat="E", cards=tuple(stock[0:6]), count=6),
                     CardsDrawn(seat="S", cards=tuple(stock[6:12]), count=6),
                     CardsDrawn(seat="W", cards=tuple(stock[12:16]), count=4, reused=(plain[0],))]
    state, _ = GAME.apply(state, GAME.parse_action({"seat": "E", "action": "trump", "suit": "H"}))
    assert state.deal.reused == (("W", plain[0]),)
    assert len(state.deal.hand("W")) == 6
    # The dealer completes his six from his own nine (he always has nine).
    assert GAME.legal_actions(state, "N") == [
        {"action": "rob", "keep": {"choose": 6, "from": hands["N"]}}]


def test_dealer_robs_keeps_any_six_and_shows_unwanted_trumps():
    hands = {"N": ["AH", "KH", "9H", "8H", "2S", "3S", "4S", "6S", "7S"],
             "E": ["7H", "6H", "5H"], "S": ["4H", "3H", "2H"], "W": ["5D"]}
    deck = arrange("N", hands, [], last=HEARTS)   # QH JH TH end up at the bottom of the stock
    assert deck[-3:] == ["TH", "JH", "QH"]
    state, _ = run(options(), [("N", deck, bid_and_pass("E") + [{"seat": "E", "action": "trump", "suit": "H"}])])
    assert state.phase == "rob"
    assert [(s, n) for s, n in state.deal.drawn] == [("E", 3), ("S", 3), ("W", 5)]
    pool = list(state.deal.hand("N")) + list(state.deal.stock)
    assert pool[:9] == hands["N"] and len(pool) == 9 + 5
    assert GAME.legal_actions(state, "N") == [{"action": "rob", "keep": {"choose": 6, "from": pool}}]
    keep = ["AH", "KH", "QH", "JH", "TH", "2S"]
    assert refused(state, {"seat": "N", "action": "rob", "keep": keep[:5] + ["5H"]}) == "card_not_in_hand"
    assert refused(state, {"seat": "E", "action": "rob", "keep": keep}) == "not_your_turn"
    for bad in (keep[:5], keep[:5] + ["AH"], "AH KH"):
        with pytest.raises(RuleViolation) as error:
            GAME.parse_action({"seat": "N", "action": "rob", "keep": bad})
        assert error.value.code == "bad_action"
    [robbed] = when(state, {"seat": "N", "action": "rob", "keep": keep})
    assert robbed == PackRobbed(seat="N", kept=("AH", "KH", "2S", "TH", "JH", "QH"), took=3, shown=("9H", "8H"),
                                buried=("3S", "4S", "6S", "7S", *pool[9:11]), buried_count=6)
    state, _ = GAME.apply(state, GAME.parse_action({"seat": "N", "action": "rob", "keep": keep}))
    assert state.phase == "play" and state.deal.turn == "E"  # the bidder leads
    assert sorted(state.deal.hand("N")) == sorted(keep) and state.deal.stock == ()
    assert all(len(state.deal.hand(s)) == 6 for s in "NESW")
    assert state.deal.shed == (("N", "9H"), ("N", "8H"))


def test_dealer_may_keep_plain_cards_over_trumps():
    deck = arrange("N", {"N": ["AH", "KH", "2S", "3S", "4S", "6S", "7S", "8S", "9S"]}, last=HEARTS)
    state, _ = run(options(), [("N", deck, bid_and_pass("E") + [{"seat": "E", "action": "trump", "suit": "H"}])])
    [robbed] = when(state, {"seat": "N", "action": "rob", "keep": ["2S", "3S", "4S", "6S", "7S", "8S"]})
    assert "AH" in robbed.shown and "KH" in robbed.shown and robbed.took == 0


def test_individual_mode_deals_and_robs_the_same_way():
    state, _ = run(options(mode="individual"), [("N", arrange("N", {}), bid_and_pass("E"))])
    state, _ = GAME.apply(state, GAME.parse_action({"seat": "E", "action": "trump", "suit": "S"}))
    assert state.phase in ("rob", "discard")
    if state.phase == "rob":
        assert state.deal.turn == "N"
