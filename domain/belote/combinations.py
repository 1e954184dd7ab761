"""Combinations (belote.md §2.7): sequences and carrés, which ones a hand scores under each
rule set, and the comparison between the two teams.

Computed once per deal, when the auction closes, from each full hand; only the kind of a
seat's best combination is public at trick 1, and only the winning team's are shown.
"""

from __future__ import annotations

from itertools import combinations as subsets
from typing import Final, Iterable, Mapping

from domain.cards import Seat

from domain.belote.events import Combination
from domain.belote.ranking import ALL_TRUMPS, BELOTE_SUITS, NATURAL, NATURAL_INDEX, PLAIN_RANK_ORDER, SUIT

SEQUENCE_KIND: Final = {3: ("tierce", 20), 4: ("cinquante", 50)}
CENT: Final = ("cent", 100)
CARRE: Final = "carré"
CARRE_TRUMP_TABLE: Final = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}
CARRE_NO_TRUMP_TABLE: Final = {"A": 200, "T": 150, "K": 100, "Q": 100, "J": 100, "9": 100}
"""§2.7.2. Sevens and eights are no combination in either table."""


def strength(c: Combination) -> tuple[int, int, int, int]:
    """§2.7.5 order: carré over sequence, then value, then length, then top card (natural
    order for sequences, trick order A > 10 > K > Q > J > 9 for carrés, A-14)."""
    if c.kind == CARRE:
        return (1, c.value, 4, PLAIN_RANK_ORDER[c.rank])
    return (0, c.value, len(c.cards), NATURAL.index(c.rank))


def _runs(mask: int) -> tuple[tuple[int, int], ...]:
    """(lowest index, length) of each maximal run of 3+ set bits."""
    runs, i = [], 0
    while i < 8:
        if mask >> i & 1:
            j = i
            while j < 8 and mask >> j & 1:
                j += 1
            if j - i >= 3:
                runs.append((i, j - i))
            i = j
        else:
            i += 1
    return tuple(runs)


_RUNS: Final = tuple(_runs(mask) for mask in range(256))
_BIT: Final = {c: 1 << NATURAL_INDEX[c] for c in SUIT}


def find(seat: Seat, hand: Iterable[str], no_trump_table: bool) -> list[Combination]:
    """Every maximal run of 3+ cards (never split, A-17) and every scoring carré."""
    masks = {"S": 0, "H": 0, "D": 0, "C": 0}
    ranks: dict[str, int] = {}
    for c in hand:
        masks[SUIT[c]] |= _BIT[c]
        ranks[c[0]] = ranks.get(c[0], 0) + 1
    found: list[Combination] = []
    for suit in BELOTE_SUITS:
        for low, length in _RUNS[masks[suit]]:
            kind, value = SEQUENCE_KIND.get(length, CENT)
            found.append(Combination(seat, kind, value, suit, NATURAL[low + length - 1],
                                     tuple(NATURAL[r] + suit for r in range(low, low + length))))
    table = CARRE_NO_TRUMP_TABLE if no_trump_table else CARRE_TRUMP_TABLE
    for rank, count in ranks.items():
        if count == 4 and rank in table:
            found.append(Combination(seat, CARRE, table[rank], None, rank, tuple(rank + s for s in BELOTE_SUITS)))
    return found


def in_trumps(c: Combination, trump: str | None) -> bool:
    """A sequence in the trump suit; in tout atout every sequence is."""
    return c.suit is not None and (c.suit == trump or trump == ALL_TRUMPS)


def _disjoint(chosen: tuple[Combination, ...]) -> bool:
    seen: set[str] = set()
    for c in chosen:
        if seen.intersection(c.cards):
            return False
        seen.update(c.cards)
    return True


def choose(found: list[Combination], official: bool, trump: str | None) -> tuple[Combination, ...]:
    """House: every combination held (a card may serve twice, §6 row 6). Official: the
    disjoint set with (1) the strongest best combination, (2) the most points, (3) the most
    trump sequences (§2.7.3, §8b)."""
    if not official or _disjoint(tuple(found)):
        return tuple(sorted(found, key=strength, reverse=True))
    best_key, best = None, ()
    for n in range(1, len(found) + 1):
        for chosen in subsets(found, n):
            if not _disjoint(chosen):
                continue
            key = (max(strength(c) for c in chosen), sum(c.value for c in chosen),
                   sum(1 for c in chosen if in_trumps(c, trump)))
            if best_key is None or key > best_key:
                best_key, best = key, chosen
    return tuple(sorted(best, key=strength, reverse=True))


def compare(declared: Mapping[str, list[Combination]], taker_team: str, trump: str | None,
            official: bool) -> str | None:
    """The team whose combinations count (§2.7.5), or None when nobody's do."""
    teams = [t for t in ("NS", "EW") if declared.get(t)]
    if not teams:
        return None
    if len(teams) == 1:
        return teams[0]
    best = {t: max(strength(c) for c in declared[t]) for t in teams}
    if best["NS"] != best["EW"]:
        return "NS" if best["NS"] > best["EW"] else "EW"
    if not official:
        return taker_team                              # House: the taking team (§6 row 5)
    in_trump = [t for t in teams if any(strength(c) == best[t] and in_trumps(c, trump) for c in declared[t])]
    return in_trump[0] if len(in_trump) == 1 else None  # Official: trump sequence, else nobody (both, in TA)
