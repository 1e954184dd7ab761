"""Starting a deal (belote.md §1.3, §3.1, §5.1): the deck arrives inside `StartDeal`, top
card first, and is dealt from eldest in packets — 3-2 and the turn-up in classic, 3-2 in
sans atout, 3-2-3 in Coinche; the rest waits for the end of the auction."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.cards import DECK_32, SEATS, Hands
from domain.game import StartDeal
from domain.tricks import check_start_deal, deal_packets

from domain.belote.events import DealStarted, RestDealt
from domain.belote.state import DIRECTION, NEXT, Deal, State, in_deal

PACKETS = {"classic": (3, 2), "sans_atout": (3, 2), "coinche": (3, 2, 3)}


def decide_start(state: State, command: StartDeal) -> list[Any]:
    check_start_deal(command, DECK_32, state.next_dealer, state.over, in_deal(state))
    return [DealStarted(state.deals_played, command.dealer, state.options.variant, tuple(command.deck),
                        command.fair)]


def first_cards(event: DealStarted) -> tuple[Hands, str | None, tuple[str, ...]]:
    """(hands, turn-up, cards left for after the auction) of a deal, from its deck."""
    hands, _, rest = deal_packets(event.deck, event.dealer, DIRECTION, PACKETS[event.variant])
    turn_up = rest[0] if event.variant == "classic" else None
    return tuple(tuple(hands[s]) for s in SEATS), turn_up, tuple(rest[1:] if turn_up else rest)


def evolve_started(state: State, event: DealStarted) -> State:
    """Classic and sans atout: 5 cards each (3-2), then the turn-up in classic; Coinche 3-2-3."""
    hands, turn_up, rest = first_cards(event)
    eldest = NEXT[event.dealer]
    deal = Deal(number=event.deal, dealer=event.dealer, eldest=eldest, phase="auction", turn=eldest,
                hands=hands, stock=rest, turn_up=turn_up)
    return replace(state, deal=deal, deals_played=state.deals_played + 1, next_dealer=eldest)


def evolve_rest(state: State, event: RestDealt) -> State:
    """Classic and sans atout: the cards dealt once somebody took (the stock is used up)."""
    deal = state.deal
    hands = tuple(hand + tuple(event.cards.get(s, ())) for s, hand in zip(SEATS, deal.hands))
    return replace(state, deal=replace(deal, hands=hands, stock=()))
