"""The play of the six tricks (A.5): the bidder leads; on a trump lead (the Left Pedro
included) a seat must play a trump if it has one; on a plain lead it may always trump, else
must follow suit if it can; the highest trump wins, else the highest card of the led suit.
The sixth trick ends the deal and scores it (A.6, A.7.3)."""

from __future__ import annotations

from typing import Any, Sequence

from msgspec.structs import replace

from domain.cards import SEAT_INDEX, Card, Seat
from domain.game import RuleViolation
from domain.tricks import Trick, current_winner, play_to_trick

from domain.cinch.commands import Play
from domain.cinch.events import CardPlayed, DealScored, TrickWon
from domain.cinch.ranking import TABLES, TrumpTable
from domain.cinch.scoring import credits, deal_score, points_of
from domain.cinch.state import NEXT, TRICKS, State, verify_turn


def legal_cards(hand: Sequence[Card], trick: Trick, table: TrumpTable) -> tuple[Card, ...]:
    """The legality of A.5 (CA-3 (a)): the one rule `can_play` checks a card against and
    `legal_plays` lists."""
    if not trick.plays:
        return tuple(hand)
    trumps, led = table.trumps, trick.led
    if led == table.trump:
        own = tuple(c for c in hand if c in trumps)
        return own or tuple(hand)
    suit_of = table.suit_of
    for c in hand:
        if suit_of[c] == led:
            return tuple(c for c in hand if c in trumps or suit_of[c] == led)
    return tuple(hand)


def _table(state: State) -> TrumpTable:
    return TABLES[state.deal.contract.trump]  # type: ignore[union-attr,index]


def can_play(state: State, seat: Seat, card: Card) -> RuleViolation | None:
    deal = state.deal
    hand = deal.hand(seat)
    if card not in hand:
        return RuleViolation("card_not_in_hand", f"{card} is not in {seat}'s hand", {"card": card})
    trick, table = deal.trick, _table(state)
    assert trick is not None
    # a lead, a trump or a card of the suit led is always among legal_cards: ask it of the rest
    if trick.plays and card not in table.trumps and table.suit_of[card] != trick.led \
            and card not in legal_cards(hand, trick, table):
        led = trick.led
        rule = ("a trump was led: play a trump" if led == _table(state).trump
                else f"follow {led} or play a trump")
        return RuleViolation("illegal_card", f"{card} may not be played: {rule}", {"card": card})
    return None


def legal_plays(state: State, seat: Seat) -> list[dict[str, Any]]:
    deal = state.deal
    assert deal.trick is not None
    return [{"action": "play", "card": c} for c in legal_cards(deal.hand(seat), deal.trick, _table(state))]


def decide_play(state: State, command: Play) -> list[Any]:
    deal = state.deal
    if state.phase != "play" or deal.turn != command.seat:
        verify_turn(state, command.seat, "play")
    problem = can_play(state, command.seat, command.card)
    if problem:
        raise problem
    played = CardPlayed(seat=command.seat, card=command.card)
    trick = deal.trick
    assert trick is not None
    if len(trick.plays) < 3:
        return [played]
    full = play_to_trick(trick, command.seat, command.card, _table(state).rules)
    won = TrickWon(number=len(deal.tricks) + 1, winner=current_winner(full, _table(state).rules))  # type: ignore[arg-type]
    if won.number < TRICKS:
        return [played, won]
    return [played, won, score(evolve_trick(evolve_card(state, played), won))]


def score(state: State) -> DealScored:
    """The deal's result from its finished state."""
    contract = state.deal.contract
    assert contract is not None and contract.trump is not None
    credited = credits(state)
    points = points_of(state.options, contract.trump, credited)
    made, added = deal_score(state.options, contract, points)
    return DealScored(deal=state.deals_played - 1, result="made" if made else "failed", points=points,
                      score=added, credits=credited)


def evolve_card(state: State, event: CardPlayed) -> State:
    seat, card = event.seat, event.card
    i = SEAT_INDEX[seat]
    deal = state.deal
    hands = deal.hands
    hand = hands[i]
    j = hand.index(card)
    trick = play_to_trick(deal.trick, seat, card, _table(state).rules)  # type: ignore[arg-type]
    return replace(state, deal=replace(deal, hands=hands[:i] + (hand[:j] + hand[j + 1:],) + hands[i + 1:],
                                       trick=trick, turn=NEXT[seat] if len(trick.plays) < 4 else None))


def evolve_trick(state: State, event: TrickWon) -> State:
    deal = state.deal
    done = replace(deal.trick, winner=event.winner)  # type: ignore[type-var]
    if event.number < TRICKS:
        return replace(state, deal=replace(deal, tricks=deal.tricks + (done,), trick=Trick(leader=event.winner),
                                           turn=event.winner))
    return replace(state, deal=replace(deal, tricks=deal.tricks + (done,), trick=None, turn=None))
