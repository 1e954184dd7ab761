"""Trick play (B.5, B.6): following by effective suit, the Joker in no-trumps and misère, the
partner who sits out, the open misère hand going face up, and play stopping when a misère contractor takes a trick.

Following goes through the shared `domain.tricks` machinery with this contract's
`TrickRules` (ranking.py), so the bowers and the Joker follow as trumps without a special case.
"""

from __future__ import annotations

from typing import Any

from domain.cards import JOKER, SEATS, SUITS, Card
from domain.five_hundred.bids import BIDS, OPEN_MISERE
from domain.five_hundred.commands import Play
from domain.five_hundred.events import CardPlayed, DealScored, HandExposed, TrickWon
from domain.five_hundred.ranking import NO_TRUMP, SUIT_OF, TRICK_RULES
from domain.five_hundred.scoring import score_deal
from domain.five_hundred.state import IN_DEAL, NOBODY, PLAY, SEAT_INDEX, SIDE_OF, State, next_in_play
from domain.game import RuleViolation
from domain.tricks import Trick, current_winner, play_to_trick
from msgspec.structs import replace

TRICKS_PER_DEAL = 10


# --- Legal plays --------------------------------------------------------------------------------


def joker_suits(state: State, index: int) -> tuple[str, ...]:
    """The suits a Joker leader in NT/misère may name: not one he has shown void in (B.5.4 b),
    any when he has shown void in all four (Clarifications)."""
    void = state.deal.void[index]
    allowed = tuple(s for s in SUITS if s not in void)
    return allowed or SUITS


def legal_cards(state: State, index: int) -> list[Card]:
    """B.5.5: any card to lead; else the cards of the effective suit led, any when void.
    The Joker in NT has no suit, so it follows only when its holder is void (B.5.4 c)."""
    hand = state.deal.hands[index]
    trick = state.deal.trick
    if not trick.plays:  # type: ignore[union-attr]
        return list(hand)
    # domain.tricks.follow_or_any with the TrickRules' suit table read directly: this runs
    # at every step of every playout, and the call per card through suit_of costs a third.
    suit_of = SUIT_OF[state.deal.contract.denomination]  # type: ignore[union-attr]
    led = trick.led  # type: ignore[union-attr]
    same = [c for c in hand if suit_of[c] == led]
    return same if same else list(hand)


def can_play(state: State, index: int, card: Card, suit: str | None) -> None:
    """Raise the reason a play is refused (card_not_in_hand / illegal_card).

    Written without eager message formatting: it runs for every card of every deal."""
    hand = state.deal.hands[index]
    if card not in hand:
        raise RuleViolation("card_not_in_hand", f"{card} is not in your hand", {"card": card})
    trick = state.deal.trick
    denom = state.deal.contract.denomination  # type: ignore[union-attr]
    if not trick.plays:  # type: ignore[union-attr]
        if card == JOKER and denom == NO_TRUMP:
            if suit is None:
                raise RuleViolation("illegal_card", "leading the Joker in no-trumps or misère, name a suit")
            allowed = joker_suits(state, index)
            if suit not in allowed:
                raise RuleViolation("illegal_card", f"you have shown void in {suit}; name one of "
                                    f"{', '.join(allowed)}", {"allowed": list(allowed)})
            return
    if suit is not None:
        raise RuleViolation("illegal_card", "a suit is named only when leading the Joker in no-trumps or misère")
    # a card of the suit led is always among legal_cards: ask it only of the rest
    if trick.plays and SUIT_OF[denom][card] != trick.led \
            and card not in legal_cards(state, index):  # type: ignore[union-attr]
        led = trick.led  # type: ignore[union-attr]
        raise RuleViolation("illegal_card", f"you must follow {led}; {card} is refused", {"led": led})


# --- Playing a card --------------------------------------------------------------------------

