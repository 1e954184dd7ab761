"""The card play every `basic` bot shares: lowest winning card, partner awareness, keeping
trump control, never feeding counting cards to the other side.

The three games differ only in facts about cards (which suit a card follows under the
contract, how strong it is, what it counts), so each game fills a `Table` and this module
picks the card. A `Table` is built either from a seat's view (the bot itself) or from a
determinized state (the expert's playouts, where it must be cheap): the heuristic reads
only what the seat could see — its hand, the trick, the cards gone, voids shown — so the
two are the same player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from domain.cards import Card, Seat


PRECIOUS = 5
"""A card counting this much (a Cinch pedro, a Belote ten) is never led to draw trumps that
it cannot beat."""


@dataclass(slots=True)
class Table:
    seat: Seat
    partner: Seat | None              # None: no partner (Cinch individual, a misère contractor)
    hand: Sequence[Card]
    legal: Sequence[Card]
    plays: Sequence[tuple[Seat, Card]]  # the trick so far
    led: str | None                   # effective suit led (None when leading)
    trump: str | None
    suit_of: Callable[[Card], str | None]
    power: Callable[[Card, str | None], int]   # > 0 may win a trick led in that suit
    points: Callable[[Card], int]
    unseen: frozenset[Card]           # cards this seat has not seen played or held
    still_to_play: int                # seats after this one in the trick
    declaring: bool                   # this seat's side holds the contract
    voids: dict[Seat, str] = field(default_factory=dict)   # effective suits each seat showed void in
    after: Sequence[Seat] = ()        # seats to play after this one, in order
    free_ruff: bool = False           # a seat may trump although it could follow (Cinch)


def _cost(t: Table, card: Card) -> tuple[int, int, int]:
    """How much it hurts to give `card` away: counting points first (a pedro, a ten),
    then trumps (control), then strength."""
    return (t.points(card), 1 if t.suit_of(card) == t.trump and t.trump is not None else 0,
            t.power(card, t.suit_of(card)))


def winner(t: Table) -> tuple[Seat | None, int]:
    best_seat, best = None, 0
    for seat, card in t.plays:
        p = t.power(card, t.led)
        if best_seat is None or p > best:
            best_seat, best = seat, p
    return best_seat, best


def beats_unseen(t: Table, card: Card, led: str | None) -> bool:
    """Whether no card still out could beat `card` in a trick led in `led`, as far as the
    seat can tell: a higher card of the led suit (unless every seat still to play showed
    void in it), or a trump when the others may ruff (Cinch always; elsewhere a seat to
    play has shown void in the led suit)."""
    after = t.after
    if not after:
        return True
    mine = t.power(card, led)
    all_void = led is not None and all(led in t.voids.get(x, "") for x in after)
    some_void = led is not None and any(led in t.voids.get(x, "") for x in after)
    for other in t.unseen:
        if t.power(other, led) <= mine:
            continue
        s = t.suit_of(other)
        if s is None:
            return False
        if s == led:
            if not all_void:
                return False
        elif s == t.trump and (t.free_ruff or some_void):
            return False
    return True


def cheapest(t: Table, cards: Sequence[Card]) -> Card:
    return min(cards, key=lambda c: _cost(t, c))


def richest(t: Table, cards: Sequence[Card]) -> Card:
    """The card worth most to a trick the side wins, keeping trumps when a plain card will do."""
    return max(cards, key=lambda c: (t.points(c), 0 if t.suit_of(c) == t.trump else 1, -t.power(c, t.suit_of(c))))


def lead(t: Table) -> Card:
    legal = list(t.legal)
    trumps = [c for c in legal if t.trump is not None and t.suit_of(c) == t.trump]
    outstanding = [c for c in t.unseen if t.trump is not None and t.suit_of(c) == t.trump]
    if t.declaring and trumps and outstanding:
        top = max(trumps, key=lambda c: t.power(c, t.trump))
        if beats_unseen(t, top, t.trump):
            return top                                  # draw trumps with a master
        if len(trumps) >= 3:
            low = [c for c in trumps if t.points(c) == 0] or [c for c in trumps if t.points(c) < PRECIOUS]
            if low:                                     # never a pedro or a big trump to draw with
                return min(low, key=lambda c: (t.points(c), t.power(c, t.trump)))
    plain = [c for c in legal if c not in trumps]
    masters = [c for c in plain if beats_unseen(t, c, t.suit_of(c))]
    if masters:
        return max(masters, key=lambda c: (t.points(c), t.power(c, t.suit_of(c))))
    if plain:
        counts: dict[str | None, int] = {}
        for c in t.hand:
            counts[t.suit_of(c)] = counts.get(t.suit_of(c), 0) + 1
        return min(plain, key=lambda c: (t.points(c), counts[t.suit_of(c)], t.power(c, t.suit_of(c))))
    return cheapest(t, legal)


def follow(t: Table) -> Card:
    legal = list(t.legal)
    seat, best = winner(t)
    partner_wins = seat is not None and seat == t.partner
    if partner_wins:
        partner_card = next(c for s, c in t.plays if s == seat)
        if t.still_to_play == 0 or beats_unseen(t, partner_card, t.led):
            return richest(t, legal)                    # feed the partner's sure trick
        return cheapest(t, legal)
    winning = [c for c in legal if t.power(c, t.led) > best]
    if not winning:
        return cheapest(t, legal)
    if t.still_to_play == 0:
        return min(winning, key=lambda c: (t.power(c, t.led), t.points(c)))   # lowest winning card
    safe = [c for c in winning if beats_unseen(t, c, t.led)]
    if safe:
        return min(safe, key=lambda c: (t.points(c) if t.points(c) >= 5 else 0, t.power(c, t.led)))
    at_stake = sum(t.points(c) for _, c in t.plays)
    cheap_win = min(winning, key=lambda c: (t.points(c), t.power(c, t.led)))
    if at_stake > 0 or t.points(cheap_win) == 0:
        return cheap_win if t.points(cheap_win) < 5 else cheapest(t, legal)
    return cheapest(t, legal)


def choose(t: Table) -> Card:
    if len(t.legal) == 1:
        return t.legal[0]
    return lead(t) if not t.plays else follow(t)
