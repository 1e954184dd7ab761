"""The kitty (B.4.1): the contractor takes its three cards into his hand unseen by the others,
then discards three face down and leads the first trick."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.five_hundred.commands import Discard
from domain.five_hundred.events import Discarded, KittyTaken
from domain.five_hundred.state import DISCARD, PLAY, SEAT_INDEX, State, verify_in_deal
from domain.cards import with_hand
from domain.game import verify
from domain.tricks import Trick


def evolve_kitty_taken(state: State, event: KittyTaken) -> State:
    i = SEAT_INDEX[event.seat]
    deal = state.deal
    hand = deal.hands[i] + deal.kitty
    return replace(state, deal=replace(deal, hands=with_hand(deal.hands, event.seat, hand), kitty=(),
                                       kitty_taken=deal.kitty))


def decide_discard(state: State, command: Discard) -> list[Any]:
    verify(len(command.cards) == 3 and len(set(command.cards)) == 3, "bad_action",
           "discard exactly three different cards")
    verify_in_deal(state)
    verify(state.phase == DISCARD, "wrong_phase", "cards are discarded only after taking the kitty")
    verify(state.deal.turn == command.seat, "not_your_turn", f"only the contractor {state.deal.turn} discards",
           turn=str(state.deal.turn))
    hand = state.deal.hands[SEAT_INDEX[command.seat]]
    for card in command.cards:
        verify(card in hand, "card_not_in_hand", f"{card} is not in your hand", card=card)
    return [Discarded(seat=command.seat, cards=tuple(command.cards))]


def evolve_discard(state: State, event: Discarded) -> State:
    i = SEAT_INDEX[event.seat]
    deal = state.deal
    hand = tuple(c for c in deal.hands[i] if c not in event.cards)
    # B.5.1 / B.6.3: the contractor leads
    return replace(state, phase=PLAY, deal=replace(deal, hands=with_hand(deal.hands, event.seat, hand),
                                                   discards=event.cards, trick=Trick(leader=event.seat)))
