"""Classic and Sans Atout `basic` bidding: given the seat's view, the decision — Sans Atout
takes what a player would take (two aces with their tens, not a handful of small cards),
later seats a little lighter once the opponents have passed."""

from __future__ import annotations

import random

from domain.belote import GAME
from domain.belote.options import Options
from domain.belote.state import Deal, State
from domain.bots import policy_for
from domain.bots.belote_auction import NO_TRUMP_TAKE, no_trump_value
from domain.cards import DECK_32, SEATS, Seat

N, W, S, E = Seat.N, Seat.W, Seat.S, Seat.E
BOT = policy_for("belote", "basic")


def sans_atout(hands: dict[Seat, tuple[str, ...]], passes: int = 0, variant: str = "sans_atout") -> State:
    """Five cards each, dealer E (N speaks first, then W, S, E), after `passes` passes."""
    rest = [c for c in DECK_32 if not any(c in h for h in hands.values())]
    full = {}
    for seat in (N, W, S, E):
        full[seat] = hands.get(seat) or tuple(rest[:5])
        if seat not in hands:
            rest = rest[5:]
    deal = Deal(number=0, dealer=E, eldest=N, phase="auction", turn=N, hands=tuple(full[s] for s in SEATS), stock=tuple(rest))
    state = State(options=Options(variant=variant), deal=deal, deals_played=1)
    for seat in (N, W, S, E)[:passes]:
        state, _ = GAME.apply(state, GAME.parse_action({"seat": str(seat), "action": "pass"}))
    return state


def decide(state: State, seat: Seat) -> dict:
    return BOT(GAME.view(state, seat), random.Random(0))


def test_sans_atout_takes_two_aces_with_their_tens() -> None:
    hand = ("AS", "TS", "AH", "TH", "7D")
    assert no_trump_value(list(hand)) >= NO_TRUMP_TAKE[0]
    assert decide(sans_atout({N: hand}), N) == {"seat": "N", "action": "take"}


def test_sans_atout_passes_small_cards_and_a_lone_ace() -> None:
    for hand in (("7S", "8S", "9H", "QD", "JC"), ("AS", "8S", "9H", "QD", "JC")):
        assert decide(sans_atout({N: hand}), N) == {"seat": "N", "action": "pass"}


def test_sans_atout_a_later_seat_takes_a_little_lighter() -> None:
    hand = ("AS", "TS", "KH", "8H", "7D")                    # just under what the first to speak wants
    assert NO_TRUMP_TAKE[3] <= no_trump_value(list(hand)) < NO_TRUMP_TAKE[0]
    assert decide(sans_atout({N: hand}), N) == {"seat": "N", "action": "pass"}
    assert decide(sans_atout({E: hand}, passes=3), E) == {"seat": "E", "action": "take"}
