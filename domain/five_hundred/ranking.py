"""Which suit a card belongs to and how strong it is, per denomination (B.2).

Everything is a lookup table built once at import: the trick machinery asks these questions
for every card of every trick, and a dict lookup keyed by card code is the cheapest answer.
The bowers and the Joker change suit under a trump (B.2.2), so following and winning both go
through `suit_of`, never through the printed suit.
"""

from __future__ import annotations

from typing import Final

from domain.cards import DECK_43, JOKER, SUITS, Card
from domain.tricks import TrickRules

NO_TRUMP: Final = "NT"
DENOMINATIONS: Final = ("S", "C", "D", "H", NO_TRUMP)
"""Low to high (B.3.2): the order bids of the same number of tricks rise in."""

SAME_COLOUR: Final = {"S": "C", "C": "S", "H": "D", "D": "H"}

_PLAIN: Final = {r: i for i, r in enumerate("456789TJQKA", start=4)}
"""Plain-suit rank (B.2.3), also the order of a suit in no-trumps (B.2.4: jacks ordinary)."""

_TRUMP_LOW_TO_HIGH: Final = ("4", "5", "6", "7", "8", "9", "T", "Q", "K", "A")
_TRUMP_BASE: Final = 100
_JOKER_STRENGTH: Final = 200


def _effective_suit(card: Card, trump: str) -> str | None:
    if card == JOKER:
        return None if trump == NO_TRUMP else trump
    if trump != NO_TRUMP and card == "J" + SAME_COLOUR[trump]:
        return trump  # the left bower belongs to the trump suit for all purposes (CB-7)
    return card[1]


def _trump_strength(card: Card, trump: str) -> int:
    """B.2.1: Joker, right bower, left bower, A K Q 10 9 ... 4."""
    if card == JOKER:
        return _JOKER_STRENGTH
    if card == "J" + trump:
        return _TRUMP_BASE + 12
    if card == "J" + SAME_COLOUR[trump]:
        return _TRUMP_BASE + 11
    return _TRUMP_BASE + _TRUMP_LOW_TO_HIGH.index(card[0])


def _strengths(trump: str, suit_of: dict[Card, str | None]) -> dict[str, dict[Card, int]]:
    """led suit -> card -> strength; 0 means the card cannot win (an off-suit discard)."""
    table: dict[str, dict[Card, int]] = {}
    for led in SUITS:
        row: dict[Card, int] = {}
        for card in DECK_43:
            if card == JOKER:
                row[card] = _JOKER_STRENGTH  # the Joker is the highest trump, also in NT (B.2.4)
            elif trump != NO_TRUMP and suit_of[card] == trump:
                row[card] = _trump_strength(card, trump)
            elif suit_of[card] == led:
                row[card] = _PLAIN[card[0]]
            else:
                row[card] = 0
        table[led] = row
    return table


def _rules(trump: str) -> tuple[dict[Card, str | None], dict[str, dict[Card, int]], TrickRules]:
    suit_of = {card: _effective_suit(card, trump) for card in DECK_43}
    strengths = _strengths(trump, suit_of)
    rules = TrickRules(suit_of=suit_of.__getitem__, strength=lambda card, led: strengths[led][card])
    return suit_of, strengths, rules


_TABLES: Final = {d: _rules(d) for d in DENOMINATIONS}

SUIT_OF: Final[dict[str, dict[Card, str | None]]] = {d: t[0] for d, t in _TABLES.items()}
"""denomination -> card -> effective suit (None: the Joker in no-trumps has no suit)."""

STRENGTH: Final[dict[str, dict[str, dict[Card, int]]]] = {d: t[1] for d, t in _TABLES.items()}
"""denomination -> led suit -> card -> strength (higher wins; 0 cannot win)."""

TRICK_RULES: Final[dict[str, TrickRules]] = {d: t[2] for d, t in _TABLES.items()}
"""denomination -> the TrickRules the shared trick machinery plays with. Misère plays at NT."""


def trumps(denomination: str) -> list[Card]:
    """The cards of the trump suit, highest first (empty in NT but for the Joker)."""
    if denomination == NO_TRUMP:
        return [JOKER]
    cards = [c for c in DECK_43 if SUIT_OF[denomination][c] == denomination]
    return sorted(cards, key=lambda c: -_trump_strength(c, denomination))


def plain_order(card: Card) -> int:
    """A card's rank in its printed suit, for sorting a hand (Joker highest)."""
    return 99 if card == JOKER else _PLAIN[card[0]]
