"""Combinations (belote.md §2.7): the worked examples T-07..T-11, declaration at trick 1 and
reveal at trick 2, declining, and §6 rows 4-7 under both rule sets."""

from __future__ import annotations

import pytest
from belote_support import (act, classic_deck, coinche_deck, given, play_on, refused, suit_per_seat,
                            when)

from domain.belote import GAME
from domain.belote.combinations import choose, compare, find
from domain.belote.events import CardPlayed, CombinationDeclared, CombinationsCompared, CombinationsDeclined
from domain.cards import Seat


def held(seat, hand, official=False, trump=None, no_trump=False):
    return list(choose(find(Seat(seat), hand.split(), no_trump and official), official, trump))


def outcome(hands, taker_team="NS", trump="S", official=False, no_trump=False):
    """(winning team, points it scores) for hands {seat: "cards"}."""
    declared = {"NS": [], "EW": []}
    for seat, hand in hands.items():
        declared["NS" if seat in "NS" else "EW"].extend(held(seat, hand, official, trump, no_trump))
    team = compare(declared, taker_team, None if no_trump else trump, official)
    return team, sum(c.value for c in declared[team]) if team else 0


BOTH = pytest.mark.parametrize("official", [False, True])


# --- worked examples ----------------------------------------------------------------------------

@BOTH
def test_t07_cinquante_beats_tierce(official):
    hands = {"S": "7H 8H 9H AS TC KD 7C 8D", "W": "TS JS QS KS 9C JD 7S AD"}
    assert [c.kind for c in held("S", hands["S"])] == ["tierce"]
    assert outcome(hands, trump="D", official=official) == ("EW", 50)


@BOTH
def test_t08_carre_of_jacks_and_a_tierce(official):
    hands = {"N": "JS JH JD JC 7D 8D 9D AS", "E": "7C 8C 9C TC QH KH 7H AH"}
    assert outcome(hands, trump="H", official=official) == ("NS", 220)


def test_t09_exact_tie_house_taking_team_official_trump_sequence():
    hands = {"S": "9H TH JH 7C AD KC 8D QD", "E": "9S TS JS 7D AC 8C KH QC"}
    assert outcome(hands, trump="S") == ("NS", 20)
    assert outcome(hands, trump="S", official=True) == ("EW", 20)
    assert outcome(hands, trump="C") == ("NS", 20)
    assert outcome(hands, trump="C", official=True) == (None, 0)
    assert outcome(hands, no_trump=True) == ("NS", 20)
    assert outcome(hands, no_trump=True, official=True) == (None, 0)


@BOTH
def test_t10a_carre_beats_cent(official):
    hands = {"N": "QS QH QD QC 7H 9C AD KS", "W": "7S 8S 9S TS JS AH 8C 7D"}
    assert outcome(hands, trump="H", official=official) == ("NS", 100)


def test_t10b_one_card_in_two_combinations_row6():
    hands = {"S": "KS KH KD KC QH JH 7S 8D", "E": "7C 8C 9C TC AH 9H 7D AS"}
    assert outcome(hands, trump="D") == ("NS", 120)
    assert outcome(hands, trump="D", official=True) == ("NS", 100)
    assert [c.kind for c in held("S", hands["S"], official=True, trump="D")] == ["carré"]


def test_8b_official_never_shortens_a_run_to_free_a_card():
    hand = "KS KH KD KC 9H TH JH QH"
    assert sorted(c.kind for c in held("S", hand)) == ["carré", "cent"]
    assert [c.kind for c in held("S", hand, official=True, trump="H")] == ["carré"]
    assert outcome({"S": hand}, trump="H") == ("NS", 200)
    assert outcome({"S": hand}, trump="H", official=True) == ("NS", 100)


def test_t11_no_trump_carres_row4():
    hands = {"W": "AS AH AD AC 7H 8C 9D QS", "N": "TS TH TD TC 7S 9H 8D JC"}
    assert outcome(hands, no_trump=True) == ("EW", 100)
    assert outcome(hands, no_trump=True, official=True) == ("EW", 200)


