"""Starting a deal (B.1.3): the deck arrives inside `StartDeal`, top card first, and is
dealt from eldest, clockwise — 3 each, 3 to the kitty, 4 each, 3 each. Any seat deals first;
then the deal passes to the left, thrown in or not."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.cards import DECK_43, SEATS
from domain.five_hundred.events import DealStarted
from domain.five_hundred.state import AUCTION, IN_DEAL, MATCH_OVER, Deal, State
from domain.game import StartDeal
from domain.tricks import check_start_deal, deal_packets, eldest, next_dealer

DIRECTION = "clockwise"
PACKETS = (3, ("kitty", 3), 4, 3)   # B.1.3: 3 each, 3 to the kitty, 4 each, 3 each


def expected_dealer(state: State) -> Any:
    """Any seat for the first deal; then the deal passes to the left (B.1.3), thrown in or not."""
    return next_dealer(state.deal.dealer, DIRECTION) if state.deal.dealer is not None else None


def decide_start(state: State, command: StartDeal) -> list[Any]:
    check_start_deal(command, DECK_43, expected_dealer(state), state.phase == MATCH_OVER, state.phase in IN_DEAL)
    return [DealStarted(deal=state.deals_played, dealer=command.dealer, deck=tuple(command.deck))]


def evolve_started(state: State, event: DealStarted) -> State:
    hands, piles, _ = deal_packets(event.deck, event.dealer, DIRECTION, PACKETS)
    deal = Deal(number=event.deal, dealer=event.dealer, hands=tuple(tuple(hands[s]) for s in SEATS),
                kitty=tuple(piles["kitty"]), turn=eldest(event.dealer, DIRECTION))
    return replace(state, phase=AUCTION, deals_played=state.deals_played + 1, deal=deal)
