"""Given / when / then for the play (A.5, CA-3): the bidder leads; trump led -> trump if able;
plain led -> may always trump, else follow if able, else anything; the Left Pedro is a trump
and no card of its printed suit; highest trump wins, else the highest card of the led suit."""

from __future__ import annotations

import pytest

from cinch_support import options, run, to_first_lead, when
from domain.cinch import GAME
from domain.cinch.events import CardPlayed, TrickWon
from domain.cinch.play import legal_cards
from domain.cinch.ranking import TABLES
from domain.game import RuleViolation
from domain.tricks import Trick, play_to_trick

HANDS = {  # trumps hearts (Left Pedro 5D); N deals, E bids and leads
    "E": ["KD", "7S", "AH", "2H", "KH", "QH"],
    "S": ["5D", "QS", "2S", "9H", "6C", "7C"],   # 5D is S's only "diamond": he is void in diamonds
    "W": ["JS", "4H", "3H", "KC", "8D", "9D"],
    "N": ["QD", "JD", "TD", "8C", "9C", "3S"],   # no trump at all
}


def at_first_lead():
    deck, actions = to_first_lead("N", "E", 2, "H", HANDS)
    state, _ = run(options(), [("N", deck, actions)])
    return state


def play(seat, card):
    return {"seat": seat, "action": "play", "card": card}


def apply(state, *plays):
    for seat, card in plays:
        state, _ = GAME.apply(state, GAME.parse_action(play(seat, card)))
    return state


def refused(state, action):
    with pytest.raises(RuleViolation) as error:
        when(state, action)
    return error.value.code


def legal(state, seat):
    return {a["card"] for a in GAME.legal_actions(state, seat)}


def test_the_bidder_leads_any_card():
    state = at_first_lead()
    assert state.deal.turn == "E" and legal(state, "E") == set(HANDS["E"])
    assert refused(state, play("S", "QS")) == "not_your_turn"
    assert refused(state, play("E", "QS")) == "card_not_in_hand"
    assert refused(state, play("E", "JK")) == "bad_action"
    assert when(state, play("E", "KD")) == [CardPlayed(seat="E", card="KD")]


def test_plain_lead_void_holder_of_the_left_pedro_may_play_anything():
    state = apply(at_first_lead(), ("E", "KD"))
    assert legal(state, "S") == set(HANDS["S"])   # 5D is not a diamond (A.5.4)


def test_plain_lead_follow_or_trump_but_not_discard():
    state = apply(at_first_lead(), ("E", "KD"), ("S", "5D"))
    assert legal(state, "W") == {"8D", "9D", "4H", "3H"}
    assert refused(state, play("W", "KC")) == "illegal_card"
    state = apply(state, ("W", "8D"))
    assert legal(state, "N") == {"QD", "JD", "TD"}
    assert refused(state, play("N", "8C")) == "illegal_card"


def test_the_left_pedro_trumps_a_plain_lead_and_wins_for_the_trick_winner():
    state = apply(at_first_lead(), ("E", "KD"), ("S", "5D"), ("W", "8D"))
    assert when(state, play("N", "QD")) == [CardPlayed(seat="N", card="QD"), TrickWon(number=1, winner="S")]
    state = apply(state, ("N", "QD"))
    assert state.deal.turn == "S"                       # the winner leads
    assert GAME.deal_summary(state)["points"] == {"NS": 5, "EW": 0}


def test_trump_led_must_trump_if_able_else_anything():
    state = apply(at_first_lead(), ("E", "KD"), ("S", "5D"), ("W", "8D"), ("N", "QD"), ("S", "9H"))
    assert legal(state, "W") == {"4H", "3H"}
    assert refused(state, play("W", "9D")) == "illegal_card"
    state = apply(state, ("W", "4H"))
    assert legal(state, "N") == {"JD", "TD", "8C", "9C", "3S"}   # no trump: anything
    state = apply(state, ("N", "8C"))
    assert legal(state, "E") == {"AH", "2H", "KH", "QH"}
    assert when(state, play("E", "AH"))[-1] == TrickWon(number=2, winner="E")


def test_left_pedro_led_is_a_trump_lead():
    table = TABLES["H"]
    trick = play_to_trick(Trick(leader="S"), "S", "5D", table.rules)
    assert trick.led == "H"
    assert legal_cards(("8D", "9D", "4H"), trick, table) == ("4H",)
    assert set(legal_cards(("8D", "9D"), trick, table)) == {"8D", "9D"}


def test_highest_card_of_the_led_suit_wins_without_trumps_off_suit_cannot_win():
    state = apply(at_first_lead(), ("E", "KD"), ("S", "5D"), ("W", "8D"), ("N", "QD"),
                  ("S", "9H"), ("W", "4H"), ("N", "8C"), ("E", "AH"))
    assert state.deal.turn == "E"
    state = apply(state, ("E", "7S"))
    assert legal(state, "S") == {"QS", "2S"}
    state = apply(state, ("S", "QS"))
    assert legal(state, "W") == {"JS", "3H"}
    state = apply(state, ("W", "JS"))
    assert legal(state, "N") == {"3S"}
    assert when(state, play("N", "3S"))[-1] == TrickWon(number=3, winner="S")
    table = TABLES["H"]
    trick = Trick(leader="N")
    for seat, card in (("N", "2C"), ("E", "AS"), ("S", "KD"), ("W", "3C")):
        trick = play_to_trick(trick, seat, card, table.rules)
    from domain.tricks import current_winner
    assert current_winner(trick, table.rules) == "W"


def test_six_tricks_end_the_deal_and_no_play_after():
    state = at_first_lead()
    import random
    rng = random.Random(5)
    while state.phase == "play":
        seat = state.deal.turn
        state, _ = GAME.apply(state, GAME.parse_action(
            {"seat": seat, **rng.choice(GAME.legal_actions(state, seat))}))
    assert len(state.deal.tricks) == 6 and all(not h for h in state.deal.hands)
    assert state.phase in ("awaiting_deal", "match_over")
    assert refused(state, play("E", "AS")) == "deal_over"
    assert GAME.status(state).phase == "awaiting_deal" and GAME.status(state).next_dealer == "E"
