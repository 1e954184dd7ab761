"""Starting a deal (A.3).

The deck arrives inside `StartDeal` (top card first): three cards at a time to each seat
from eldest, clockwise, until each holds nine; the sixteen left are the stock. The deal
passes to the left after every deal.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.cards import DECK_52, SEATS
from domain.game import StartDeal
from domain.tricks import check_start_deal, deal_packets, next_dealer

from domain.cinch.events import DealStarted
from domain.cinch.state import DIRECTION, Deal, State

PACKETS = (3, 3, 3)


def decide_start(state: State, command: StartDeal) -> list[Any]:
    expected = next_dealer(state.deal.dealer, DIRECTION) if state.deal.dealer is not None else None
    check_start_deal(command, DECK_52, expected, state.phase == "match_over", state.in_deal)
    hands, _, stock = deal_packets(command.deck, command.dealer, DIRECTION, PACKETS)
    return [DealStarted(deal=state.deals_played, dealer=command.dealer,
                        hands={s: tuple(hands[s]) for s in SEATS}, stock=tuple(stock),
                        stock_size=len(stock), fair=command.fair)]


def evolve_started(state: State, event: DealStarted) -> State:
    deal = Deal(number=event.deal, dealer=event.dealer, turn=next_dealer(event.dealer, DIRECTION),
                hands=tuple(event.hands[s] for s in SEATS), stock=event.stock, fair=event.fair)
    return replace(state, phase="auction", deals_played=state.deals_played + 1, deal=deal)
