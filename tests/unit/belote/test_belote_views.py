"""Views and redaction (architecture "Hidden information"): a seat sees its own cards, the
public actions, the turn-up and the tricks; a spectator sees no hand; the two hidden events
are cut down to one seat's cards."""

from __future__ import annotations

import msgspec
from belote_support import act, classic_deck, given, suit_per_seat

from domain.belote import GAME
from domain.belote.events import DealSeen, DealStarted, RestDealt, RestSeen
from domain.cards import Seat
from domain.game import StartDeal


def deal():
    h = suit_per_seat()
    deck = classic_deck("E", {s: h[s][:5] for s in h}, h["N"][5],
                        {"N": h["N"][6:], "W": h["W"][5:], "S": h["S"][5:], "E": h["E"][5:]}, taker="N")
    return deck, given({"variant": "classic"}, "E", deck)


def test_a_seat_sees_its_own_hand_and_the_turn_up():
    _, state = deal()
    view = GAME.view(state, Seat.W)
    assert view.hand == ("7H", "8H", "9H", "TH", "JH")
    assert view.turn_up == "QS" and view.phase == "auction" and view.turn == Seat.N
    assert view.hand_sizes == {Seat.N: 5, Seat.E: 5, Seat.S: 5, Seat.W: 5}
    assert view.legal == []
    assert GAME.view(state, Seat.N).legal == [{"action": "take"}, {"action": "pass"}]


def test_a_spectator_sees_no_hand():
    _, state = deal()
    view = GAME.view(state, None)
    assert view.hand is None and view.legal == []
    text = msgspec.json.encode(view).decode()
    assert all(f'"{c}"' not in text for h in state.deal.hands for c in h)


def test_the_deal_event_shows_each_seat_only_its_cards():
    deck, _ = deal()
    events = GAME.decide(GAME.initial(GAME.parse_options({})),
                         StartDeal(dealer=Seat.E, deck=tuple(deck), fair={"seed": "s3cr3t", "context": "c"}))
    started = events[0]
    assert isinstance(started, DealStarted)
    assert GAME.redact(started, Seat.S) == DealSeen(0, Seat.E, ("7D", "8D", "9D", "TD", "JD"), "QS", {"context": "c"})
    assert GAME.redact(started, None) == DealSeen(0, Seat.E, (), "QS", {"context": "c"})


def test_the_rest_of_the_deal_shows_each_seat_only_its_cards():
    _, state = deal()
    rest = [e for e in GAME.decide(state, GAME.parse_action({"seat": "N", "action": "take"}))
            if isinstance(e, RestDealt)][0]
    counts = {Seat.N: 3, Seat.W: 3, Seat.S: 3, Seat.E: 3}
    assert GAME.redact(rest, Seat.N) == RestSeen(("QS", "KS", "AS"), counts)
    assert GAME.redact(rest, None) == RestSeen((), counts)


def test_public_events_pass_unchanged_and_tricks_show():
    _, state = deal()
    state = act(act(state, "N", "take"), "N", "play", card="AS")
    view = GAME.view(state, Seat.E)
    assert view.trick.cards == ("AS",) and view.contract.trump == "S"
    assert view.turn_up == "QS"                  # still shown: everybody saw it turned
    assert view.calls[0].action == "take"
    assert [c.action for c in GAME.view(state, None).calls] == ["take"]
