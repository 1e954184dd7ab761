"""Coinche `basic` bidding: each rule a given view and the decision it must give — an
opening at the hand's value, a raise only with real support and only once, a coinche and
a surcoinche when the hands say so, a capot when it is there — and the deal where N–S
used to raise each other to 650 and go down."""

from __future__ import annotations

import random

import pytest

from domain.belote import GAME
from domain.belote.options import Options
from domain.belote.state import Deal, State
from domain.bots import policy_for
from domain.bots.belote_auction import defence_value, own_value, support_value, sure_capot
from domain.cards import DECK_32, SEATS, Seat
from domain.game import StartDeal

N, W, S, E = Seat.N, Seat.W, Seat.S, Seat.E
BOT = policy_for("belote", "basic")


def auction(hands: dict[Seat, tuple[str, ...]], calls: list[dict], rules: str = "house") -> State:
    """A Coinche auction (dealer E, so N speaks first, then W, S, E) with the given hands
    (the other seats share the rest of the pack) after `calls`."""
    rest = [c for c in DECK_32 if not any(c in h for h in hands.values())]
    full = {}
    for seat in (N, W, S, E):
        full[seat] = hands.get(seat) or tuple(rest[:8])
        if seat not in hands:
            rest = rest[8:]
    deal = Deal(number=0, dealer=E, eldest=N, phase="auction", turn=N, hands=tuple(full[s] for s in SEATS))
    state = State(options=Options(variant="coinche", rules=rules, target=2000), deal=deal, deals_played=1)
    for call in calls:
        state, _ = GAME.apply(state, GAME.parse_action(call))
    return state


def decide(state: State, seat: Seat) -> dict | None:
    return BOT(GAME.view(state, seat), random.Random(0))


def bid(seat: Seat, value, suit: str) -> dict:
    return {"seat": str(seat), "action": "bid", "value": value, "suit": suit}


def pass_(seat: Seat) -> dict:
    return {"seat": str(seat), "action": "pass"}


OPENER = ("JH", "9H", "AH", "8H", "AS", "AC", "7D", "8C")     # the jack, nine and ace of hearts, two side aces
WEAK = ("7S", "8S", "QD", "9D", "8D", "7C", "9C", "QC")


