"""Five Hundred `basic`: the view a bot reads (the suit named for a Joker led in no-trumps)
and its bidding rules, each a given view and the decision it must give."""

from __future__ import annotations

import random

from domain.bots import five_hundred as bot
from domain.bots import policy_for
from domain.cards import Seat
from domain.five_hundred import GAME
from domain.five_hundred.bids import find
from domain.five_hundred.messages import Play
from domain.five_hundred.options import Options
from domain.five_hundred.state import PLAY, State, make_contract
from domain.tricks import Trick

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W

JOKER_LEAD = (
    ("AS", "5C", "AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"),   # N
    ("JK", "5H", "6H", "AD", "8S", "9S", "TS", "JS", "QS", "KS"),   # E, the 7NT contractor
    ("4H", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D"),   # S
    ("KH", "QH", "JH", "TH", "9H", "6S", "7S", "6C", "4D", "5S"),   # W
)


def joker_led(suit: str) -> State:
    """E holds 7NT and leads the Joker naming `suit`; S is next to play."""
    state = State(options=Options(), phase=PLAY, deal=1, dealer=N, hands=JOKER_LEAD, turn=E,
                  contract=make_contract(E, find(7, "NT", None)), high=find(7, "NT", None), trick=Trick(leader=E))
    state, _ = GAME.apply(state, Play(E, "JK", suit))
    return state


def test_the_view_names_the_suit_a_joker_lead_called_for() -> None:
    state = joker_led("H")
    for seat in (N, E, S, W, None):
        trick = GAME.view(state, seat).trick
        assert trick["cards"] == ["JK"] and trick["leader"] == "E" and trick["led"] == "H"
    view = GAME.view(state, S)
    assert view.legal == [{"action": "play", "card": "4H"}]


def test_a_bot_reads_the_named_suit_of_a_joker_lead() -> None:
    state = joker_led("H")
    view = GAME.view(state, S)
    world = bot.determinize(view, random.Random(1))
    assert world.trick.led == "H"                   # not guessed from the cards that followed
    assert {a["card"] for a in GAME.legal_actions(world, S)} == {"4H"}
    assert policy_for("five_hundred", "basic")(view, random.Random(1)) == {"seat": "S", "action": "play", "card": "4H"}
    after, _ = GAME.apply(state, Play(S, "4H"))
    view = GAME.view(after, W)
    assert bot.determinize(view, random.Random(2)).trick.led == "H"
    assert policy_for("five_hundred", "basic")(view, random.Random(1))["card"] in {"KH", "QH", "JH", "TH", "9H"}
