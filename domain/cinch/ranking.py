"""The trump suit of Cinch once it is named (A.1, A.2): fourteen cards, the Left Pedro
(the other five of the trump's colour) among them for every purpose.

Everything a deal asks about a card — is it a trump, which suit does it follow, how strong
is it, what does it count — is looked up in tables built once per possible trump here, so
the hot path of play never recomputes a ranking.
"""

from __future__ import annotations

from typing import Final, Mapping

from domain.cards import DECK_52, RANKS, SUITS, Card
from domain.tricks import TrickRules

SAME_COLOUR: Final = {"S": "C", "C": "S", "H": "D", "D": "H"}
"""A.1.5: ♠↔♣, ♥↔♦."""


def right_pedro(trump: str) -> Card:
    return "5" + trump


def left_pedro(trump: str) -> Card:
    """The five of the other suit of the trump's colour: a trump, not a card of its print."""
    return "5" + SAME_COLOUR[trump]


def trump_order(trump: str) -> tuple[Card, ...]:
    """A.1.3, low to high: 2 3 4 Left-Pedro 5 6 7 8 9 T J Q K A."""
    order: list[Card] = []
    for rank in RANKS:
        if rank == "5":
            order.append(left_pedro(trump))
        order.append(rank + trump)
    return tuple(order)


def counting_cards(trump: str) -> tuple[tuple[Card, int], ...]:
    """A.2.1 in the counting-out order of A.7.4: High, Low, Jack, Game, Right Pedro, Left Pedro."""
    return (("A" + trump, 1), ("2" + trump, 1), ("J" + trump, 1), ("T" + trump, 1),
            (right_pedro(trump), 5), (left_pedro(trump), 5))


class TrumpTable:
    """All facts about the cards under one trump suit, precomputed."""

    __slots__ = ("trump", "trumps", "suit_of", "strength_of", "points", "count_order", "low", "rules")

    def __init__(self, trump: str) -> None:
        order = trump_order(trump)
        self.trump = trump
        self.trumps: frozenset[Card] = frozenset(order)
        self.suit_of: Mapping[Card, str] = {c: (trump if c in self.trumps else c[1]) for c in DECK_52}
        # Trumps beat everything (100+); a plain card only counts in its own led suit.
        self.strength_of: Mapping[Card, int] = {
            c: (100 + order.index(c) if c in self.trumps else 1 + RANKS.index(c[0])) for c in DECK_52}
        self.count_order = counting_cards(trump)
        self.points: Mapping[Card, int] = dict(self.count_order)
        self.low: Card = "2" + trump
        suit_of, strength_of, trumps = self.suit_of, self.strength_of, self.trumps

        def strength(card: Card, led: str | None) -> int:
            if card in trumps or suit_of[card] == led:
                return strength_of[card]
            return 0

        self.rules = TrickRules(suit_of=suit_of.__getitem__, strength=strength)

    def is_trump(self, card: Card) -> bool:
        return card in self.trumps


TABLES: Final = {suit: TrumpTable(suit) for suit in SUITS}