def test_a_sound_hand_opens_at_its_value_and_a_weak_one_passes() -> None:
    action = decide(auction({N: OPENER}, []), N)
    value = own_value(OPENER, "H") - 20
    assert action == bid(N, value // 10 * 10, "H") and action["value"] >= 100
    assert decide(auction({N: WEAK}, []), N) == pass_(N)


def test_a_partner_is_raised_with_real_support_and_not_without() -> None:
    support = ("JD", "AS", "AC", "7D", "KS", "9S", "8C", "QS")  # the partner opened diamonds: the jack and two aces
    state = auction({S: support}, [bid(N, 90, "D"), pass_(W)])
    action = decide(state, S)
    assert support_value(support, "D") >= 20
    assert action["action"] == "bid" and action["suit"] == "D" and 100 <= action["value"] <= 90 + support_value(support, "D")
    state = auction({S: WEAK}, [bid(N, 90, "D"), pass_(W)])
    assert support_value(WEAK, "D") < 10 and decide(state, S) == pass_(S)


def test_a_raised_opener_does_not_raise_again() -> None:
    """The raise already added the supporter's hand to the opener's: the opener has shown
    everything and stops, and the supporter too."""
    state = auction({N: OPENER}, [bid(N, 110, "H"), pass_(W), bid(S, 130, "H"), pass_(E)])
    assert decide(state, N) == pass_(N)
    state = auction({N: OPENER}, [bid(N, 110, "H"), bid(W, 140, "S"), bid(S, 150, "H"), bid(E, 160, "S")])
    assert decide(state, N) == pass_(N)                        # outbid: nothing left to show


def test_the_side_raises_its_partner_at_most_once() -> None:
    rich = ("AD", "TD", "KD", "AS", "AC", "9S", "8C", "7H")
    state = auction({N: ("JS", "9S", "AS", "TS", "8H", "AH", "KC", "QC"), S: rich},
                    [bid(N, 100, "S"), pass_(W), bid(S, 120, "D"), pass_(E)])
    assert decide(state, N) == pass_(N)                        # S already bid over N once


def test_a_hand_that_defeats_the_contract_coinches_even_out_of_turn() -> None:
    defender = ("JH", "9H", "AH", "TH", "AS", "AC", "7D", "8C")
    assert defence_value(defender, "H") <= -30
    for value in (100, 150):                                   # at any level
        state = auction({W: defender}, [bid(N, value, "H")])
        assert decide(state, W) == {"seat": "W", "action": "coinche"}
    state = auction({E: defender}, [bid(N, 100, "H")])         # House: E may coinche before his turn
    assert decide(state, E) == {"seat": "E", "action": "coinche"}
    state = auction({E: defender}, [bid(N, 100, "H")], rules="official")
    assert decide(state, E) is None                            # Official: only in turn
    state = auction({W: ("JS", "9D", "AD", "TS", "8S", "7C", "8C", "QH")}, [bid(N, 100, "H")])
    assert decide(state, W) != {"seat": "W", "action": "coinche"}


def test_a_coinched_side_that_makes_it_surcoinches() -> None:
    partner = ("JS", "9S", "AS", "AH", "AD", "AC", "TH", "7D")  # N opened spades; S has the top trumps and four aces
    state = auction({S: partner}, [bid(N, 80, "S"), {"seat": "W", "action": "coinche"}])
    assert decide(state, S) == {"seat": "S", "action": "surcoinche"}
    state = auction({S: WEAK}, [bid(N, 80, "S"), {"seat": "W", "action": "coinche"}])
    assert decide(state, S) in (None, pass_(S))


def test_capot_is_bid_when_the_hand_takes_every_trick() -> None:
    capot = ("JH", "9H", "AH", "TH", "KH", "AS", "TS", "AC")
    assert sure_capot(capot, "H")
    assert decide(auction({N: capot}, []), N) == bid(N, "capot", "H")
    assert not sure_capot(OPENER, "H")
    state = auction({W: ("JH", "7H", "8S", "9S", "7D", "8D", "7C", "8C")}, [bid(N, "capot", "H")])
    assert decide(state, W) == {"seat": "W", "action": "coinche"}   # the master trump takes a trick


# --- the reproduction -------------------------------------------------------------------------

RAISED_TO_650 = ("QH", "9S", "QD", "AH", "AD", "TD", "8D", "TC", "8S", "7D", "JS", "8C", "7H", "AC", "KS", "KH",
                 "9C", "JC", "KC", "KD", "JH", "AS", "7C", "7S", "QS", "TS", "JD", "TH", "8H", "9D", "QC", "9H")
"""A deck on which the earlier `basic` had W open 80♥, then S and N raise each other's
spades by ten every round, up to 650, and go down."""


@pytest.mark.parametrize("rules", ["house", "official"])
def test_the_deal_raised_to_650_now_stops(rules: str) -> None:
    state, _ = GAME.apply(GAME.initial(GAME.parse_options({"variant": "coinche", "rules": rules})),
                          StartDeal(dealer=N, deck=RAISED_TO_650))
    calls = []
    while state.deal.phase == "auction":
        status = GAME.status(state)
        views = {seat: GAME.view(state, seat) for seat in status.to_act}
        for seat in sorted(status.to_act, key=lambda s: views[s].turn == s):
            action = BOT(views[seat], random.Random(0))
            if action is not None:
                break
        calls.append(action)
        state, _ = GAME.apply(state, GAME.parse_action(action))
    bids = [c for c in calls if c["action"] == "bid"]
    assert len(bids) <= 4
    contract = state.deal.contract
    assert contract is not None and contract.value <= 160
    partner = {N: S, S: N, E: W, W: E}
    for side in ((N, S), (E, W)):
        over_partner = sum(1 for before, after in zip(bids, bids[1:])
                           if Seat(after["seat"]) in side and Seat(before["seat"]) == partner[Seat(after["seat"])])
        assert over_partner <= 1


def test_the_experts_worlds_give_the_bidder_the_trumps_it_bid() -> None:
    """W bid 100 in hearts: in the worlds N's search deals, W holds the jack and nine of
    hearts far more often than the third of the time a blind deal would give him."""
    from domain.bots.belote import determinize

    calls = [pass_(N), bid(W, 100, "H"), pass_(S), pass_(E), pass_(N)]
    state = auction({N: WEAK, W: ("JH", "9H", "AH", "TH", "AS", "KS", "7D", "8C")}, calls)
    view = GAME.view(state, N)
    assert view.phase == "play" and view.contract.seat == W
    rng = random.Random(3)
    worlds = [determinize(view, rng) for _ in range(300)]
    share = {card: sum(card in w.deal.hand(W) for w in worlds) / len(worlds) for card in ("JH", "9H")}
    assert all(s > 0.5 for s in share.values()), share
    assert all(w.deal.hand(N) == view.hand and all(len(h) == 8 for h in w.deal.hands) for w in worlds)
