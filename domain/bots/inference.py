"""Reading the other seats' cards: a world is likelier the more of their cards so far a
player holding that world's hands would have played too.

The model of a player is `basic`, the one policy cheap enough to ask at every card of every
world (about a tenth of a millisecond a world, against a millisecond or more to solve one).
It is a model, not a fact: a human, the expert or the master plays other cards, so a card
`basic` would not have played weighs a world down (`Master.doubt` a miss) rather than
ruling it out. Ties are read kindly: the card played is put first among the legal cards,
so when `basic` ranks it level with another (two small cards of equal worth) it is the one
picked, and the hand's order — the deal's, which nothing else sees — never counts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from domain.cards import Card, Seat
from domain.tricks import Trick


class Decision(NamedTuple):
    """One card another seat played: the trick as it found it, the tricks done before, and
    the cards it played from then on (its hand then is the world's hand and these)."""

    seat: Seat
    card: Card
    trick: Trick
    before: tuple[Trick, ...]
    later: tuple[Card, ...]


def decisions(me: Seat, tricks: Sequence[Trick], trick: Trick | None) -> list[Decision]:
    """The other seats' cards of the deal so far, in order."""
    every = [*tricks, *((trick,) if trick is not None and trick.plays else ())]
    out: list[Decision] = []
    for k, t in enumerate(every):
        for i, (seat, card) in enumerate(t.plays):
            if seat == me:
                continue
            later = [card] + [c for tt in every[k + 1:] for s, c in tt.plays if s == seat]
            so_far = Trick(t.leader, t.plays[:i], t.led if i else None)
            out.append(Decision(seat, card, so_far, tuple(every[:k]), tuple(later)))
    return out


Agrees = Callable[[Decision, tuple[Card, ...]], bool]
"""Whether `basic`, holding the hand given at the decision's trick, plays the decision's card."""


def misses(points: Sequence[Decision], hands: Mapping[Seat, Sequence[Card]], agrees: Agrees) -> int:
    """How many of the decisions `basic` would not have made with the world's `hands`."""
    return sum(1 for d in points if not agrees(d, tuple(hands[d.seat]) + d.later))


def first(card: Card, legal: Sequence[Card]) -> list[Card] | None:
    """`legal` with `card` first (see the module docstring); None when the card is not legal
    with that hand (the world contradicts the play), [] when it was the only card."""
    if card not in legal:
        return None
    if len(legal) < 2:
        return []
    return [card, *(c for c in legal if c != card)]


__all__ = ["Agrees", "Decision", "decisions", "first", "misses"]
