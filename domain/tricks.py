"""Trick-taking machinery shared by every game: tricks, following, winners, turn order,
dealer rotation and match-to-target.

What differs between games is only *which suit a card belongs to* (the Left Bower and the
Left Pedro change suit; the Joker has none of its own) and *how strong a card is* once the
led suit and trump are known. A game passes those two functions in a `TrickRules`; the rest
is written once here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

import msgspec

from domain.cards import Card, Direction, Seat, next_seat, seats_from
from domain.game import RuleViolation, StartDeal, verify


class Trick(msgspec.Struct, frozen=True):
    """A trick in progress or complete. `led` is the effective suit led (set by the first
    card; a Joker led in no-trumps carries the suit its leader named); `winner` is set
    once the trick is complete."""

    leader: Seat
    plays: tuple[tuple[Seat, Card], ...] = ()
    led: str | None = None
    winner: Seat | None = None

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)

    def card_of(self, seat: Seat) -> Card | None:
        for s, c in self.plays:
            if s == seat:
                return c
        return None


@dataclass(frozen=True)
class TrickRules:
    """The two facts a game must supply for trick play.

    suit_of(card): the card's effective suit under this contract (None for a suitless Joker).
    strength(card, led): how strongly `card` bids to win a trick whose led suit is `led`;
    higher wins, and any value <= 0 cannot win (an off-suit discard). Trumps should rank
    above every card of the led suit.
    """

    suit_of: Callable[[Card], str | None]
    strength: Callable[[Card, str | None], int]


def play_to_trick(trick: Trick, seat: Seat, card: Card, rules: TrickRules, named_suit: str | None = None) -> Trick:
    """The trick after `seat` plays `card`. The led suit is fixed by the first card."""
    led = trick.led
    if not trick.plays:
        led = named_suit if named_suit is not None else rules.suit_of(card)
    return msgspec.structs.replace(trick, plays=trick.plays + ((seat, card),), led=led)


def current_winner(trick: Trick, rules: TrickRules) -> Seat | None:
    """The seat whose card is master so far (the winner once the trick is complete)."""
    best_seat, best = None, None
    for seat, card in trick.plays:
        s = rules.strength(card, trick.led)
        if best is None or s > best:
            best_seat, best = seat, s
    return best_seat


def complete(trick: Trick, rules: TrickRules) -> Trick:
    return msgspec.structs.replace(trick, winner=current_winner(trick, rules))


def following(hand: Iterable[Card], suit: str | None, rules: TrickRules) -> list[Card]:
    """The cards of `hand` that follow `suit` (effective suits)."""
    return [c for c in hand if suit is not None and rules.suit_of(c) == suit]


def follow_or_any(hand: Sequence[Card], trick: Trick, rules: TrickRules) -> list[Card]:
    """The plain rule most games start from: follow the led suit if able, else any card."""
    if not trick.plays:
        return list(hand)
    same = following(hand, trick.led, rules)
    return same if same else list(hand)


# --- Turn order and dealing ------------------------------------------------------------------

def eldest(dealer: Seat, direction: Direction) -> Seat:
    """The seat after the dealer: speaks first and (in most games) leads first."""
    return next_seat(dealer, direction)


def next_dealer(dealer: Seat, direction: Direction) -> Seat:
    """The deal passes in the direction of play, also after a thrown-in deal."""
    return next_seat(dealer, direction)


def deal_packets(deck: Sequence[Card], dealer: Seat, direction: Direction,
                 packets: Sequence[int | tuple[str, int]], seats: Sequence[Seat] | None = None,
                 ) -> tuple[dict[Seat, list[Card]], dict[str, list[Card]], list[Card]]:
    """Deal from the top of `deck` in rounds, starting with eldest.

    `packets` lists the rounds: an int n gives n cards to each seat in turn; a pair
    ("kitty", n) puts n cards aside under that name. Returns (hands, piles, rest of deck).
    Five Hundred's 3 / kitty 3 / 4 / 3 is `[3, ("kitty", 3), 4, 3]`.
    """
    order = list(seats) if seats is not None else list(seats_from(eldest(dealer, direction), direction))
    hands: dict[Seat, list[Card]] = {s: [] for s in order}
    piles: dict[str, list[Card]] = {}
    i = 0
    for packet in packets:
        if isinstance(packet, tuple):
            name, n = packet
            piles.setdefault(name, []).extend(deck[i:i + n])
            i += n
            continue
        for seat in order:
            hands[seat].extend(deck[i:i + packet])
            i += packet
    return hands, piles, list(deck[i:])


def check_start_deal(command: StartDeal, canonical: Sequence[Card], expected_dealer: Seat | None,
                     match_over: bool, in_deal: bool) -> None:
    """The deal-level checks every game makes before dealing, in the order records report
    them: the match is not over, no deal is under way, the deck is a permutation of the
    game's deck, and the dealer is the one the rotation gives (any dealer for the first)."""
    verify(not match_over, "match_over", "the match is over; no further deal can start")
    verify(not in_deal, "wrong_phase", "a deal is already under way")
    verify(len(command.deck) == len(canonical) and set(command.deck) == set(canonical),
           "bad_deck", f"the deck must be a permutation of this game's {len(canonical)} cards")
    if expected_dealer is not None and command.dealer != expected_dealer:
        raise RuleViolation("wrong_dealer", f"the dealer of this deal must be {expected_dealer}",
                            {"expected": str(expected_dealer), "got": str(command.dealer)})


# --- Match score -----------------------------------------------------------------------------

def add_scores(total: Mapping[str, int], deal: Mapping[str, int]) -> dict[str, int]:
    return {side: total.get(side, 0) + deal.get(side, 0) for side in {*total, *deal}}


def leader_at_target(scores: Mapping[str, int], target: int) -> str | None:
    """The side at or over `target` with strictly the most points, else None (a tie at or
    over the target plays on; a game with a different rule says so itself)."""
    reached = sorted(((v, s) for s, v in scores.items() if v >= target), reverse=True)
    if not reached:
        return None
    if len(reached) > 1 and reached[0][0] == reached[1][0]:
        return None
    return reached[0][1]


def leader_after_deals(scores: Mapping[str, int]) -> str | None:
    """For a fixed number of deals (`deals` option): the side ahead wins; a tie is a tie."""
    ranked = sorted(((v, s) for s, v in scores.items()), reverse=True)
    if len(ranked) > 1 and ranked[0][0] == ranked[1][0]:
        return None
    return ranked[0][1]
