"""Card lookup tables, built once, keyed by card code (belote.md §2.2).

Every rule that looks at a card (trick winner, legal plays, points, combinations) goes
through a dict lookup here instead of parsing the code, because these run on every play.
"""

from __future__ import annotations

from typing import Final

from domain.cards import DECK_32, Card
from domain.tricks import TrickRules

BELOTE_SUITS: Final = ("S", "H", "D", "C")
ALL_TRUMPS: Final = "TA"
"""Tout atout: a Coinche bid's `suit` and its contract's `trump` (every suit is trumps)."""
NO_TRUMPS: Final = "SA"
"""Sans atout: a Coinche bid's `suit`; its contract's `trump` is None, as in Variant B."""
DENOMINATIONS: Final = (*BELOTE_SUITS, ALL_TRUMPS, NO_TRUMPS)

NATURAL: Final = ("7", "8", "9", "T", "J", "Q", "K", "A")
"""The order of sequences (2.7.1): 7 8 9 10 J Q K A, no wrap-around."""

_PLAIN_ORDER: Final = ("7", "8", "9", "J", "Q", "K", "T", "A")   # low to high, §2.2
_TRUMP_ORDER: Final = ("7", "8", "Q", "K", "T", "A", "9", "J")   # low to high, §2.2
_PLAIN_POINTS: Final = {"7": 0, "8": 0, "9": 0, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
_TRUMP_POINTS: Final = {"7": 0, "8": 0, "9": 14, "T": 10, "J": 20, "Q": 3, "K": 4, "A": 11}
_ALL_TRUMP_POINTS: Final = {False: {"7": 0, "8": 0, "9": 9, "T": 5, "J": 14, "Q": 1, "K": 3, "A": 6},
                            True: {"7": 0, "8": 0, "9": 9, "T": 5, "J": 13, "Q": 2, "K": 3, "A": 6}}
"""Tout atout, keyed by `official`: House J 14 ... Q 1 (Pagat), Official J 13 ... Q 2 (FFB
Coinche §11.3); 38 a suit either way, so the deal is 162 with the dix de der."""

SUIT: Final[dict[Card, str]] = {c: c[1] for c in DECK_32}
RANK: Final[dict[Card, str]] = {c: c[0] for c in DECK_32}
NATURAL_INDEX: Final[dict[Card, int]] = {c: NATURAL.index(c[0]) for c in DECK_32}
PLAIN_STRENGTH: Final[dict[Card, int]] = {c: 1 + _PLAIN_ORDER.index(c[0]) for c in DECK_32}
TRUMP_STRENGTH: Final[dict[Card, int]] = {c: 1 + _TRUMP_ORDER.index(c[0]) for c in DECK_32}
PLAIN_RANK_ORDER: Final[dict[str, int]] = {r: 1 + _PLAIN_ORDER.index(r) for r in NATURAL}


def _points(trump: str | None, ace: int) -> dict[Card, int]:
    out = {}
    for c in DECK_32:
        table = _TRUMP_POINTS if SUIT[c] == trump else _PLAIN_POINTS
        out[c] = ace if (trump is None and c[0] == "A") else table[c[0]]
    return out


POINTS: Final[dict[str | None, dict[Card, int]]] = {t: _points(t, 11) for t in BELOTE_SUITS}
"""Card points under each trump suit."""

NO_TRUMP_POINTS: Final[dict[bool, dict[Card, int]]] = {False: _points(None, 11), True: _points(None, 19)}
"""No-trump card points, keyed by `official` (§6 row 3: the Ace is 11 House, 19 Official)."""


ALL_TRUMP_POINTS: Final[dict[bool, dict[Card, int]]] = {
    official: {c: table[c[0]] for c in DECK_32} for official, table in _ALL_TRUMP_POINTS.items()}
"""Tout atout card points, keyed by `official`."""


def card_values(trump: str | None, official: bool) -> dict[Card, int]:
    """Card points under a contract's `trump`: a suit, ALL_TRUMPS, or None (no trump)."""
    if trump is None:
        return NO_TRUMP_POINTS[official]
    if trump == ALL_TRUMPS:
        return ALL_TRUMP_POINTS[official]
    return POINTS[trump]


def _trick_rules(trump: str | None) -> TrickRules:
    suit, plain, trumps = SUIT, PLAIN_STRENGTH, TRUMP_STRENGTH
    if trump == ALL_TRUMPS:
        def led_only(card: Card, led: str | None) -> int:
            return trumps[card] if suit[card] == led else 0
        return TrickRules(suit_of=suit.__getitem__, strength=led_only)

    def strength(card: Card, led: str | None) -> int:
        s = suit[card]
        if s == trump:
            return 100 + trumps[card]
        if s == led:
            return plain[card]
        return 0

    return TrickRules(suit_of=suit.__getitem__, strength=strength)


TRICK_RULES: Final[dict[str | None, TrickRules]] = {t: _trick_rules(t) for t in (*BELOTE_SUITS, ALL_TRUMPS, None)}
"""Trick winner rules for each contract (§2.4): the highest trump, else the highest of the led
suit; in tout atout the highest of the led suit in trump order."""


def deal_points(trump: str | None, official: bool) -> tuple[int, int]:
    """(deal total, capot total) for a contract's trump (None: sans atout): 162/252 with a
    trump (and Official sans atout), 130/220 in House sans atout (§2.3, §4.4)."""
    if trump is None and not official:
        return 130, 220
    return 162, 252