def test_sequences_longer_wins_then_higher_top_and_sevens_are_no_carre():
    assert outcome({"N": "7S 8S 9S TS JS QS 7H 7D", "E": "9H TH JH QH KH 8C 7C 8D"}) == ("NS", 100)
    assert outcome({"N": "7S 8S 9S 7H 8H 9C 9D AC", "E": "TH JH QH 7D 8D 7C 8C AS"}) == ("EW", 20)
    assert held("N", "7S 7H 7D 7C 8S 8H 8D 8C") == []


# --- declaration and reveal through the rules --------------------------------------------------

T09_HANDS = {"S": "9H TH JH 7C AD KC 8D QD", "E": "9S TS JS 7D AC 8C KH QC",
             "N": "7S QS AS 7H QH 9D JD 9C", "W": "8S KS 8H AH TD KD TC JC"}


def coinche_with(hands, trump, rules, actions=()):
    deck = coinche_deck("E", {s: h.split() for s, h in hands.items()})
    start = [("N", "bid", {"value": 80, "suit": trump}), ("W", "pass"), ("S", "pass"), ("E", "pass")]
    return given({"variant": "coinche", "rules": rules}, "E", deck, start + list(actions))


def trick_two_first_card(state):
    state = play_on(state, 4)
    seat = state.deal.turn
    card = [a for a in GAME.legal_actions(state, seat) if a["action"] == "play"][0]["card"]
    return when(state, str(seat), "play", card=card)


def test_the_kind_is_declared_with_the_first_card():
    state = coinche_with(T09_HANDS, "S", "house")
    assert when(state, "N", "play", card="7S") == [CardPlayed(Seat.N, "7S")]     # N holds none
    state = act(state, "N", "play", card="7S")
    assert when(state, "W", "play", card="8S") == [CardPlayed(Seat.W, "8S")]
    state = act(state, "W", "play", card="8S")
    assert when(state, "S", "play", card="7C")[0] == CombinationDeclared(Seat.S, "tierce")
    view = GAME.view(act(state, "S", "play", card="7C"), Seat.E)
    assert view.declared == {Seat.S: "tierce"} and view.combinations_shown == ()


@pytest.mark.parametrize("trump,rules,team", [("S", "house", "NS"), ("S", "official", "EW"),
                                              ("C", "house", "NS"), ("C", "official", None)])
def test_row5_ties_resolved_at_trick_two(trump, rules, team):
    events = trick_two_first_card(coinche_with(T09_HANDS, trump, rules))
    compared = events[-1]
    assert isinstance(compared, CombinationsCompared) and compared.team == team
    assert compared.points == (20 if team else 0)
    assert [c.seat for c in compared.shown] == ([Seat.S] if team == "NS" else [Seat.E] if team else [])


@pytest.mark.parametrize("rules,team", [("house", "NS"), ("official", None)])
def test_row5_ties_in_no_trump(rules, team):
    h = {s: t.split() for s, t in T09_HANDS.items()}
    deck = classic_deck("E", {s: h[s][:5] for s in h}, None, {s: h[s][5:] for s in h})
    state = given({"variant": "sans_atout", "rules": rules}, "E", deck, [("N", "take")])
    assert trick_two_first_card(state)[-1].team == team


@pytest.mark.parametrize("rules,points", [("house", 120), ("official", 100)])
def test_row6_through_the_rules(rules, points):
    hands = {"S": "KS KH KD KC QH JH 7S 8D", "E": "7C 8C 9C TC AH 9H 7D AS",
             "N": "8S 9S QS 7H 8H 9D TD QD", "W": "TS JS QC TH JD AD JC AC"}
    compared = trick_two_first_card(coinche_with(hands, "D", rules))[-1]
    assert compared.team == "NS" and compared.points == points


@pytest.mark.parametrize("rules,points", [("house", 100), ("official", 200)])
def test_row4_through_the_rules(rules, points):
    hands = {"W": "AS AH AD AC 7H 8C 9D QS", "N": "TS TH TD TC 7S 9H 8D JC",
             "S": "8S JS KS 8H QH 7D JD 7C", "E": "9S QD KD JH KH 9C QC KC"}
    h = {s: t.split() for s, t in hands.items()}
    deck = classic_deck("E", {s: h[s][:5] for s in h}, None, {s: h[s][5:] for s in h})
    state = given({"variant": "sans_atout", "rules": rules}, "E", deck, [("N", "take")])
    compared = trick_two_first_card(state)[-1]
    assert compared.team == "EW" and compared.points == points


