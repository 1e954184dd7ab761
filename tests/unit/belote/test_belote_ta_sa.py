"""Coinche's tout atout (TA) and sans atout (SA) contracts (docs/rules-belote.md, "Tout atout
and sans atout"): the option, the bids, the legal plays, and two worked deals scored under both
rule sets — plain, coinched, surcoinched, failed, capot, with and without combinations.

The worked deals (dealer E, eldest N leads; every play below is legal, checked by the rules):

  N: JS 9S AS TS  KH QH 8H 7H        W: KS QS 8S 7S  JH 9H AH TH
  S: JD 9D AD TD  KC QC 8C 7C        E: KD QD 8D 7D  JC 9C AC TC

TA (House J14 9 9 A6 T5 K3 Q1 / Official J13 9 9 A6 T5 K3 Q2), N leads his spades, W takes the
hearts:                                                    House   Official
  1 N JS  W KS  S KC  E KD  -> N   14+3+3+3 / 13+3+3+3       23      22
  2 N 9S  W QS  S QC  E QD  -> N   9+1+1+1 / 9+2+2+2         12      15
  3 N AS  W 8S  S 8C  E 8D  -> N                              6       6
  4 N TS  W 7S  S 7C  E 7D  -> N                              5       5
  5 N 7H  W JH  S TD  E TC  -> W   W must go over the 7H     24      23
  6 W 9H  S AD  E AC  N 8H  -> W                             21      21
  7 W AH  S 9D  E 9C  N QH  -> W                             25      26
  8 W TH  S JD  E JC  N KH  -> W   + dix de der 10           46      44
  NS 46 / 48, EW 116 / 114 (162 either way).

SA (House A11 / Official A19; T10 K4 Q3 J2), the same hands:
  1 N AS  W 7S  S 7C  E 7D  -> N                             11      19
  2 N TS  W 8S  S 8C  E 8D  -> N                             10      10
  3 N 9S  W QS  S QC  E QD  -> W   the queen over the nine    9       9
  4 W AH  S 9D  E 9C  N 7H  -> W                             11      19
  5 W TH  S JD  E JC  N 8H  -> W                             14      14
  6 W KS  S KC  E KD  N JS  -> W                             14      14
  7 W JH  S AD  E AC  N QH  -> N   the queen over the jack   27      43
  8 N KH  W 9H  S TD  E TC  -> N   + dix de der 10           34      34
  NS 82 / 106, EW 48 / 56 (130 House, 162 Official).

Each hand holds one tierce to the jack (N spades, W hearts, S diamonds, E clubs): an exact tie.
"""

from __future__ import annotations

import pytest
from belote_support import coinche_deck, given, play_on, refused, suit_per_seat, when

from domain.belote import GAME
from domain.belote.events import AuctionClosed, BidMade, Contract, DealScored, TrickWon
from domain.cards import Seat

HANDS = {"N": "JS 9S AS TS KH QH 8H 7H".split(), "W": "KS QS 8S 7S JH 9H AH TH".split(),
         "S": "JD 9D AD TD KC QC 8C 7C".split(), "E": "KD QD 8D 7D JC 9C AC TC".split()}
TA_PLAYS = ("N JS W KS S KC E KD  N 9S W QS S QC E QD  N AS W 8S S 8C E 8D  N TS W 7S S 7C E 7D "
            "N 7H W JH S TD E TC  W 9H S AD E AC N 8H  W AH S 9D E 9C N QH  W TH S JD E JC N KH").split()
SA_PLAYS = ("N AS W 7S S 7C E 7D  N TS W 8S S 8C E 8D  N 9S W QS S QC E QD  W AH S 9D E 9C N 7H "
            "W TH S JD E JC N 8H  W KS S KC E KD N JS  W JH S AD E AC N QH  N KH W 9H S TD E TC").split()
TA_SA = {"variant": "coinche", "contracts": "suits_ta_sa"}


def deal(auction, rules="house", combinations=False, hands=HANDS):
    return given({**TA_SA, "rules": rules, "combinations": combinations}, "E", coinche_deck("E", hands),
                 [(a[0], a[1], a[2]) if len(a) > 2 else a for a in auction])


