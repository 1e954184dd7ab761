"""B.4 the kitty and B.5 play in trick contracts: the contractor leads, following by effective
suit (bowers and the Joker are trumps), no obligation to trump, the trick winner. FS-3 and
FS-4 are here."""

from __future__ import annotations

from five_hundred_support import E, N, S, W, act, bid, contract, deal, discard, hand, pass_, play, refused, when

from domain.five_hundred import GAME
from domain.five_hundred.events import CardPlayed, Discarded, TrickWon


def legal(state, seat):
    return {a["card"] for a in GAME.legal_actions(state, seat)}


# --- B.4 the kitty ---------------------------------------------------------------------------

def _won_auction():
    state = deal(dealer=N, hands={E: ["AS", "KS", "QS"]}, kitty=["JK", "JH", "JD"])
    return act(state, bid(E, 6, "H"), pass_(S), pass_(W), pass_(N))


def test_the_contractor_takes_the_kitty_unseen_and_discards_any_three():
    state = _won_auction()
    assert {"JK", "JH", "JD"} <= set(hand(state, E)) and len(hand(state, E)) == 13
    assert GAME.legal_actions(state, E) == [{"action": "discard",
                                             "cards": {"choose": 3, "from": list(hand(state, E))}}]
    assert GAME.legal_actions(state, S) == []
    events = when(state, discard(E, ["AS", "JK", "KS"]))  # kitty cards and own cards alike
    assert events == [Discarded(seat=E, cards=("AS", "JK", "KS"))]
    state = act(state, discard(E, ["AS", "JK", "KS"]))
    assert "JK" not in hand(state, E) and state.deal.discards == ("AS", "JK", "KS")
    assert state.phase == "play" and state.deal.turn == E  # B.5.1: the contractor leads


def test_discard_errors():
    state = _won_auction()
    assert refused(state, discard(E, ["AS", "KS"])) == "bad_action"
    assert refused(state, discard(E, ["AS", "AS", "KS"])) == "bad_action"
    assert refused(state, discard(E, ["AS", "KS", "2S"])) == "card_not_in_hand"
    not_held = next(c for c in hand(state, S))
    assert refused(state, discard(E, ["AS", "KS", not_held])) == "card_not_in_hand"
    assert refused(state, discard(S, list(hand(state, S)[:3]))) == "not_your_turn"
    assert refused(state, play(E, "AS")) == "wrong_phase"


# --- B.5 following by effective suit -----------------------------------------------------------

FS3_HANDS = {
    N: ["AD", "KD", "QD", "9D", "8D", "7D", "6D", "5D", "AH", "KH"],
    E: ["JD", "KS", "9C", "QS", "TS", "9S", "8S", "7S", "6S", "5S"],
    W: ["4H", "5H", "6H", "7H", "8H", "AC", "KC", "QC", "JC", "TC"],
    S: ["4D"],
}


def test_fs3a_the_left_bower_is_a_trump_and_its_holder_is_void_in_its_printed_suit():
    state = contract(N, 8, "H", dealer=W, hands=FS3_HANDS)
    state = act(state, play(N, "AD"))
    assert legal(state, E) == set(hand(state, E))  # J♦ is a heart: E is void in diamonds
    state = act(state, play(E, "JD"), play(S, "4D"))
    events = when(state, play(W, "4H"))
    assert events == [CardPlayed(seat=W, card="4H"), TrickWon(number=1, winner=E)]  # left bower > 4♥
    state = act(state, play(W, "4H"))
    assert state.deal.turn == E and state.deal.tricks[0].winner == E


def test_fs3b_the_left_bower_must_follow_a_trump_lead():
    hands = {S: ["9H", "AH", "KH"], W: ["JD", "KD", "QD", "TD", "9D", "8D", "AS", "KS", "AC", "KC"]}
    state = contract(S, 8, "H", dealer=E, hands=hands)
    state = act(state, play(S, "9H"))
    assert legal(state, W) == {"JD"}
    assert refused(state, play(W, "KD")) == "illegal_card"


def test_fs4_the_joker_is_a_trump_and_follows_only_trumps():
    hands = {N: ["AC", "AS"], E: ["JK", "7C", "5H", "AH", "KH", "QH", "TH", "9H", "8H", "7H"],
             S: ["TC"]}
    state = contract(N, 7, "S", dealer=W, hands=hands)
    state = act(state, play(N, "AC"))
    assert legal(state, E) == {"7C"}
    assert refused(state, play(E, "JK")) == "illegal_card"


