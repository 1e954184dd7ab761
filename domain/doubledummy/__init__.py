"""Double-dummy search shared by every game: the exact result of a deal whose four hands are
known, every remaining card played perfectly by both sides.

A game compiles its contract into a `Table` (cards as bit indices, each effective suit a run
of bits ordered by strength, so following, over-trumping and touching cards are mask
arithmetic) and its position into a `Position`; the search below never knows which game it
plays. What differs between games is only the legality flavour (`Table.rule`) and how a trick
adds to the result (`Table.mode`), both read here, never by game name.

Values are for a fixed `side` (a set of seats, the maximizers); the other seats minimize. The
search is fail-soft alpha-beta with a transposition table at trick boundaries holding bounds
on the rest of the deal, so one table serves every window of a solve, and null-window probes
bisect the range the value can lie in (docs/doubledummy.md gives the measurements behind
each choice). The search is compiled by numba when it is installed (`compiled.py`), else the
pure-Python `search.py` gives the same values, slower.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import msgspec

from domain.cards import SEAT_INDEX
from domain.doubledummy import cache, search
from domain.doubledummy.budget import LIMIT, OutOfNodes
from domain.doubledummy.search import INF, Search
from domain.doubledummy.search import make_search as python_search
from domain.doubledummy.table import (
    Position,
    Table,
    bits,
    classes,
    legal_mask,
    representatives,
)

cache.choose()
try:
    from domain.doubledummy import compiled
    from domain.doubledummy.compiled import make_search as compiled_search
except ImportError:                     # numba absent: the same values from the pure-Python search
    compiled_search = None

make_search = compiled_search or python_search

__all__ = [
    "INF",
    "OutOfNodes",
    "UNITS",
    "Position",
    "Solution",
    "Table",
    "bits",
    "classes",
    "legal_mask",
    "masks",
    "node_budget",
    "nodes_visited",
    "representatives",
    "rest_value",
    "rest_values",
    "start_hands",
]

UNITS = ("card_points", "tricks", "points")
SEARCH = [make_search]
"""The search every solve uses: the compiled one when numba is there (a benchmark swaps in
the pure-Python one to compare)."""


class Solution(msgspec.Struct, frozen=True):
    """`value` is the final result of the deal for `side` with perfect play from here;
    `cards` gives it for each legal card of the seat to act, played now."""

    side: str
    unit: str
    value: int
    cards: dict[str, int]




def _range(t: Table, pos: Position, mine: tuple[bool, ...]) -> tuple[int, int]:
    """The least and the most the rest of the deal can be worth to the side: the narrower,
    the fewer probes (a trick game starts from [0, tricks left])."""
    if t.stop_seat >= 0:
        return (-1, 0) if mine[t.stop_seat] else (0, 1)
    every = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
    for _, c in pos.plays:
        every |= 1 << c
    most = sum(t.points[c] for c in bits(every)) + t.trick_base * pos.tricks_left
    if t.mode == "diff":
        most += max(t.last_bonus, t.capot_bonus)
        return -most, most
    return 0, most


def _bisect(search: Search, pos: Position, bounds: tuple[int, int], restrict: int = -1) -> int:
    """The exact value by null-window probes halving the range it may lie in: fewer probes
    than MTD(f) from a blind guess where a deal's values spread over hundreds of points, and
    the table keeps every probe's bounds for the next (docs/doubledummy.md)."""
    lo, hi = bounds
    while lo < hi:
        mid = (lo + hi + 1) // 2
        g = search(pos, mid - 1, mid, restrict)
        if g >= mid:
            lo = g
        else:
            hi = g
    return lo


ONE_SOLVE = threading.RLock()
"""One solve at a time in a process: the compiled search's transposition table and stacks are
the process's own, and a solve's probes must not interleave with another's (a worker's thread
reviewing a deal beside the API's hint, two reviews in threads)."""


def nodes_visited() -> int:
    """The nodes the process's searches have visited so far: a caller's measure of a solve's
    cost, and of its rate against the clock."""
    if compiled_search is not None and SEARCH[0] is compiled_search:
        return compiled.visited()
    return search.visited()


@contextmanager
def node_budget(nodes: int) -> Iterator[None]:
    """Within the block, the solves together visit at most `nodes` more nodes; the one
    that would visit more raises `OutOfNodes` and gives nothing. The block holds the
    process's one solve (`ONE_SOLVE`), so nobody else's nodes count against it."""
    with ONE_SOLVE:
        before = LIMIT[0]
        LIMIT[0] = min(before, nodes_visited() + max(0, nodes))
        try:
            yield
        finally:
            LIMIT[0] = before


def rest_value(t: Table, pos: Position, mine: tuple[bool, ...]) -> int:
    """The value for the side `mine` of the rest of the deal from `pos`, current trick included."""
    with ONE_SOLVE:
        search, _ = SEARCH[0](t, mine)
        return _bisect(search, pos, _range(t, pos, mine))


def rest_reaches(t: Table, pos: Position, mine: tuple[bool, ...], target: int) -> bool:
    """Whether the rest of the deal is worth at least `target` to the side: one null-window
    probe, a fraction of an exact value's (which bisects), for a caller that only needs to
    know whether one line beats another."""
    with ONE_SOLVE:
        search, _ = SEARCH[0](t, mine)
        return search(pos, target - 1, target, -1) >= target


def rest_values(t: Table, pos: Position, mine: tuple[bool, ...]) -> dict[int, int]:
    """The rest's value after each legal card of the seat to act (touching cards share it)."""
    with ONE_SOLVE:
        return _rest_values(t, pos, mine)


def _rest_values(t: Table, pos: Position, mine: tuple[bool, ...]) -> dict[int, int]:
    search, _ = SEARCH[0](t, mine)
    hands = pos.hands
    seat = t.nxt[pos.plays[-1][0]] if pos.plays else pos.leader
    win_seat, win_card, best = -1, -1, -1
    for s, c in pos.plays:
        b = t.bonus[c]
        k = c + b if b else (c if t.suit[c] == pos.led else -1)
        if k > best:
            win_seat, win_card, best = s, c, k
    legal = legal_mask(t, hands[seat], pos.led, win_seat, win_card, (seat + 2) % 4)
    tmask = 0
    for _, c in pos.plays:
        tmask |= 1 << c
    others = ((hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat]) | tmask
    out: dict[int, int] = {}
    low, high = _range(t, pos, mine)
    classes = representatives(t, legal, others)
    best = _bisect(search, pos, (low, high))
    for head, cards in classes.items():
        # the seat to act is the side's: a card is worth the best or less, and one probe at
        # the best tells which; only the lesser cards need their exact value
        v = best
        if len(classes) > 1:
            g = search(pos, best - 1, best, 1 << head)
            if g < best:
                v = _bisect(search, pos, (low, g), 1 << head)
        for c in cards:
            out[c] = v
    return out


def start_hands(hands: tuple[tuple[str, ...], ...], tricks: tuple, trick: object | None) -> list[list[str]]:
    """The hands as they were when the first card was led: today's hands and every card
    played since, given back to the seat that played it."""
    start = [list(h) for h in hands]
    for t in (*tricks, trick) if trick is not None else tricks:
        for seat, card in t.plays:  # type: ignore[attr-defined]
            start[SEAT_INDEX[seat]].append(card)
    return start


def masks(t: Table, hands: list[list[str]] | tuple[tuple[str, ...], ...]) -> list[int]:
    return [sum(1 << t.index[c] for c in h) for h in hands]
