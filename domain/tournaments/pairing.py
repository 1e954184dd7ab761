"""Pairing rules, pure: round robin (Berger tables), Swiss, single elimination, manual.

A pairing is a list of tables `(home, away)` of entry ids and a list of byes. `home` sits
NS and `away` EW (duplicate swaps them at every second table, see `duplicate.py`).
Every function is deterministic: the same inputs, the same pairing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.game import RuleViolation

Pair = tuple[str, str]
BYE = None


def berger_rounds(entries: Sequence[str]) -> list[tuple[list[Pair], list[str]]]:
    """Every round of a round robin by the Berger tables: n-1 rounds for n even (n with one
    bye per round for n odd). Entry i is player i+1 of the tables; the last player is fixed
    and alternates colours (here: NS/EW), the others rotate by n/2 - 1 ... the circle method.
    """
    players: list[str | None] = list(entries)
    if len(players) % 2:
        players.append(BYE)
    n = len(players)
    if n < 2:
        return []
    rounds = []
    rotating = players[:-1]
    fixed = players[-1]
    for r in range(n - 1):
        pairs: list[tuple[str | None, str | None]] = []
        # The fixed player meets the head of the rotation, alternating sides (Berger's rule).
        first = (rotating[0], fixed) if r % 2 == 0 else (fixed, rotating[0])
        pairs.append(first)
        for i in range(1, n // 2):
            pairs.append((rotating[i], rotating[-i]))
        tables = [(a, b) for a, b in pairs if a is not BYE and b is not BYE]
        byes = [a if b is BYE else b for a, b in pairs if a is BYE or b is BYE]
        rounds.append((tables, [x for x in byes if x is not None]))
        rotating = rotating[n // 2:] + rotating[:n // 2]  # Berger: advance by n/2 positions
    return rounds  # type: ignore[return-value]


def swiss_pairing(ranked: Sequence[str], played: set[frozenset[str]], had_bye: set[str]
                  ) -> tuple[list[Pair], list[str]]:
    """Pair `ranked` (best first) by score: each entry meets the best-ranked entry below it
    that it has not met, with backtracking so that no rematch happens when any pairing
    avoids one. With an odd number, the lowest-ranked entry without a bye gets it (byes
    rotate); if everyone has had one, the lowest-ranked gets a second. If no rematch-free
    pairing exists (more rounds than entries - 1), rematches are allowed, fewest first.
    """
    pool = list(ranked)
    byes: list[str] = []
    if len(pool) % 2:
        candidates = [e for e in reversed(pool) if e not in had_bye] or [pool[-1]]
        byes = [candidates[0]]
        pool.remove(byes[0])
    for allow in (False, True):
        found = _pair(pool, played, allow)
        if found is not None:
            return found, byes
    raise AssertionError("unreachable: a pairing with rematches always exists")


def _pair(pool: list[str], played: set[frozenset[str]], allow_rematch: bool) -> list[Pair] | None:
    if not pool:
        return []
    head, rest = pool[0], pool[1:]
    for i, other in enumerate(rest):
        if not allow_rematch and frozenset((head, other)) in played:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], played, allow_rematch)
        if tail is not None:
            return [(head, other), *tail]
    return None


def elimination_rounds(count: int) -> int:
    """Rounds of a single-elimination bracket for `count` entries: ceil(log2(count))."""
    return max(1, (count - 1).bit_length())


def bracket_positions(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a bracket of `size` (a power of two):
    1 v 8, 4 v 5, 2 v 7, 3 v 6 for 8, so the top seeds meet last."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def elimination_first_round(seeded: Sequence[str]) -> tuple[list[Pair], list[str]]:
    """Round 1 of the bracket: seeds by registration order; missing seeds are byes, which
    fall to the top seeds."""
    size = 1 << elimination_rounds(len(seeded))
    slots = [seeded[s - 1] if s <= len(seeded) else None for s in bracket_positions(size)]
    tables, byes = [], []
    for a, b in zip(slots[::2], slots[1::2]):
        if a is not None and b is not None:
            tables.append((a, b))
        else:
            byes.append(a or b)
    return tables, [x for x in byes if x is not None]


def elimination_next_round(previous_slots: Sequence[str]) -> tuple[list[Pair], list[str]]:
    """The next round from the survivors in bracket order (winners of table 1, 2, ...):
    neighbours meet; an odd survivor out (only after withdrawals) has a bye."""
    tables = [(a, b) for a, b in zip(previous_slots[::2], previous_slots[1::2])]
    byes = [previous_slots[-1]] if len(previous_slots) % 2 else []
    return tables, byes


def check_manual(tables: Sequence[Sequence[str]], byes: Sequence[str], active: Sequence[str]) -> list[Pair]:
    """All-or-nothing: every active entry exactly once, at a table of two or as a bye; no
    unknown entry. Raises RuleViolation("bad_pairing") with the reason otherwise."""
    seen: dict[str, int] = {}
    pairs: list[Pair] = []
    for i, table in enumerate(tables):
        if len(table) != 2 or table[0] == table[1]:
            raise RuleViolation("bad_pairing", f"table {i + 1} must seat two different entries", {"table": i + 1})
        pairs.append((table[0], table[1]))
        for entry in table:
            seen[entry] = seen.get(entry, 0) + 1
    for entry in byes:
        seen[entry] = seen.get(entry, 0) + 1
    unknown = sorted(set(seen) - set(active))
    twice = sorted(e for e, n in seen.items() if n > 1)
    missing = sorted(set(active) - set(seen))
    if unknown:
        raise RuleViolation("bad_pairing", f"unknown or withdrawn entries: {', '.join(unknown)}", {"unknown": unknown})
    if twice:
        raise RuleViolation("bad_pairing", f"entries paired more than once: {', '.join(twice)}", {"twice": twice})
    if missing:
        raise RuleViolation("bad_pairing", f"entries left out: {', '.join(missing)}", {"missing": missing})
    return pairs


def rank(entries: Sequence[str], points: Mapping[str, float], tiebreak: Mapping[str, float]) -> list[str]:
    """Best first: points, then the tie-break, then registration order (stable)."""
    order = {e: i for i, e in enumerate(entries)}
    return sorted(entries, key=lambda e: (-points.get(e, 0), -tiebreak.get(e, 0), order[e]))
