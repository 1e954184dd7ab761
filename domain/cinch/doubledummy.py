"""Cinch double dummy: the points (High, Low, Jack, Game, Right and Left Pedro, A.2) a side
ends the deal with, every remaining card played perfectly.

The value counts what `scoring.credits` will credit the side: the counting cards of tricks
it wins, a trump an opponent shed face up (A.4.9), and under `low_point: holder` the Two to
the side of the seat that plays it. In individual play each seat is its own side and the
three others are taken to play against it (each one's best result when the table combines
against him: the only exact result a four-sided game has).
"""

from __future__ import annotations

from functools import lru_cache

from domain.cards import RANKS, SEAT_INDEX, SEATS, SUITS
from domain.doubledummy import Position, Solution, Table, masks, rest_value, rest_values, start_hands

from domain.cinch.options import side_table
from domain.cinch.ranking import TABLES, trump_order
from domain.cinch.scoring import credits
from domain.cinch.state import State

NEXT_INDEX = (1, 2, 3, 0)          # clockwise
TRICKS = 6


@lru_cache(maxsize=None)
def table(trump: str, low_to_holder: bool) -> Table:
    """The trump suit (the Left Pedro among it) in trick order, then each plain suit."""
    facts = TABLES[trump]
    codes: list[str] = []
    suits: list[int] = []
    for k, suit in enumerate(SUITS):
        group = trump_order(trump) if suit == trump else tuple(r + suit for r in RANKS if r + suit not in facts.trumps)
        codes += group
        suits += [k] * len(group)
    t = SUITS.index(trump)
    values = dict(facts.points)
    if low_to_holder:
        values[facts.low] = 0       # credited to its holder's side, whoever wins the trick
    return Table(codes=tuple(codes), suit=tuple(suits),
                 suit_mask=tuple(sum(1 << i for i, s in enumerate(suits) if s == k) for k in range(5)),
                 bonus=tuple(1000 if s == t else 0 for s in suits),
                 points=tuple(values.get(c, 0) for c in codes), trump=t, rule="cinch", nxt=NEXT_INDEX)


def _mine(state: State, side: str) -> tuple[bool, ...]:
    sides = side_table(state.options)
    return tuple(sides[s] == side for s in SEATS)


def _low_credit(state: State, side: str, hands: list[list[str]] | tuple[tuple[str, ...], ...],
                trick_plays: tuple = ()) -> int:
    """The Two's point under `low_point: holder`, when it is still to be credited."""
    if state.options.low_point != "holder":
        return 0
    low = TABLES[state.deal.contract.trump].low
    sides = side_table(state.options)
    for seat, card in trick_plays:
        if card == low:
            return 1 if sides[seat] == side else 0
    for seat, hand in zip(SEATS, hands):
        if low in hand:
            return 1 if sides[seat] == side else 0
    return 0


def _setup(state: State) -> tuple[Table, Position, tuple[bool, ...], str, int]:
    deal = state.deal
    if state.phase != "play" or deal.turn is None:
        raise ValueError("double dummy needs a cinch deal in its play, with a seat to act")
    trump = deal.contract.trump
    t = table(trump, state.options.low_point == "holder")
    side = side_table(state.options)[deal.turn]
    values = TABLES[trump].points
    done = sum(values[c] for c, s in credits(state) if s == side)
    done += _low_credit(state, side, deal.hands, deal.trick.plays)
    trick = deal.trick
    pos = Position(hands=masks(t, deal.hands), leader=SEAT_INDEX[trick.leader], tricks_left=TRICKS - len(deal.tricks),
                   plays=[(SEAT_INDEX[s], t.index[c]) for s, c in trick.plays],
                   led=SUITS.index(trick.led) if trick.plays else -1)
    return t, pos, _mine(state, side), side, done


def value(state: State) -> int:
    """The final points of the side of the seat to act, perfect play from here."""
    t, pos, mine, side, done = _setup(state)
    return done + rest_value(t, pos, mine)


def solve(state: State) -> Solution:
    t, pos, mine, side, done = _setup(state)
    cards = {t.codes[c]: done + v for c, v in rest_values(t, pos, mine).items()}
    return Solution(side=side, unit="points", value=max(cards.values()), cards=cards)


def contract_table(state: State) -> dict[str, dict[str, int]]:
    """Each trump suit -> each side -> its points, from the hands as they were at the first
    lead, the bidder leading (A.5): for a partnership, the better of its two seats as
    bidder. Trumps shed face up count only under the deal's own trump."""
    deal = state.deal
    start = start_hands(deal.hands, deal.tricks, deal.trick)
    sides = side_table(state.options)
    low_to_holder = state.options.low_point == "holder"
    out: dict[str, dict[str, int]] = {}
    for trump in SUITS:
        t = table(trump, low_to_holder)
        row: dict[str, int] = {}
        for side in dict.fromkeys(sides.values()):
            mine = _mine(state, side)
            shed = 0
            if trump == deal.contract.trump:
                shed = sum(TABLES[trump].points[c] for c, s in credits(_unplayed(state)) if s == side)
            low = 0
            if low_to_holder:
                holder = next((s for s, h in zip(SEATS, start) if "2" + trump in h), None)
                low = 1 if holder is not None and sides[holder] == side else 0
            row[side] = shed + low + max(
                rest_value(t, Position(hands=masks(t, start), leader=SEAT_INDEX[seat], tricks_left=TRICKS), mine)
                for seat in SEATS if sides[seat] == side)
        out[trump] = row
    return out


def _unplayed(state: State) -> State:
    """The deal without its tricks: what is credited before the first lead (the shed trumps)."""
    from msgspec.structs import replace
    return replace(state, deal=replace(state.deal, tricks=()))


__all__ = ["contract_table", "solve", "table", "value"]