def decide_play(state: State, command: Play) -> list[Any]:
    seat, card, suit = command.seat, command.card, command.suit
    if suit is not None and suit not in SUITS:
        raise RuleViolation("bad_action", "the named suit is one of S, H, D, C")
    if state.phase != PLAY:
        if state.phase not in IN_DEAL:
            raise RuleViolation("deal_over", "no deal is being played")
        raise RuleViolation("wrong_phase", "cards are played after the auction and the discard")
    if state.deal.turn != seat:
        raise RuleViolation("not_your_turn", f"it is {state.deal.turn}'s turn to play", {"turn": str(state.deal.turn)})
    index = SEAT_INDEX[seat]
    can_play(state, index, card, suit)

    contract = state.deal.contract
    trick = state.deal.trick
    misere = contract.sitting_out != NOBODY  # type: ignore[union-attr]
    events: list[Any] = [CardPlayed(seat, card, suit)]
    if len(trick.plays) + 1 < (3 if misere else 4):  # type: ignore[union-attr]
        return events

    rules = TRICK_RULES[contract.denomination]  # type: ignore[union-attr]
    trick = play_to_trick(trick, seat, card, rules, named_suit=suit)  # type: ignore[arg-type]
    winner = current_winner(trick, rules)
    number = len(state.deal.tricks) + 1
    events.append(TrickWon(number=number, winner=winner))  # type: ignore[arg-type]
    won = list(state.deal.won)
    won[SIDE_OF[SEAT_INDEX[winner]]] += 1  # type: ignore[index]
    stopped = misere and winner == contract.seat  # type: ignore[union-attr]   # B.6.5
    if number == TRICKS_PER_DEAL or stopped:
        result, score = score_deal(contract, (won[0], won[1]))  # type: ignore[arg-type]
        events.append(DealScored(deal=state.deals_played - 1, result=result, points={"NS": won[0], "EW": won[1]},
                                 score={"NS": score[0], "EW": score[1]}))
    elif number == 1 and BIDS[contract.bid].kind == OPEN_MISERE:  # type: ignore[union-attr]
        ci = SEAT_INDEX[contract.seat]  # type: ignore[union-attr]
        cards = tuple(c for c in state.deal.hands[ci] if c not in trick.cards)
        events.append(HandExposed(seat=contract.seat, cards=cards))  # type: ignore[union-attr]
    return events


def evolve_card(state: State, event: CardPlayed) -> State:
    """The hottest function of a playout: returns the new state directly."""
    seat, card = event.seat, event.card
    i = SEAT_INDEX[seat]
    deal = state.deal
    contract = deal.contract
    trick = deal.trick
    hands = deal.hands
    hand = hands[i]
    # list surgery: measurably cheaper than slicing and concatenating tuples
    rest = list(hand)
    del rest[hand.index(card)]
    seats = list(hands)
    seats[i] = tuple(rest)
    hands = tuple(seats)
    turn = SEATS[next_in_play(i, contract.sitting_out)]  # type: ignore[union-attr]
    if trick.plays:  # type: ignore[union-attr]
        led = trick.led  # type: ignore[union-attr]
        new_trick = Trick(trick.leader, trick.plays + ((seat, card),), led)  # type: ignore[union-attr]
        void = deal.void
        if SUIT_OF[contract.denomination][card] != led and led not in void[i]:  # type: ignore[union-attr]
            voids = list(void)
            voids[i] += led  # type: ignore[operator]
            return replace(state, deal=replace(deal, hands=hands, turn=turn, trick=new_trick, void=tuple(voids)))
        return replace(state, deal=replace(deal, hands=hands, turn=turn, trick=new_trick))
    led = event.suit if event.suit is not None else SUIT_OF[contract.denomination][card]  # type: ignore[union-attr]
    return replace(state, deal=replace(deal, hands=hands, turn=turn, trick=Trick(seat, ((seat, card),), led)))


def evolve_trick(state: State, event: TrickWon) -> State:
    deal = state.deal
    trick = deal.trick
    winner = event.winner
    done = Trick(trick.leader, trick.plays, trick.led, winner)  # type: ignore[union-attr]
    won = deal.won
    won = (won[0] + 1, won[1]) if SIDE_OF[SEAT_INDEX[winner]] == 0 else (won[0], won[1] + 1)
    return replace(state, deal=replace(deal, tricks=deal.tricks + (done,), won=won, trick=Trick(winner), turn=winner))


def evolve_exposed(state: State, event: HandExposed) -> State:
    return replace(state, deal=replace(state.deal, exposed=True))
