"""B.2.4 and B.5.4: no-trumps — jacks ordinary, the Joker the only trump; leading the Joker
names a suit (not one its holder has shown void in); the Joker follows only when void.
FS-5 is here."""

from __future__ import annotations

from five_hundred_support import E, N, S, W, act, contract, hand, play, refused, when

from domain.five_hundred import GAME
from domain.five_hundred.events import CardPlayed, TrickWon
from domain.five_hundred.play import joker_suits
import msgspec


def legal(state, seat):
    return {a["card"] for a in GAME.legal_actions(state, seat)}


def first_legal(state):
    seat = state.deal.turn
    return {"seat": str(seat), **GAME.legal_actions(state, seat)[0]}


def finish_trick(state, **cards):
    """Play the current trick to its end: the named seats play the given cards, the others
    their first legal action."""
    n = len(state.deal.tricks)
    while len(state.deal.tricks) == n:
        seat = str(state.deal.turn)
        state = act(state, play(state.deal.turn, cards[seat]) if seat in cards else first_legal(state))
    return state


FS5A = {
    S: ["4H", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S"],
    W: ["KH", "QH", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"],
    N: ["AS", "5C", "AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"],
    E: ["JK"],
}


def test_fs5a_the_joker_led_names_a_suit_the_others_follow_it_and_the_joker_wins():
    state = contract(E, 7, "NT", dealer=N, hands=FS5A)
    events = when(state, play(E, "JK", suit="H"))
    assert events == [CardPlayed(seat=E, card="JK", suit="H")]
    state = act(state, play(E, "JK", suit="H"))
    assert state.deal.trick.led == "H"
    assert legal(state, S) == {"4H"}
    state = act(state, play(S, "4H"))
    assert legal(state, W) == {"KH", "QH"}
    state = act(state, play(W, "KH"))
    assert legal(state, N) == set(hand(state, N))  # no heart: anything
    assert when(state, play(N, "5C"))[-1] == TrickWon(number=1, winner=E)


def test_fs5b_the_joker_follows_only_when_void_in_the_suit_led():
    hands = {E: ["JK", "5S", "AD", "5H", "KD", "QD", "JD", "TD", "9D", "8D"], N: ["AH", "KS"]}
    state = contract(E, 7, "NT", dealer=N, hands=hands)
    state = finish_trick(state, E="5H", N="AH")
    assert state.deal.tricks[0].winner == N
    state = act(state, play(N, "KS"))
    assert legal(state, E) == {"5S"}
    assert refused(state, play(E, "JK")) == "illegal_card"


def test_fs5b_void_the_joker_may_be_played_and_wins():
    hands = {E: ["JK", "AD", "5H", "KD", "QD", "JD", "TD", "9D", "8D", "7D"], N: ["AH", "KS"]}
    state = contract(E, 7, "NT", dealer=N, hands=hands)
    state = finish_trick(state, E="5H", N="AH")
    state = act(state, play(N, "KS"))
    assert legal(state, E) == set(hand(state, E)) and "JK" in legal(state, E)
    state = act(state, play(E, "JK"))
    assert "S" in state.deal.void[1]  # following with the Joker shows void in the suit led
    state = finish_trick(state)
    assert state.deal.tricks[1].winner == E


def _void_in_diamonds_then_leading():
    hands = {E: ["JK", "5H", "AS", "5C", "6C", "7C", "8C", "9C", "TC", "JC"], N: ["AH", "AD", "KS"]}
    state = contract(E, 7, "NT", dealer=N, hands=hands)
    state = finish_trick(state, E="5H", N="AH")
    state = finish_trick(state, N="AD", E="5C")   # E shows void in diamonds
    assert state.deal.turn == N
    state = finish_trick(state, N="KS", E="AS")
    assert state.deal.turn == E
    return state


def test_fs5c_the_joker_leader_may_not_name_a_suit_he_has_shown_void_in():
    state = _void_in_diamonds_then_leading()
    assert "D" in state.deal.void[1] and state.deal.turn == E and not state.deal.trick.plays
    jokers = [a for a in GAME.legal_actions(state, E) if a["card"] == "JK"]
    assert sorted(a["suit"] for a in jokers) == ["C", "H", "S"]
    assert refused(state, play(E, "JK", suit="D")) == "illegal_card"
    assert refused(state, play(E, "JK")) == "illegal_card"  # the suit is required
    assert when(state, play(E, "JK", suit="C")) == [CardPlayed(seat=E, card="JK", suit="C")]


def test_a_player_void_in_every_suit_may_name_any():
    # Unreachable in legal play with the Joker still in hand, but the rule is stated:
    state = _void_in_diamonds_then_leading()
    state = msgspec.structs.replace(state, deal=msgspec.structs.replace(state.deal, void=(state.deal.void[0], "SHDC", state.deal.void[2], state.deal.void[3])))
    assert joker_suits(state, 1) == ("S", "H", "D", "C")


def test_fs5d_jacks_rank_between_queen_and_ten_in_no_trumps():
    hands = {N: ["JH", "AS"], E: ["TH", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S"],
             S: ["KH", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D"], W: ["9H", "AC"]}
    state = contract(N, 6, "NT", dealer=W, hands=hands)
    state = act(state, play(N, "JH"), play(E, "TH"))
    assert when(state, play(S, "KH")) == [CardPlayed(seat=S, card="KH")]
    state = act(state, play(S, "KH"))
    assert when(state, play(W, "9H"))[-1].winner == S
    state2 = contract(N, 6, "NT", dealer=W, hands={**hands, S: ["5D", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D",
                                                                    "6D"]})
    state2 = act(state2, play(N, "JH"), play(E, "TH"), play(S, "5D"))
    assert when(state2, play(W, "9H"))[-1].winner == N


def test_no_suit_is_named_when_leading_the_joker_in_a_suit_contract():
    state = contract(N, 7, "S", dealer=W, hands={N: ["JK"]})
    assert refused(state, play(N, "JK", suit="H")) == "illegal_card"
    assert when(state, play(N, "JK")) == [CardPlayed(seat=N, card="JK")]
    state = act(state, play(N, "JK"))
    assert state.deal.trick.led == "S"  # the Joker is a spade: spades must follow