# --- declining (§8b) ------------------------------------------------------------------------------

def suit_deal(**options):
    h = suit_per_seat()
    deck = classic_deck("E", {s: h[s][:5] for s in h}, h["N"][5],
                        {"N": h["N"][6:], "W": h["W"][5:], "S": h["S"][5:], "E": h["E"][5:]}, taker="N")
    return given({"variant": "classic", **options}, "E", deck, [("N", "take")])


def test_declining_is_offered_to_every_holder_in_or_out_of_turn():
    state = suit_deal()
    for seat in Seat:
        assert {"action": "declare", "combinations": False} in GAME.legal_actions(state, seat)
    assert GAME.status(state).to_act == (Seat.N,)       # public: holding a combination is not
    assert when(state, "S", "declare", combinations=False) == [CombinationsDeclined(Seat.S)]
    declined = CombinationsDeclined(Seat.S)
    assert GAME.redact(declined, Seat.S) == declined
    assert [GAME.redact(declined, s) for s in (Seat.N, Seat.E, Seat.W, None)] == [None] * 4
    state = act(state, "S", "declare", combinations=False)
    assert refused(state, "S", "declare", combinations=False) == "illegal_declare"
    assert {"action": "declare", "combinations": False} not in GAME.legal_actions(state, Seat.S)
    state = act(state, "N", "play", card="AS")
    assert refused(state, "N", "declare", combinations=False) == "illegal_declare"


def test_declare_errors():
    assert refused(suit_deal(combinations=False), "N", "declare", combinations=False) == "illegal_declare"
    assert refused(suit_deal(), "N", "declare", combinations=True) == "bad_action"
    no_combination = coinche_with(T09_HANDS, "S", "house")
    assert refused(no_combination, "N", "declare", combinations=False) == "illegal_declare"


def test_a_declined_combination_never_scores():
    state = act(suit_deal(), "N", "declare", combinations=False)
    state = act(state, "N", "play", card="AS")
    assert CombinationDeclared(Seat.N, "cent") not in GAME.decide(state, GAME.parse_action(
        {"seat": "W", "action": "play", "card": "AH"}))
    assert state.deal.declared == {}


@pytest.mark.parametrize("rules,score", [("house", {"NS": 272, "EW": 200}), ("official", {"NS": 472, "EW": 0})])
def test_row7_capot_by_the_takers_with_defenders_combinations(rules, score):
    state = suit_deal(rules=rules)
    state = act(act(state, "N", "declare", combinations=False), "S", "declare", combinations=False)
    summary = GAME.deal_summary(play_on(state))
    assert summary["result"] == "made" and summary["score"] == score


@pytest.mark.parametrize("rules,score", [("house", {"NS": 260, "EW": 200}), ("official", {"NS": 460, "EW": 0})])
def test_row7_dedans_in_coinche_with_the_takers_combinations(rules, score):
    deck = coinche_deck("E", suit_per_seat())
    actions = [("N", "pass"), ("W", "bid", {"value": 80, "suit": "S"}), ("S", "pass"), ("E", "pass"),
               ("N", "pass"), ("N", "declare", {"combinations": False}), ("S", "declare", {"combinations": False})]
    state = play_on(given({"variant": "coinche", "rules": rules}, "E", deck, actions))
    summary = GAME.deal_summary(state)
    assert summary["result"] == "failed" and summary["score"] == score


def test_combinations_count_toward_the_contract_and_show_in_views():
    state = play_on(suit_deal(), 5)
    view = GAME.view(state, None)
    assert view.combinations_team == "NS"               # four equal cents: House gives the takers
    assert {c.seat for c in view.combinations_shown} == {Seat.N, Seat.S}
    assert GAME.deal_summary(play_on(state))["score"] == {"NS": 252 + 20 + 200, "EW": 0}


def test_no_comparison_event_when_nobody_declared():
    state = coinche_with(T09_HANDS, "H", "house")
    state = act(act(state, "E", "declare", combinations=False), "S", "declare", combinations=False)
    assert not any(isinstance(e, CombinationsCompared) for e in trick_two_first_card(state))
    assert GAME.view(play_on(state, 5), None).combinations_team is None
