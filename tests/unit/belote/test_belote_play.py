"""Legal plays R1-R5 (belote.md §2.5) under both rule sets, the worked tricks T-02..T-06,
and the trick winner (§2.4)."""

from __future__ import annotations

import pytest
from belote_support import classic_deck, coinche_play, given, legal_cards, refused, when

from domain.belote.events import CardPlayed, TrickWon
from domain.cards import Seat

RULES = ("house", "official")

T02 = {"N": "AS 7S TS KS 7D 8D 9D TD", "W": "KD QD JD AD 7C 8C 9C TC",
       "S": "9S QS 7H 8H 9H JC QC KC", "E": "JS 8S TH JH QH KH AH AC"}
T03 = {"N": "AC 9C TC JC QC KC AH KH", "W": "8C 7C 8H 9H TH AS KS QS",
       "S": "JH 7H TS QD 7S 8D 9D TD", "E": "QH 8S 7D 9S JS JD KD AD"}
T04 = {"N": "AH KH QH JH TH 9H 8H 7H", "W": "9S KS QS AS KD QD JD 9D",
       "S": "8S 7S 8D TC 7D 9C JC QC", "E": "JS AD 7C TS TD AC KC 8C"}
T05 = {"N": "KS AS QS JS TS 9S 8S 7S", "W": "TD 9D JD QD KD 7H 9H TH",
       "S": "7D 8H 9C JH QH 7C 8C TC", "E": "AD 8D QC KH AH JC KC AC"}
R4 = {"N": "AC 9C TC JC QC KC AH KH", "W": "8C 7C 9H TH AS KS QS JS",
      "S": "JH 8H TS QD 7S 8D 9D TD", "E": "QH 7H 8S 7D 9S JD KD AD"}


def hands(table: dict[str, str]) -> dict[str, list[str]]:
    return {seat: text.split() for seat, text in table.items()}


def deal(table, trump, plays=(), rules="house", leader="N"):
    return coinche_play({"rules": rules}, leader, hands(table), trump,
                        [tuple(p.split()) for p in plays])


# --- R1: follow suit ---------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_r1_a_seat_holding_the_led_suit_must_follow(rules):
    state = deal(T03, "H", ["N AC"], rules)
    assert legal_cards(state, "W") == {"8C", "7C"}
    assert refused(state, "W", "play", card="AS") == "illegal_card"


# --- R2: trump led, overtrump even the partner ---------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_t02_r2_must_overtrump_even_when_partner_is_master(rules):
    state = deal(T02, "S", ["N AS", "W KD"], rules)
    assert legal_cards(state, "S") == {"9S"}
    assert refused(state, "S", "play", card="QS") == "illegal_card"
    state = deal(T02, "S", ["N AS", "W KD", "S 9S"], rules)
    assert legal_cards(state, "E") == {"JS"}
    assert when(state, "E", "play", card="JS") == [CardPlayed(Seat.E, "JS"), TrickWon(Seat.E, 49)]


@pytest.mark.parametrize("rules", RULES)
def test_r2_without_a_higher_trump_any_trump(rules):
    state = deal(T02, "S", ["E JS"], rules, leader="E")
    assert legal_cards(state, "N") == {"AS", "7S", "TS", "KS"}


# --- R3: partner master, free -------------------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_t03_r3_partner_master_any_card(rules):
    state = deal(T03, "H", ["N AC", "W 8C"], rules)
    assert legal_cards(state, "S") == set(T03["S"].split())


@pytest.mark.parametrize("rules", RULES)
def test_t05_r3_may_undertrump_the_partner(rules):
    state = deal(T05, "D", ["N KS", "W TD", "S 7D"], rules)
    assert legal_cards(state, "E") == set(T05["E"].split())        # incl. 8D under partner's TD
    assert when(state, "E", "play", card="QC") == [CardPlayed(Seat.E, "QC"), TrickWon(Seat.W, 17)]


# --- R4: void, partner not master ------------------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_r4a_no_trump_in_hand_any_card(rules):
    table = {"N": "AH KH QH JH TH 9H 8H 7H", "W": "7D 8D 9D TD 7C 8C 9C TC"}
    state = deal(table, "S", ["N AH"], rules)
    assert legal_cards(state, "W") == set(table["W"].split())


@pytest.mark.parametrize("rules", RULES)
def test_t03_r4b_opponent_master_no_trump_yet_must_trump(rules):
    state = deal(T03, "H", ["N AC", "W 8C", "S TS"], rules)
    assert legal_cards(state, "E") == {"QH"}
    assert when(state, "E", "play", card="QH") == [CardPlayed(Seat.E, "QH"), TrickWon(Seat.E, 24)]


