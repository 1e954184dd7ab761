"""`bench/kitty.py` prices Five Hundred discards by their double-dummy score margin: its one
value must be the best of the solver's own per-card margins at the first lead, and its
shortlist only discards the master could make (three cards of the hand, never the Joker,
the weakest of each suit first)."""

from __future__ import annotations

import itertools

from bench.kitty import GAME, discard_state, dd_margin, shortlist
from domain.cards import JOKER
from domain.five_hundred.commands import Discard
from domain.five_hundred.ranking import STRENGTH, SUIT_OF
from domain.five_hundred.state import SEAT_INDEX


def _discard_states(count: int):
    options = GAME.parse_options({})
    for board in itertools.count():
        state = discard_state(options, board, 7)
        if state is not None:
            yield state
            count -= 1
            if count == 0:
                return


def test_a_discards_margin_is_the_best_of_the_solvers_margins() -> None:
    for state in _discard_states(3):
        seat = state.deal.turn
        hand = state.deal.hands[SEAT_INDEX[seat]]
        for cards in (hand[:3], hand[-3:]):
            lead, _ = GAME.apply(state, Discard(seat=seat, cards=cards))
            assert dd_margin(lead) == max(GAME.double_dummy.margins(lead).values())


def test_the_shortlist_keeps_the_joker_and_the_high_cards() -> None:
    for state in _discard_states(4):
        hand = state.deal.hands[SEAT_INDEX[state.deal.turn]]
        denomination = state.deal.contract.denomination
        strength, suit_of = STRENGTH[denomination], SUIT_OF[denomination]
        found = shortlist(hand, denomination)
        assert found and len(set(map(frozenset, found))) == len(found)
        for cards in found:
            assert len(set(cards)) == 3 and set(cards) <= set(hand) and JOKER not in cards
            for c in cards:
                kept = [k for k in hand if k not in cards and k != JOKER and suit_of[k] == suit_of[c]]
                assert all(strength[suit_of[c]][k] > strength[suit_of[c]][c] for k in kept)