def bid(seat, value, suit):
    return (seat, "bid", {"value": value, "suit": suit})


def play_all(state, plays):
    """Play the scripted cards up to the last one; return the state and the last card's events."""
    pairs = list(zip(plays[::2], plays[1::2]))
    for seat, card in pairs[:-1]:
        assert state.deal.turn == Seat(seat), (seat, card)
        state, _ = GAME.apply(state, GAME.parse_action({"seat": seat, "action": "play", "card": card}))
    seat, card = pairs[-1]
    return state, when(state, seat, "play", card=card)


def legal(state, seat):
    return {a["card"] for a in GAME.legal_actions(state, Seat(seat)) if a["action"] == "play"}


# --- the option and the bids -------------------------------------------------------------------

def test_the_option_is_coinche_s_and_named_when_refused():
    assert GAME.parse_options({"variant": "coinche"}).contracts == "suits"
    assert GAME.parse_options(TA_SA).ta_sa
    for raw in ({"variant": "classic", "contracts": "suits_ta_sa"}, {"variant": "sans_atout", "contracts": "suits_ta_sa"},
                {"variant": "coinche", "contracts": "all"}):
        with pytest.raises(Exception) as error:
            GAME.parse_options(raw)
        assert error.value.code == "bad_option" and error.value.details == {"option": "contracts"}
    assert GAME.parse_options({"variant": "classic", "contracts": "suits"}).contracts == "suits"
    assert GAME.rating_pool(TA_SA) == GAME.rating_pool({"variant": "coinche"}) == "belote_coinche"   # D-23


def test_ta_and_sa_are_bid_only_with_the_option():
    plain = given({"variant": "coinche", "combinations": False}, "E", coinche_deck("E", HANDS))
    assert refused(plain, "N", "bid", value=80, suit="TA") == "illegal_bid"
    assert {a["suit"] for a in GAME.legal_actions(plain, Seat.N) if a["action"] == "bid"} == set("SHDC")
    assert refused(plain, "N", "bid", value=80, suit="NT") == "bad_action"
    state = deal([])
    bids = [a for a in GAME.legal_actions(state, Seat.N) if a["action"] == "bid"]
    assert [a["suit"] for a in bids[:6]] == ["S", "H", "D", "C", "TA", "SA"]
    assert {"action": "bid", "value": "capot", "suit": "SA"} in bids
    assert when(state, "N", "bid", value=80, suit="TA") == [BidMade(Seat.N, 80, "TA")]


def test_bids_rank_by_value_only():
    state = deal([bid("N", 90, "TA")])
    assert refused(state, "W", "bid", value=90, suit="SA") == "illegal_bid"
    assert when(state, "W", "bid", value=100, suit="S") == [BidMade(Seat.W, 100, "S")]
    state = deal([bid("N", 90, "S")])
    assert when(state, "W", "bid", value=100, suit="SA") == [BidMade(Seat.W, 100, "SA")]


@pytest.mark.parametrize("suit,trump", [("TA", "TA"), ("SA", None)])
def test_the_contract_s_trump(suit, trump):
    state = deal([bid("N", 80, suit), ("W", "pass"), ("S", "pass")])
    assert when(state, "E", "pass")[-1] == AuctionClosed(Contract(Seat.N, "NS", trump, 80, 1))


# --- play ----------------------------------------------------------------------------------------

PLAY_HANDS = {"N": "9S TS KS QS KH QH KD QD".split(), "W": "JS 8S AH TH 9H JD 9D AD".split(),
              "S": "AS 7S JH TD 7D KC QC 8C".split(), "E": "8H 7H 8D 7C 9C TC JC AC".split()}


def first_trick(suit, *plays):
    auction = [bid("N", 80, suit), ("W", "pass"), ("S", "pass"), ("E", "pass")]
    return deal(auction + [(seat, "play", {"card": card}) for seat, card in zip("NWSE", plays)], hands=PLAY_HANDS)