@pytest.mark.parametrize("rules", RULES)
def test_t04_r4b_any_trump_when_none_is_on_the_table(rules):
    state = deal(T04, "S", ["N AH"], rules)
    assert legal_cards(state, "W") == {"9S", "KS", "QS", "AS"}


@pytest.mark.parametrize("rules", RULES)
def test_r4c_opponent_trumped_must_overtrump_when_able(rules):
    state = deal(R4, "H", ["N AC", "W 8C", "S 8H"], rules)
    assert legal_cards(state, "E") == {"QH"}
    assert refused(state, "E", "play", card="7H") == "illegal_card"


def test_r4d_house_must_play_a_lower_trump():
    state = deal(R4, "H", ["N AC", "W 8C", "S JH"], "house")
    assert legal_cards(state, "E") == {"QH", "7H"}


def test_r4d_official_may_discard():
    state = deal(R4, "H", ["N AC", "W 8C", "S JH"], "official")
    assert legal_cards(state, "E") == set(R4["E"].split())


# --- §6 row 8 through the worked examples ---------------------------------------------------

def test_t04_row8_house_pisser():
    state = deal(T04, "S", ["N AH", "W 9S"], "house")
    assert legal_cards(state, "S") == {"8S", "7S"}
    assert refused(state, "S", "play", card="8D") == "illegal_card"
    state = deal(T04, "S", ["N AH", "W 9S", "S 7S"], "house")
    assert legal_cards(state, "E") == set(T04["E"].split())
    assert when(state, "E", "play", card="AD") == [CardPlayed(Seat.E, "AD"), TrickWon(Seat.W, 36)]


def test_t04_row8_official_discard_allowed():
    state = deal(T04, "S", ["N AH", "W 9S"], "official")
    assert legal_cards(state, "S") == set(T04["S"].split())
    state = deal(T04, "S", ["N AH", "W 9S", "S 8D"], "official")
    assert when(state, "E", "play", card="AD") == [CardPlayed(Seat.E, "AD"), TrickWon(Seat.W, 36)]


def test_t05_row8_house_and_official():
    assert legal_cards(deal(T05, "D", ["N KS", "W TD"], "house"), "S") == {"7D"}
    assert legal_cards(deal(T05, "D", ["N KS", "W TD"], "official"), "S") == set(T05["S"].split())


# --- R5: trump led, no trump ------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_r5_void_in_trump_when_trump_is_led_any_card(rules):
    state = deal(T02, "S", ["N AS"], rules)
    assert legal_cards(state, "W") == set(T02["W"].split())


# --- no trump (T-06) ---------------------------------------------------------------------------

T06 = {"N": "QS 7S 8S 7D 8D 9D TD JD", "W": "TS JS KS AS 7H 8H 9H TH",
       "S": "AH JH QH KH 7C 8C 9C TC", "E": "9S QD KD AD JC QC KC AC"}


def sans_atout(rules, plays):
    h = hands(T06)
    first = {s: h[s][:5] for s in h}
    rest = {s: h[s][5:] for s in h}
    actions = [("N", "take")] + [(p.split()[0], "play", {"card": p.split()[1]}) for p in plays]
    return given({"variant": "sans_atout", "rules": rules, "combinations": False}, "E",
                 classic_deck("E", first, None, rest), actions)


@pytest.mark.parametrize("rules,points", [("house", 24), ("official", 32)])
def test_t06_no_trump_trick_and_row3_ace_value(rules, points):
    state = sans_atout(rules, ["N QS"])
    assert legal_cards(state, "W") == {"TS", "JS", "KS", "AS"}
    state = sans_atout(rules, ["N QS", "W TS"])
    assert legal_cards(state, "S") == set(T06["S"].split())
    state = sans_atout(rules, ["N QS", "W TS", "S AH"])
    assert legal_cards(state, "E") == {"9S"}
    assert when(state, "E", "play", card="9S") == [CardPlayed(Seat.E, "9S"), TrickWon(Seat.W, points)]


# --- turn and hand checks -----------------------------------------------------------------------

def test_a_card_not_held_and_a_card_out_of_turn():
    state = deal(T02, "S", [])
    assert refused(state, "W", "play", card="KD") == "not_your_turn"
    assert refused(state, "N", "play", card="JS") == "card_not_in_hand"
    assert refused(state, "N", "bid", value=90, suit="S") == "wrong_phase"
