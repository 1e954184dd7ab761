"""A contract compiled for the double-dummy search, and the mask arithmetic of legal cards.

Cards are bit indices; each effective suit is a run of bits ordered by strength (low to
high), so following, over-trumping and "touching cards" are a few mask operations.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Table:
    """One contract of one game, compiled for the search.

    rule: "follow" (follow the led suit, else any card), "follow_or_trump" (trump led: trump
    if able; plain led: follow or trump, else any: Cinch), "overtrump" / "overtrump_or_trump"
    (follow, else trump, over the best trump in the trick when able; the second forces a trump
    even when none is higher: belote.md §2.5 and its House R4d), "overtake" (follow, over the
    best card of the led suit when able, else any card: tout atout, every suit a trump suit).

    mode: "capture" (a trick adds its points to the side that wins it, `trick_base` more per
    trick) or "diff" (a trick adds its points with the winner's sign, the last one
    `last_bonus` more, or `capot_bonus` when one side took every trick). `stop_seat` ends the
    deal the first time that seat wins a trick (misère): worth -1 to its side, +1 to the other."""

    codes: tuple[str, ...]
    suit: tuple[int, ...]          # card -> effective suit 0..3, 4 for a suitless card
    suit_mask: tuple[int, ...]     # suit -> cards
    bonus: tuple[int, ...]         # added to a trump's index when ranking a trick (0: plain)
    points: tuple[int, ...]
    trump: int                     # -1 without trump
    rule: str
    nxt: tuple[int, ...]           # seat -> next seat to play
    players: int = 4
    mode: str = "capture"
    trick_base: int = 0
    last_bonus: int = 0
    capot_bonus: int = 0
    stop_seat: int = -1
    joker: int = -1                # a suitless Joker whose leader names the suit led
    index: dict[str, int] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        self.index.update({c: i for i, c in enumerate(self.codes)})


@dataclass
class Position:
    """hands: a bit mask per seat; plays: the current trick's (seat, card) so far, `led` its
    suit; flags: the capot tracker of "diff" (bit 1: the side won a trick, bit 2: the others
    did); voids: the suits each seat has shown void in (they bind a Joker's named suit)."""

    hands: list[int]
    leader: int
    tricks_left: int
    plays: list[tuple[int, int]] = field(default_factory=list)
    led: int = -1
    flags: int = 0
    voids: list[int] = field(default_factory=lambda: [0, 0, 0, 0])


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def legal_mask(t: Table, hand: int, led: int, win_seat: int, win_card: int, partner: int) -> int:
    """The cards of `hand` that may be played to a trick led in `led` (-1: a lead)."""
    if led < 0:
        return hand
    sm = t.suit_mask
    follow = hand & sm[led]
    rule = t.rule
    if rule == "follow":
        return follow or hand
    if rule == "overtake":
        return ((follow & ~((2 << win_card) - 1)) or follow) if follow else hand
    trump = t.trump
    if rule == "follow_or_trump":
        if led == trump:
            return follow or hand
        return (hand & (follow | sm[trump])) if follow else hand
    if trump < 0:
        return follow or hand
    top = win_card if t.suit[win_card] == trump else -1
    if follow:
        if led != trump:
            return follow
        return (follow & ~((2 << top) - 1)) or follow
    if led == trump or win_seat == partner:
        return hand
    trumps = hand & sm[trump]
    if not trumps:
        return hand
    if top < 0:
        return trumps
    return (trumps & ~((2 << top) - 1)) or (trumps if rule == "overtrump_or_trump" else hand)


def classes(t: Table, legal: int, others: int) -> list[int]:
    """One card of each class of equivalent legal cards: touching in the same hand (no card
    still out elsewhere, nor in the trick, between them) and worth the same points."""
    out: list[int] = []
    suit, points = t.suit, t.points
    prev = -1
    for c in bits(legal):
        if prev >= 0 and suit[prev] == suit[c] and points[prev] == points[c] \
                and not others & ((1 << c) - (2 << prev)):
            prev = c
            continue
        out.append(c)
        prev = c
    return out


def representatives(t: Table, legal: int, others: int) -> dict[int, list[int]]:
    """Each class's first card -> all its cards."""
    out: dict[int, list[int]] = {}
    suit, points = t.suit, t.points
    prev, head = -1, -1
    for c in bits(legal):
        if prev >= 0 and suit[prev] == suit[c] and points[prev] == points[c] \
                and not others & ((1 << c) - (2 << prev)):
            out[head].append(c)
        else:
            head = c
            out[c] = [c]
        prev = c
    return out