def test_tout_atout_follow_and_go_over_the_best_card_of_the_suit_led():
    assert legal(first_trick("TA", "9S"), "W") == {"JS"}             # over the nine: only the jack
    assert legal(first_trick("TA", "9S", "JS"), "S") == {"AS", "7S"}  # nothing over the jack: any spade
    assert legal(first_trick("TA", "9S", "JS", "7S"), "E") == set(PLAY_HANDS["E"])   # void: any card
    assert refused(first_trick("TA", "9S"), "W", "play", card="8S") == "illegal_card"


def test_the_best_card_of_the_suit_led_wins_in_tout_atout():
    state = first_trick("TA", "9S", "JS", "AS")
    assert when(state, "E", "play", card="JC")[-1] == TrickWon(Seat.W, 9 + 14 + 6 + 14)   # the jack of clubs: no trump


def test_sans_atout_follow_with_no_obligation_to_go_over():
    assert legal(first_trick("SA", "9S"), "W") == {"JS", "8S"}


@pytest.mark.parametrize("rules,first", [("house", 23), ("official", 22)])
def test_tout_atout_trick_values(rules, first):
    state = deal([("N", "pass"), bid("W", 80, "TA"), ("S", "pass"), ("E", "pass"), ("N", "pass")], rules)
    for seat, card in zip(TA_PLAYS[:6:2], TA_PLAYS[1:6:2]):
        state, _ = GAME.apply(state, GAME.parse_action({"seat": seat, "action": "play", "card": card}))
    assert when(state, "E", "play", card="KD")[-1] == TrickWon(Seat.N, first)
    assert state.deal.belote_holder is None                 # no belote in tout atout


# --- worked deals, scored --------------------------------------------------------------------

TA_CASES = [  # auction, rules, combinations -> (result, points, score)
    ([("N", "pass"), bid("W", 80, "TA"), ("S", "pass"), ("E", "pass"), ("N", "pass")], "house", False,
     ("made", {"NS": 46, "EW": 116}, {"NS": 46, "EW": 196})),
    ([("N", "pass"), bid("W", 80, "TA"), ("S", "pass"), ("E", "pass"), ("N", "pass")], "official", False,
     ("made", {"NS": 48, "EW": 114}, {"NS": 50, "EW": 190})),
    ([("N", "pass"), bid("W", 80, "TA"), ("S", "coinche"), ("E", "pass"), ("W", "pass")], "house", False,
     ("made", {"NS": 46, "EW": 116}, {"NS": 0, "EW": 480})),
    ([("N", "pass"), bid("W", 80, "TA"), ("S", "coinche"), ("E", "surcoinche")], "official", False,
     ("made", {"NS": 48, "EW": 114}, {"NS": 0, "EW": 960})),
    ([("N", "pass"), bid("W", 120, "TA"), ("S", "pass"), ("E", "pass"), ("N", "pass")], "official", False,
     ("failed", {"NS": 48, "EW": 114}, {"NS": 280, "EW": 0})),
    # combinations: four tierces to the jack, an exact tie. House: the takers' two count (40);
    # Official: all four are in trumps, so nobody's count.
    ([("N", "pass"), bid("W", 80, "TA"), ("S", "pass"), ("E", "pass"), ("N", "pass")], "house", True,
     ("made", {"NS": 46, "EW": 116}, {"NS": 46, "EW": 236})),
    ([("N", "pass"), bid("W", 80, "TA"), ("S", "pass"), ("E", "pass"), ("N", "pass")], "official", True,
     ("made", {"NS": 48, "EW": 114}, {"NS": 50, "EW": 190})),
]


@pytest.mark.parametrize("auction,rules,combinations,expected", TA_CASES)
def test_a_tout_atout_deal(auction, rules, combinations, expected):
    _, events = play_all(deal(auction, rules, combinations), TA_PLAYS)
    result, points, score = expected
    assert events[-1] == DealScored(0, result, points, score, 0)


