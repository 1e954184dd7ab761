"""Cinch `basic`: in the individual game a bid's level earns nothing, so a hand worth a
point more than the cheapest bid takes it (the dealer is no longer left stuck every deal);
and no pedro is led into trumps that can take it."""

from __future__ import annotations

import random

from domain.bots import policy_for
from domain.bots.cinch import INDIVIDUAL_MARGIN, best_suit
from domain.cards import Seat
from domain.cinch import GAME
from domain.cinch.options import Options
from domain.cinch.state import Contract, Deal, State
from domain.tricks import Trick

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
BOT = policy_for("cinch", "basic")
SOME = ("AH", "JH", "TH", "3S", "7S", "8C", "4S", "6C", "9D")       # High, Jack and Game of hearts, no pedro
NOTHING = ("7H", "9H", "3S", "7S", "8C", "2D", "4S", "6C", "9D")


def auction(me: Seat, hand: tuple[str, ...], bids: tuple = (), mode: str = "individual") -> State:
    others = iter((("2C", "3C", "4C", "5C", "6S", "8S", "JS", "QS", "KS"), ("TC", "JC", "QC", "KC", "AC", "9S", "TS", "AS", "2S"),
                   ("3D", "4D", "5D", "6D", "7D", "8D", "TD", "JD", "QD")))
    order = (N, E, S, W)
    hands = tuple(hand if s == me else next(others) for s in order)
    high = max(((s, v) for s, v in bids if v is not None), key=lambda x: x[1], default=None)
    deal = Deal(dealer=W, turn=me, hands=hands, bids=bids, high=high)
    return State(options=Options(mode=mode), phase="auction", deals_played=1, deal=deal)


def decide(state: State, seat: Seat) -> dict:
    return BOT(GAME.view(state, seat), random.Random(0))


def test_individual_a_hand_worth_more_than_the_cheapest_bid_takes_it() -> None:
    suit, worth = best_suit(list(SOME))
    assert suit == "H" and 1 + INDIVIDUAL_MARGIN <= worth < 2 + INDIVIDUAL_MARGIN
    assert decide(auction(N, SOME), N) == {"seat": "N", "action": "bid", "value": 1}
    assert decide(auction(S, SOME, ((N, None), (E, 1))), S) == {"seat": "S", "action": "pass"}  # 2 is too dear
    assert decide(auction(N, NOTHING), N) == {"seat": "N", "action": "pass"}


def test_individual_the_stuck_dealer_still_bids_the_least() -> None:
    state = auction(W, NOTHING, ((N, None), (E, None), (S, None)))
    assert decide(state, W) == {"seat": "W", "action": "bid", "value": 1}


def test_partnership_bids_as_before() -> None:
    assert decide(auction(N, NOTHING, mode="partnership"), N) == {"seat": "N", "action": "pass"}
    assert decide(auction(N, SOME, mode="partnership"), N)["value"] >= 4     # the partner counted in


def test_no_pedro_is_led_to_draw_trumps() -> None:
    """Every trump counts (the Right Pedro, the Jack, the Ten): draw with the Ten, not the Pedro."""
    hands = (("5H", "JH", "TH", "QC"), ("2C", "3C", "4C", "6C"), ("6D", "7D", "8D", "9D"), ("7C", "8C", "9C", "KC"))
    deal = Deal(dealer=W, turn=N, hands=hands, contract=Contract(N, 7, "H"), trick=Trick(N))
    state = State(options=Options(), phase="play", deals_played=1, deal=deal)
    assert decide(state, N)["card"] == "TH"
