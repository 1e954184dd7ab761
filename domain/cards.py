"""Cards, seats and decks in the notation of `shared/rules/README.md`.

A card is its canonical code, a plain `str` ("AS", "TH", "JK"): codes are what the API,
the hand records and the events carry, they hash and compare fast, and a game that needs
a rank order builds its own lookup table once. Parsing is the only place a loose spelling
("10H", "as") is accepted; everything inside the domain holds canonical codes.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, Iterable, Literal, Sequence

Card = str
"""A canonical card code: rank then suit (`"AS"`, `"TH"`), or `"JK"` for the Joker."""

SUITS: Final = ("S", "H", "D", "C")
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
JOKER: Final = "JK"

SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS: Final = frozenset({"H", "D"})


class Seat(StrEnum):
    N = "N"
    E = "E"
    S = "S"
    W = "W"


SEATS: Final = (Seat.N, Seat.E, Seat.S, Seat.W)
SEAT_INDEX: Final = {seat: i for i, seat in enumerate(SEATS)}
"""Per-seat facts of a game's state (its hands) are tuples in `SEATS` order, read through this."""

Hands = tuple[tuple[str, ...], ...]


def with_hand(hands: Hands, seat: Seat, hand: tuple[str, ...]) -> Hands:
    """`hands` with `seat`'s hand replaced (states are immutable: copy on write)."""
    i = SEAT_INDEX[seat]
    return hands[:i] + (hand,) + hands[i + 1:]

Direction = Literal["clockwise", "counter_clockwise"]

# The order in which turns pass. Belote goes to the right (counter-clockwise),
# Cinch and Five Hundred to the left (clockwise). See shared/rules/README.md.
SEAT_ORDER: Final[dict[str, tuple[Seat, ...]]] = {
    "clockwise": (Seat.N, Seat.E, Seat.S, Seat.W),
    "counter_clockwise": (Seat.N, Seat.W, Seat.S, Seat.E),
}

_NEXT: Final = {
    direction: {order[i]: order[(i + 1) % 4] for i in range(4)}
    for direction, order in SEAT_ORDER.items()
}

PARTNER: Final = {Seat.N: Seat.S, Seat.S: Seat.N, Seat.E: Seat.W, Seat.W: Seat.E}
TEAM: Final = {Seat.N: "NS", Seat.S: "NS", Seat.E: "EW", Seat.W: "EW"}
TEAMS: Final = ("NS", "EW")


class CardCodeError(ValueError):
    """A card code that does not name a card; the message names the bad code."""

    def __init__(self, code: object, reason: str) -> None:
        super().__init__(f"bad card code {code!r}: {reason}")
        self.code = code
        self.reason = reason


def parse_card(code: object) -> Card:
    """Turn a spelling from outside (`"10h"`, `" AS"`, `"jk"`) into the canonical code."""
    if not isinstance(code, str):
        raise CardCodeError(code, "a card code is a string such as 'AS' or 'TH'")
    text = code.strip().upper()
    if text == JOKER:
        return JOKER
    if len(text) == 3 and text.startswith("10"):
        text = "T" + text[2]
    if len(text) != 2:
        raise CardCodeError(code, "expected a rank (2-9, T, J, Q, K, A) then a suit (S, H, D, C), or JK")
    rank, suit = text[0], text[1]
    if rank not in RANKS:
        raise CardCodeError(code, f"unknown rank {rank!r}")
    if suit not in SUITS:
        raise CardCodeError(code, f"unknown suit {suit!r}")
    return rank + suit


def parse_cards(codes: Iterable[object]) -> list[Card]:
    return [parse_card(c) for c in codes]


def format_card(card: Card) -> str:
    """Output always uses the canonical code (`T` for ten)."""
    return card


def rank_of(card: Card) -> str:
    return card[0] if card != JOKER else JOKER


def suit_of(card: Card) -> str | None:
    """The printed suit; the Joker has none (a game may give it one, e.g. trump in 500)."""
    return card[1] if card != JOKER else None


def next_seat(seat: Seat, direction: Direction) -> Seat:
    return _NEXT[direction][seat]


def seats_from(first: Seat, direction: Direction) -> tuple[Seat, ...]:
    """The four seats in turn order starting with `first`."""
    order = SEAT_ORDER[direction]
    i = order.index(first)
    return order[i:] + order[:i]


def partner_of(seat: Seat) -> Seat:
    return PARTNER[seat]


def team_of(seat: Seat) -> str:
    return TEAM[seat]


# --- Decks in canonical order: suits S H D C, ranks ascending, the Joker last. -------------

def _deck(ranks: Sequence[str], extra: Sequence[Card] = (), joker: bool = False) -> tuple[Card, ...]:
    cards = [r + s for s in SUITS for r in RANKS if r in ranks or r + s in extra]
    if joker:
        cards.append(JOKER)
    return tuple(cards)


DECK_32: Final = _deck(("7", "8", "9", "T", "J", "Q", "K", "A"))
"""Belote: 7 to A in each suit."""

DECK_43: Final = _deck(("5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"), extra=("4H", "4D"), joker=True)
"""Five Hundred: 5 to A in each suit, the red fours and one Joker."""

DECK_52: Final = _deck(RANKS)
"""Cinch: the full pack."""

DECKS: Final = {32: DECK_32, 43: DECK_43, 52: DECK_52}


def check_deck(cards: Sequence[object], canonical: Sequence[Card]) -> list[Card]:
    """Parse a deck given from outside and check it is a permutation of `canonical`.

    Raises `CardCodeError` for a bad code and `ValueError` naming what is missing or doubled.
    """
    deck = parse_cards(cards)
    if len(deck) != len(canonical):
        raise ValueError(f"a deck has {len(canonical)} cards, got {len(deck)}")
    seen: set[Card] = set()
    doubled = [c for c in deck if c in seen or seen.add(c)]  # type: ignore[func-returns-value]
    if doubled:
        raise ValueError(f"card {doubled[0]} appears twice")
    foreign = [c for c in deck if c not in set(canonical)]
    if foreign:
        raise ValueError(f"card {foreign[0]} is not in this game's deck")
    return deck