SA_CASES = [
    ([bid("N", 80, "SA"), ("W", "pass"), ("S", "pass"), ("E", "pass")], "house", False,
     ("made", {"NS": 82, "EW": 48}, {"NS": 162, "EW": 48})),
    ([bid("N", 80, "SA"), ("W", "pass"), ("S", "pass"), ("E", "pass")], "official", False,
     ("made", {"NS": 106, "EW": 56}, {"NS": 190, "EW": 60})),
    # 90: 82 of House's 130 fails, 106 of Official's 162 makes
    ([bid("N", 90, "SA"), ("W", "coinche"), ("S", "pass"), ("N", "pass")], "house", False,
     ("failed", {"NS": 82, "EW": 48}, {"NS": 0, "EW": 500})),
    ([bid("N", 90, "SA"), ("W", "coinche"), ("S", "pass"), ("N", "pass")], "official", False,
     ("made", {"NS": 106, "EW": 56}, {"NS": 500, "EW": 0})),
    ([bid("N", 90, "SA"), ("W", "coinche"), ("S", "surcoinche")], "official", False,
     ("made", {"NS": 106, "EW": 56}, {"NS": 1000, "EW": 0})),
    # combinations: the tie again; House: the takers' two tierces (40), Official: nobody's
    ([bid("N", 90, "SA"), ("W", "pass"), ("S", "pass"), ("E", "pass")], "house", True,
     ("made", {"NS": 82, "EW": 48}, {"NS": 212, "EW": 48})),
    ([bid("N", 90, "SA"), ("W", "pass"), ("S", "pass"), ("E", "pass")], "official", True,
     ("made", {"NS": 106, "EW": 56}, {"NS": 200, "EW": 60})),
]


@pytest.mark.parametrize("auction,rules,combinations,expected", SA_CASES)
def test_a_sans_atout_deal(auction, rules, combinations, expected):
    _, events = play_all(deal(auction, rules, combinations), SA_PLAYS)
    result, points, score = expected
    assert events[-1] == DealScored(0, result, points, score, 0)


CAPOT_CASES = [  # N holds every spade and takes every trick
    ("TA", 80, 1, "house", {"NS": 332, "EW": 0}),          # 152 + 100, + 80
    ("TA", 80, 1, "official", {"NS": 330, "EW": 0}),
    ("TA", "capot", 1, "official", {"NS": 500, "EW": 0}),  # 252 + 250, rounded
    ("TA", "capot", 2, "house", {"NS": 820, "EW": 0}),     # (160 + 250) x 2: House's coinched base
    ("TA", "capot", 2, "official", {"NS": 1000, "EW": 0}),  # (250 + 250) x 2
    ("SA", "capot", 1, "house", {"NS": 470, "EW": 0}),     # 120 + 100, + 250
    ("SA", "capot", 4, "official", {"NS": 2000, "EW": 0}),
]


@pytest.mark.parametrize("suit,value,multiplier,rules,score", CAPOT_CASES)
def test_capot(suit, value, multiplier, rules, score):
    auction = [bid("N", value, suit), ("W", "coinche") if multiplier > 1 else ("W", "pass")]
    auction += [("S", "surcoinche")] if multiplier == 4 else [("S", "pass"), ("N", "pass")] if multiplier == 2 \
        else [("S", "pass"), ("E", "pass")]
    state = play_on(deal(auction, rules, hands=suit_per_seat()), 31)
    events = when(state, "E", "play", card=next(iter(legal(state, "E"))))
    assert state.deal.contract.multiplier == multiplier
    assert events[-1].result == "made" and events[-1].score == score


@pytest.mark.parametrize("suit,rules,value", [("TA", "house", 200), ("TA", "official", 200),
                                              ("SA", "house", 200), ("SA", "official", 100)])
def test_carre_of_jacks(suit, rules, value):
    """TA keeps the trump carré table (FFB §11.3); SA is Variant B's (§6 row 4)."""
    hands = {"N": ["JS", "JH", "JD", "JC"]}
    state = deal([bid("N", 80, suit), ("W", "pass"), ("S", "pass"), ("E", "pass")], rules, True, hands)
    assert [(c.kind, c.value) for c in state.deal.combinations[Seat.N] if c.kind == "carré"] == [("carré", value)]
