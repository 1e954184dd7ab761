"""Single elimination over the tournament's state, pure: round 1 from the seeded bracket,
each later round from the previous one's winners in bracket order (`Round.order`).

A tie sends the upper slot through; a forfeit sends the entry that came; a double forfeit
neither (the bracket closes up). Apart from the aggregate to keep both short.
"""

from __future__ import annotations

from typing import Any

from domain.tournaments import pairing as pairs_of
from domain.tournaments import scoring
from domain.tournaments.events import BOTH


def pairing(state: Any, number: int) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    if number == 1:
        size = 1 << pairs_of.elimination_rounds(len(state.active))
        slots = [state.active[s - 1] if s <= len(state.active) else None for s in pairs_of.bracket_positions(size)]
        pairs, byes, order = [], [], []
        for a, b in zip(slots[::2], slots[1::2]):
            if a is not None and b is not None:
                pairs.append((a, b))
                order.append(f"table:{len(pairs)}")
            elif a or b:
                byes.append(a or b)
                order.append(a or b)  # type: ignore[arg-type]
        return pairs, byes, order
    previous = state.played[-1]
    survivors = []
    for slot in previous.order:
        if slot.startswith("table:"):
            table = next(t for t in previous.tables if t.table == int(slot[6:]))
            result = previous.results[table.table]
            if result.forfeit == BOTH:
                continue                                    # a double no-show: neither goes through
            r = scoring.TableResult(0, 0, table.home, table.away, result.score, {}, result.forfeit)
            survivors.append(r.winner or table.home)        # a tie: the upper slot goes through
        else:
            survivors.append(slot)
    survivors = [s for s in survivors if s not in state.withdrawn]
    pairs, byes = pairs_of.elimination_next_round(survivors)
    order = [f"table:{i}" for i in range(1, len(pairs) + 1)] + byes
    return pairs, byes, order
