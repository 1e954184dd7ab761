"""Belote and rebelote (belote.md §2.6, §8b): announced automatically, declinable on the first
K or Q of trump, worth 20, counted toward the contract and kept on dedans."""

from __future__ import annotations

from belote_support import act, classic_deck, given, play_on, suit_per_seat, when

from domain.belote import GAME
from domain.belote.events import CardPlayed
from domain.cards import Seat


def capot_deal():
    h = suit_per_seat()
    deck = classic_deck("E", {s: h[s][:5] for s in h}, h["N"][5],
                        {"N": h["N"][6:], "W": h["W"][5:], "S": h["S"][5:], "E": h["E"][5:]}, taker="N")
    return given({"variant": "classic", "combinations": False}, "E", deck, [("N", "take")])


def finish_trick(state):
    for _ in range(3):
        seat = state.deal.turn
        state = act(state, str(seat), "play", card=GAME.legal_actions(state, seat)[0]["card"])
    return state


def test_the_holder_is_offered_to_decline_on_the_first_king_or_queen_only():
    state = capot_deal()
    assert state.deal.belote_holder == Seat.N
    legal = GAME.legal_actions(state, Seat.N)
    assert {"action": "play", "card": "KS", "belote": False} in legal
    assert {"action": "play", "card": "QS", "belote": False} in legal
    assert {"action": "play", "card": "AS", "belote": False} not in legal
    state = finish_trick(act(state, "N", "play", card="KS"))
    assert not any("belote" in a for a in GAME.legal_actions(state, Seat.N))


def test_belote_then_rebelote_announced_automatically():
    state = capot_deal()
    assert when(state, "N", "play", card="QS") == [CardPlayed(Seat.N, "QS", "belote")]
    state = finish_trick(act(state, "N", "play", card="QS"))
    assert when(state, "N", "play", card="KS", belote=False) == [CardPlayed(Seat.N, "KS", "rebelote")]
    assert GAME.deal_summary(play_on(state))["score"] == {"NS": 272, "EW": 0}


def test_declined_belote_gives_no_rebelote_and_no_20():
    state = capot_deal()
    assert when(state, "N", "play", card="KS", belote=False) == [CardPlayed(Seat.N, "KS")]
    state = finish_trick(act(state, "N", "play", card="KS", belote=False))
    assert when(state, "N", "play", card="QS") == [CardPlayed(Seat.N, "QS")]
    assert GAME.deal_summary(play_on(state))["score"] == {"NS": 252, "EW": 0}


def test_belote_false_with_another_card_is_accepted_and_ignored():
    state = capot_deal()
    assert when(state, "N", "play", card="AS", belote=False) == [CardPlayed(Seat.N, "AS")]
    state = finish_trick(act(state, "N", "play", card="AS", belote=False))
    assert when(state, "N", "play", card="KS") == [CardPlayed(Seat.N, "KS", "belote")]


def test_announces_are_public():
    state = act(capot_deal(), "N", "play", card="KS")
    assert GAME.view(state, Seat.E).announces == ((Seat.N, "belote"),)
