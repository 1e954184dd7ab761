"""The `basic` bots' rules of play, each on a hand-made position seen through the seat's
view: lowest winning card, partner awareness, keeping trump control, Cinch pedro
protection, Five Hundred kitty use, and sound bidding."""

from __future__ import annotations

import random

from domain.belote import GAME as BELOTE
from domain.belote.events import Contract
from domain.belote.options import Options as BeloteOptions
from domain.belote.state import Deal, State as BeloteState
from domain.bots import policy_for
from domain.cards import SEATS, Seat
from domain.cinch import GAME as CINCH
from domain.cinch.options import Options as CinchOptions
from domain.cinch.state import Contract as CinchContract, Deal as CinchDeal, State as CinchState
from domain.five_hundred import GAME as FIVE_HUNDRED
from domain.five_hundred.bids import find
from domain.five_hundred.options import Options as FiveHundredOptions
from domain.five_hundred.state import DISCARD, Deal as FiveHundredDeal, State as FiveHundredState, make_contract
from domain.tricks import Trick

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
FILL = {N: ("7D", "8D", "9D"), W: ("7C", "8C", "9C"), S: ("TC", "JC", "QC"), E: ("TD", "JD", "QD")}


def belote_play(me: Seat, hand: tuple[str, ...], plays: tuple[tuple[Seat, str], ...], leader: Seat,
                taker: Seat = N, trump: str = "H") -> dict:
    hands = {s: FILL[s] for s in (N, E, S, W)}
    hands[me] = hand
    deal = Deal(number=0, dealer=E, eldest=N, phase="play", turn=me, hands=tuple(hands[s] for s in SEATS),
                contract=Contract(taker, "NS" if taker in (N, S) else "EW", trump),
                trick=Trick(leader, plays, plays[0][1][1] if plays else None))
    state = BeloteState(options=BeloteOptions(combinations=False), deal=deal, deals_played=1)
    action = policy_for("belote", "basic")(BELOTE.view(state, me), random.Random(0))
    return action


def test_belote_lowest_winning_card_when_last() -> None:
    # counter-clockwise N -> W -> S -> E: E plays last, the opponents N and S hold the trick
    action = belote_play(E, ("AS", "TS", "9S", "7H"), ((N, "KS"), (W, "7S"), (S, "8S")), N)
    assert action == {"seat": "E", "action": "play", "card": "TS"}


def test_belote_feeds_the_partners_master_card() -> None:
    action = belote_play(E, ("TS", "9S", "7H"), ((N, "7S"), (W, "AS"), (S, "8S")), N)
    assert action["card"] == "TS"


def test_belote_ruffs_with_the_lowest_winning_trump() -> None:
    action = belote_play(E, ("JH", "7H", "8H", "AD"), ((N, "AS"), (W, "7S"), (S, "8S")), N)
    assert action["card"] == "7H"


def test_belote_defence_keeps_its_trumps_and_cashes_a_master_ace() -> None:
    action = belote_play(E, ("JH", "9H", "AC", "8S"), (), E, taker=N)
    assert action["card"] == "AC"


def test_belote_taker_draws_trumps_with_a_master() -> None:
    action = belote_play(N, ("JH", "7S", "8C"), (), N, taker=N)
    assert action["card"] == "JH"


def cinch_play(me: Seat, hand: tuple[str, ...], plays: tuple[tuple[Seat, str], ...]) -> dict:
    hands = [("2C", "3C", "4C"), ("2D", "3D", "4D"), ("6D", "7D", "8D"), ("6C", "7C", "8C")]
    order = (N, E, S, W)
    hands[order.index(me)] = hand
    deal = CinchDeal(dealer=W, turn=me, hands=tuple(hands), contract=CinchContract(N, 7, "H"), trick=Trick(N, plays, "H"))
    state = CinchState(options=CinchOptions(), phase="play", deals_played=1, deal=deal)
    return policy_for("cinch", "basic")(CINCH.view(state, me), random.Random(0))


def test_cinch_protects_its_pedro_when_the_opponents_hold_the_trick() -> None:
    assert cinch_play(E, ("5H", "3H", "9C"), ((N, "AH"),))["card"] == "3H"


def test_cinch_gives_its_pedro_to_the_partners_sure_trick() -> None:
    assert cinch_play(S, ("5H", "4H", "KC"), ((N, "AH"), (E, "3H")))["card"] == "5H"


def test_cinch_bids_a_strong_hand_and_names_its_suit() -> None:
    hand = ("AH", "KH", "5H", "5D", "JH", "2H", "9S", "4C", "8S")
    hands = (("2C",) * 9, ("3C",) * 9, ("4S",) * 9, hand)
    state = CinchState(options=CinchOptions(), phase="auction", deals_played=1,
                       deal=CinchDeal(dealer=S, turn=W, hands=hands))
    bot = policy_for("cinch", "basic")
    action = bot(CINCH.view(state, W), random.Random(0))
    assert action["action"] == "bid" and action["value"] >= 8
    deal = CinchDeal(dealer=S, turn=W, hands=hands, contract=CinchContract(W, 9))
    named = bot(CINCH.view(CinchState(options=CinchOptions(), phase="trump", deals_played=1, deal=deal), W),
                random.Random(0))
    assert named == {"seat": "W", "action": "trump", "suit": "H"}


def test_five_hundred_kitty_keeps_trumps_and_aces_and_voids_short_suits() -> None:
    hand = ("JK", "JS", "JC", "AS", "KS", "9S", "AH", "5H", "6H", "8H", "7D", "6C", "7C")
    others = (("5S", "6S", "7S", "8S", "TS", "QS", "5D", "6D", "8D", "9D"),) * 3
    deal = FiveHundredDeal(dealer=W, hands=(hand, *others), contract=make_contract(N, find(6, "S", None)), turn=N)
    state = FiveHundredState(options=FiveHundredOptions(), phase=DISCARD, deals_played=1, deal=deal)
    action = policy_for("five_hundred", "basic")(FIVE_HUNDRED.view(state, N), random.Random(0))
    assert action["action"] == "discard" and sorted(action["cards"]) == ["6C", "7C", "7D"]


def test_five_hundred_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    strong = ("JK", "JH", "JD", "AH", "KH", "9H", "AS", "KS", "5C", "6D")
    weak = ("5S", "6S", "7C", "8C", "5D", "6D", "7H", "8H", "9S", "TC")
    bot = policy_for("five_hundred", "basic")
    for hand, bids in ((strong, True), (weak, False)):
        deal = FiveHundredDeal(dealer=W, hands=(hand, weak, weak, weak), turn=N)
        state = FiveHundredState(options=FiveHundredOptions(), phase="auction", deals_played=1, deal=deal)
        action = bot(FIVE_HUNDRED.view(state, N), random.Random(0))
        assert (action["action"] == "bid") is bids, action
        if bids:
            assert action["suit"] == "H"
