"""Views and redaction: a seat sees its own hand, the contractor his kitty and discards,
everyone what is played, nobody another seat's unplayed card; a spectator sees no hand."""

from __future__ import annotations

import msgspec
from five_hundred_support import E, N, S, W, act, bid, contract, deal, discard, hand, pass_, play

from domain.five_hundred import GAME
from domain.five_hundred.events import DealStarted, Discarded, DealSeen, KittyTaken


def test_each_seat_sees_its_own_hand_and_its_legal_actions_only():
    state = deal(dealer=S)
    for i, seat in enumerate((N, E, S, W)):
        view = GAME.view(state, seat)
        assert view.hand == state.deal.hands[i] and view.seat == seat
        assert view.legal == GAME.legal_actions(state, seat)
        others = {c for j, h in enumerate(state.deal.hands) if j != i for c in h} | set(state.deal.kitty)
        assert not others & set(msgspec.json.decode(msgspec.json.encode(view)).get("hand"))
    assert GAME.view(state, W).legal and not GAME.view(state, N).legal
    assert GAME.view(state, W).turn == W and GAME.view(state, W).phase == "auction"
    assert GAME.view(state, N).hand_sizes == {"N": 10, "E": 10, "S": 10, "W": 10} and GAME.view(state, N).kitty_size == 3


def test_a_spectator_sees_no_hand_and_no_legal_actions():
    view = GAME.view(deal(dealer=S), None)
    assert view.hand is None and view.legal == [] and view.seat is None


def test_the_auction_and_the_contract_are_public():
    state = act(deal(dealer=S), bid(W, 7, "S"), pass_(N), bid(E, contract="misere"), pass_(S), pass_(W))
    view = GAME.view(state, S)
    assert view.auction == [{"seat": "W", "action": "bid", "tricks": 7, "suit": "S"}, {"seat": "N", "action": "pass"},
                            {"seat": "E", "action": "bid", "contract": "misere"}, {"seat": "S", "action": "pass"},
                            {"seat": "W", "action": "pass"}]
    assert view.contract == {"seat": "E", "team": "EW", "trump": None, "contract": "misere"}
    assert view.sitting_out == W and view.high_bid == {"action": "bid", "contract": "misere"}


def test_only_the_contractor_sees_the_kitty_and_his_discards():
    state = act(deal(dealer=S, kitty=["JK", "AS", "AH"]), bid(W, 6, "NT"), pass_(N), pass_(E), pass_(S))
    assert {"JK", "AS", "AH"} <= set(GAME.view(state, W).hand)
    assert GAME.view(state, W).kitty_taken == ("JK", "AS", "AH")     # which of his cards came from it
    for seat in (N, E, S, None):
        assert not {"JK", "AS", "AH"} & set(GAME.view(state, seat).hand or ())
        assert GAME.view(state, seat).kitty_taken == ()
    state = act(state, discard(W, ["JK", "AS", "AH"]))
    assert GAME.view(state, W).kitty_taken == ("JK", "AS", "AH")
    assert GAME.view(state, W).discarded == ("JK", "AS", "AH")
    for seat in (N, E, S, None):
        assert GAME.view(state, seat).discarded == ()
        assert "JK" not in msgspec.json.encode(GAME.view(state, seat)).decode()


def test_played_cards_and_tricks_are_public():
    state = contract(N, 6, "S", dealer=W, hands={N: ["AS"]})
    state = act(state, play(N, "AS"))
    view = GAME.view(state, S)
    assert view.trick == {"leader": "N", "cards": ["AS"], "plays": [["N", "AS"]], "winner": None, "led": "S"}
    assert view.turn == E
    while len(state.deal.tricks) < 1:
        seat = state.deal.turn
        state = act(state, {"seat": str(seat), **GAME.legal_actions(state, seat)[0]})
    view = GAME.view(state, None)
    assert view.tricks[0]["cards"][0] == "AS" and sum(view.tricks_won.values()) == 1
    winner = view.tricks[0]["winner"]
    assert view.trick == {"leader": winner, "cards": [], "plays": [], "winner": None, "led": None} and view.turn == winner


def test_the_view_between_deals_shows_results_and_no_hand():
    state = act(deal(dealer=S), pass_(W), pass_(N), pass_(E), pass_(S))
    view = GAME.view(state, N)
    assert view.phase == "awaiting_deal" and view.hand == () and view.legal == [] and view.turn is None
    assert view.deals == [{"deal": 0, "dealer": "S", "contract": None, "result": "thrown_in",
                           "score": {"NS": 0, "EW": 0}, "voided": False, "adjust": {"NS": 0, "EW": 0}}]
    assert view.score == {"NS": 0, "EW": 0} and view.winner is None and not view.match_over


def test_the_deal_event_shows_each_seat_its_own_hand_only():
    state = deal(dealer=S)
    event = DealStarted(deal=0, dealer=S, deck=GAME.deck)
    state = GAME.evolve(GAME.initial(state.options), event)
    for i, seat in enumerate((N, E, S, W)):
        assert GAME.redact(event, seat) == DealSeen(deal=0, dealer=S, seat=seat, hand=state.deal.hands[i])
    assert GAME.redact(event, None) == DealSeen(deal=0, dealer=S, seat=None, hand=())


def test_kitty_and_discard_events_name_cards_to_the_contractor_only():
    taken = KittyTaken(seat=W, cards=("JK", "AS", "AH"))
    assert GAME.redact(taken, W) == taken
    assert GAME.redact(taken, N) == KittyTaken(seat=W) and GAME.redact(taken, None) == KittyTaken(seat=W)
    out = Discarded(seat=W, cards=("JK", "AS", "AH"))
    assert GAME.redact(out, W) == out and GAME.redact(out, E) == Discarded(seat=W)


def test_views_encode_to_json():
    state = contract(E, 8, "H", dealer=N)
    for seat in (N, E, S, W, None):
        assert msgspec.json.decode(msgspec.json.encode(GAME.view(state, seat)))["game"] == "five_hundred"
    assert len(hand(state, E)) == 10


def test_discards_and_unplayed_cards_stay_hidden_after_a_misere_stops():
    from five_hundred_support import contract as won

    state = won(E, kind="misere", dealer=N, hands={E: ["AS", "5S", "6S", "7S", "8S", "9S", "5C", "6C", "7C", "8C"],
                                                   W: ["JK"]})
    discards = state.deal.discards
    while state.phase == "play":
        seat = state.deal.turn
        state = act(state, {"seat": str(seat), **GAME.legal_actions(state, seat)[0]})
    assert GAME.status(state).phase == "awaiting_deal"
    for i, seat in enumerate((N, E, S, W, None)):
        text = msgspec.json.encode(GAME.view(state, seat)).decode()
        if seat != E:  # the contractor remembers his own discards
            assert not any(f'"{c}"' in text for c in discards)
        for j, other in enumerate((N, E, S, W)):
            if other != seat:
                assert not any(f'"{c}"' in text for c in state.deal.hands[j])