def test_fs4_a_void_player_trumps_with_the_joker_and_wins():
    hands = {N: ["AC", "AS"], E: ["7C"], S: ["TC"],
             W: ["JK", "AH", "KH", "QH", "TH", "9H", "8H", "AD", "KD", "QD"]}
    state = contract(N, 7, "S", dealer=W, hands=hands)
    state = act(state, play(N, "AC"), play(E, "7C"), play(S, "TC"))
    assert legal(state, W) == set(hand(state, W))  # void in clubs
    assert when(state, play(W, "JK"))[-1] == TrickWon(number=1, winner=W)


def test_fs4_the_joker_must_follow_the_right_bower_and_beats_it():
    hands = {S: ["JS", "AS"], W: ["JK", "AH", "KH", "QH", "TH", "9H", "8H", "AD", "KD", "QD"]}
    state = contract(S, 7, "S", dealer=E, hands=hands)
    state = act(state, play(S, "JS"))
    assert legal(state, W) == {"JK"}
    state = act(state, play(W, "JK"))
    n_card = next(iter(legal(state, N)))
    state = act(state, play(N, n_card))
    assert when(state, play(E, next(iter(legal(state, E)))))[-1].winner == W


def test_follow_suit_if_able_else_any_card_no_obligation_to_trump():
    hands = {N: ["AC", "KC"], E: ["QC", "5C", "AH", "KH", "QH", "AS", "KS", "QS", "JS", "TS"],
             S: ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D"]}
    state = contract(N, 6, "H", dealer=W, hands=hands)
    state = act(state, play(N, "AC"))
    assert legal(state, E) == {"QC", "5C"}
    assert refused(state, play(E, "AH")) == "illegal_card"
    state = act(state, play(E, "5C"))
    assert legal(state, S) == set(hand(state, S))  # void: discards a diamond, need not trump


def test_the_highest_of_the_suit_led_wins_when_no_trump_is_played():
    # Hearts trump: J♣ is a plain club (only spades would make it the left bower).
    hands = {N: ["KC", "AS"], E: ["QC", "KS", "QS", "TS", "9S", "8S", "7S", "6S", "5S", "JS"],
             S: ["5C", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D"], W: ["JC", "AC"]}
    state = contract(N, 6, "H", dealer=W, hands=hands)
    state = act(state, play(N, "KC"), play(E, "QC"), play(S, "5C"))
    assert when(state, play(W, "JC"))[-1].winner == N
    assert when(state, play(W, "AC"))[-1].winner == W


def test_the_highest_trump_wins_whatever_was_led():
    hands = {N: ["KC", "AS"], E: ["4H", "KS", "QS", "TS", "9S", "8S", "7S", "6S", "5S", "JS"],
             S: ["5H", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D"], W: ["AC"]}
    state = contract(N, 6, "H", dealer=W, hands=hands)
    state = act(state, play(N, "KC"), play(E, "4H"), play(S, "5H"))
    assert when(state, play(W, "AC"))[-1].winner == S


def test_play_errors():
    state = contract(N, 6, "S", dealer=W, hands={N: ["AS"], E: ["KS"]})
    assert refused(state, play(E, "KS")) == "not_your_turn"
    assert refused(state, play(N, hand(state, E)[0])) == "card_not_in_hand"
    assert refused(state, play(N, "AS", suit="H")) == "illegal_card"  # a suit only with a Joker lead in NT
    assert refused(state, play(N, "AS", suit="NT")) == "bad_action"
    assert refused(state, bid(N, 7, "S")) == "wrong_phase"
    assert refused(state, {"seat": "N", "action": "play", "card": "1S"}) == "bad_action"
    assert refused(state, {"seat": "N", "action": "play", "card": "AS", "belote": False}) == "bad_action"
    assert when(state, {"seat": "N", "action": "play", "card": "as"}) == [CardPlayed(seat=N, card="AS")]


def test_ten_tricks_then_the_deal_is_scored():
    state = contract(N, 6, "NT", dealer=W)
    for _ in range(40):
        seat = state.deal.turn
        state = act(state, {"seat": str(seat), **GAME.legal_actions(state, seat)[0]})
    assert len(state.deal.tricks) == 10 and GAME.status(state).phase == "awaiting_deal"
    assert sum(state.history[-1].points) == 10
