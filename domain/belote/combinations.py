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
from domain.belote.tables import BELOTE_SUITS, NATURAL, NATURAL_INDEX, PLAIN_RANK_ORDER, SUIT

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


def find(seat: Seat, hand: Iterable[str], no_trump_table: bool) -> list[Combination]:
    """Every maximal run of 3+ cards (never split, A-17) and every scoring carré."""
    hand = tuple(hand)
    found: list[Combination] = []
    for suit in BELOTE_SUITS:
        held = sorted(NATURAL_INDEX[c] for c in hand if SUIT[c] == suit)
        run: list[int] = []
        for i in held + [99]:
            if run and i == run[-1] + 1:
                run.append(i)
                continue
            if len(run) >= 3:
                kind, value = SEQUENCE_KIND.get(len(run), CENT)
                found.append(Combination(seat, kind, value, suit, NATURAL[run[-1]],
                                         tuple(NATURAL[r] + suit for r in run)))
            run = [i]
    table = CARRE_NO_TRUMP_TABLE if no_trump_table else CARRE_TRUMP_TABLE
    for rank, value in table.items():
        cards = tuple(rank + s for s in BELOTE_SUITS)
        if all(c in hand for c in cards):
            found.append(Combination(seat, CARRE, value, None, rank, cards))
    return found


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
                   sum(1 for c in chosen if c.suit is not None and c.suit == trump))
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
    in_trump = [t for t in teams if any(strength(c) == best[t] and c.suit == trump and trump is not None
                                        for c in declared[t])]
    return in_trump[0] if len(in_trump) == 1 else None  # Official: trump sequence, else nobody
