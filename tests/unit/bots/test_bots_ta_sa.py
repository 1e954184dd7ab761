"""Coinche bots with tout atout and sans atout: `basic` bids TA on jacks and nines, SA on aces
and tens, a suit when a suit is better, and never TA/SA without the option; the hint names the
bid; basic, expert and master play whole TA/SA deals through the real rules."""

from __future__ import annotations

import random

import pytest

from domain.belote import GAME
from domain.belote.options import Options
from domain.belote.state import Deal, State
from domain.bots import policy_for
from domain.bots.arena import play
from domain.bots.belote_auction import own_value
from domain.bots.hints import reason
from domain.cards import DECK_32, SEATS, Seat

N, E = Seat.N, Seat.E
BOT = policy_for("belote", "basic")
JACKS_NINES = ("JS", "9S", "JH", "9H", "JD", "9D", "AC", "7C")
ACES_TENS = ("AS", "TS", "AH", "TH", "AD", "TD", "AC", "KC")
HEARTS = ("JH", "9H", "AH", "TH", "KH", "AS", "AC", "7D")
EVERY_JACK_AND_NINE = ("JS", "9S", "JH", "9H", "JD", "9D", "JC", "9C")


def view(hand: tuple[str, ...], contracts: str = "suits_ta_sa", rules: str = "house"):
    rest = [c for c in DECK_32 if c not in hand]
    hands = (hand, tuple(rest[:8]), tuple(rest[8:16]), tuple(rest[16:]))   # N, E, S, W
    deal = Deal(number=0, dealer=E, eldest=N, phase="auction", turn=N, hands=hands)
    options = Options(variant="coinche", rules=rules, target=2000, contracts=contracts)
    return GAME.view(State(options=options, deal=deal, deals_played=1), N)


@pytest.mark.parametrize("hand,suit", [(JACKS_NINES, "TA"), (ACES_TENS, "SA"), (HEARTS, "H")])
def test_basic_bids_the_denomination_its_hand_is_worth(hand, suit):
    action = BOT(view(hand, rules="official"), random.Random(0))
    assert action["action"] == "bid" and action["suit"] == suit
    assert action["value"] == (own_value(hand, suit, True) - 20) // 10 * 10


def test_no_ta_or_sa_without_the_option():
    action = BOT(view(JACKS_NINES, contracts="suits"), random.Random(0))
    assert action["action"] == "pass" or action["suit"] in "SHDC"


@pytest.mark.parametrize("hand,suit,code,masters", [(JACKS_NINES, "TA", "bid_all_trumps", 6),
                                                     (ACES_TENS, "SA", "bid_no_trumps", 7)])
def test_the_hint_names_the_bid(hand, suit, code, masters):
    said = reason("belote", view(hand), {"action": "bid", "value": 90, "suit": suit})
    assert said.code == code and said.params == {"level": 90, "masters": masters}


@pytest.mark.parametrize("level", ["basic", "expert", "master"])
def test_every_level_plays_ta_and_sa_deals(level):
    """Bots at every seat, on decks where N's TA or SA (a carré or two with it) is the contract
    at every level; every action goes through decide."""
    options = GAME.parse_options({"variant": "coinche", "contracts": "suits_ta_sa", "rules": "official"})
    settings = {} if level == "basic" else {"budget": None, "worlds": 6}   # no clock: the same search every run
    policy = policy_for("belote", level, **settings)
    for hand, trump in ((EVERY_JACK_AND_NINE, "TA"), (ACES_TENS, None)):
        rest = [c for c in DECK_32 if c not in hand]
        deck = [*hand[:3], *rest[:9], *hand[3:5], *rest[9:15], *hand[5:], *rest[15:]]   # N gets `hand` 3-2-3
        state, actions = play(GAME, options, E, deck, {s: policy for s in SEATS}, random.Random(1))
        assert state.deal.phase == "over" and set(state.deal.hands) == {()}
        assert (state.deal.contract.seat, state.deal.contract.trump) == (N, trump), actions
