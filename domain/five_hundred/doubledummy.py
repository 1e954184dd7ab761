"""Five Hundred double dummy: the tricks a side ends the deal with, every remaining card
played perfectly (B.5, B.6).

In misère and open misère the contractor wants no trick, his partner sits out and play stops
at the first trick he takes (B.6.5), so the value reads as the contractor's tricks (0 or 1)
counted against his side: 0 or -1 for the contractor's side, 0 or +1 for the defenders.
Higher is better for the side either way. The Joker led in no-trumps or misère is tried
under each suit its leader may name.
"""

from __future__ import annotations

from functools import cache

from domain.cards import DECK_43, JOKER, SEAT_INDEX, SUITS
from domain.doubledummy import (
    Position,
    Solution,
    Table,
    masks,
    rest_reaches,
    rest_value,
    rest_values,
    start_hands,
)
from domain.five_hundred.ranking import DENOMINATIONS, NO_TRUMP, STRENGTH, SUIT_OF
from domain.five_hundred.scoring import score_deal
from domain.five_hundred.state import NOBODY, SIDE_NAMES, SIDE_OF, Contract, State

TRICKS = 10
NT_JOKER = 5000


@cache
def table(denomination: str, sitting_out: int = NOBODY) -> Table:
    """Each effective suit in trick order (the bowers and the Joker in the trump suit; in
    no-trumps the Joker alone in a fifth, suitless group that always wins)."""
    suit_of = SUIT_OF[denomination]
    codes: list[str] = []
    suits: list[int] = []
    for k, suit in enumerate(SUITS):
        group = sorted((c for c in DECK_43 if suit_of[c] == suit), key=lambda c: STRENGTH[denomination][suit][c])
        codes += group
        suits += [k] * len(group)
    joker = -1
    if denomination == NO_TRUMP:
        joker = len(codes)
        codes.append(JOKER)
        suits.append(4)
    t = -1 if denomination == NO_TRUMP else SUITS.index(denomination)
    order = [(i + 1) % 4 for i in range(4)]
    if sitting_out != NOBODY:
        order = [(o + 1) % 4 if o == sitting_out else o for o in order]
    return Table(codes=tuple(codes), suit=tuple(suits),
                 suit_mask=tuple(sum(1 << i for i, s in enumerate(suits) if s == k) for k in range(5)),
                 bonus=tuple(NT_JOKER if s == 4 else (1000 if s == t else 0) for s in suits),
                 points=(0,) * len(codes), trump=t, rule="follow", nxt=tuple(order),
                 players=3 if sitting_out != NOBODY else 4, trick_base=0 if sitting_out != NOBODY else 1,
                 stop_seat=-1 if sitting_out == NOBODY else (sitting_out + 2) % 4, joker=joker)


def _setup(state: State) -> tuple[Table, Position, tuple[bool, ...], int, int]:
    deal = state.deal
    if state.phase != "play" or deal.turn is None:
        raise ValueError("double dummy needs a five hundred deal in its play, with a seat to act")
    contract = deal.contract
    t = table(contract.denomination, contract.sitting_out)
    side = SIDE_OF[SEAT_INDEX[deal.turn]]
    hands = masks(t, deal.hands)
    if contract.sitting_out != NOBODY:
        hands[contract.sitting_out] = 0
    trick = deal.trick
    pos = Position(hands=hands, leader=SEAT_INDEX[trick.leader], tricks_left=TRICKS - len(deal.tricks),
                   plays=[(SEAT_INDEX[s], t.index[c]) for s, c in trick.plays],
                   led=SUITS.index(trick.led) if trick.plays else -1,
                   voids=[sum(1 << SUITS.index(s) for s in v) for v in deal.void])
    done = 0 if contract.sitting_out != NOBODY else deal.won[side]
    return t, pos, tuple(SIDE_OF[i] == side for i in range(4)), side, done


def value(state: State) -> int:
    """The side of the seat to act: its final tricks (misère: see the module's docstring)."""
    t, pos, mine, _, done = _setup(state)
    return done + rest_value(t, pos, mine)


def reaches(state: State, target: int) -> bool:
    """Whether `value(state)` is at least `target`, for less than it costs to compute."""
    t, pos, mine, _, done = _setup(state)
    return rest_reaches(t, pos, mine, target - done)


def solve(state: State) -> Solution:
    t, pos, mine, side, done = _setup(state)
    cards = {t.codes[c]: done + v for c, v in rest_values(t, pos, mine).items()}
    return Solution(side=SIDE_NAMES[side], unit="tricks", value=max(cards.values()), cards=cards)


def margins(state: State) -> dict[str, int]:
    """Each legal card of the seat to act -> the deal's score margin for its side (its score
    less the other's: the contract's value won or lost, the defenders' ten a trick), perfect
    play from here. The score never falls as the side's tricks rise, so the best card of one
    deal is the same; a mean over sampled deals is not: a line sure to make the contract beats
    one with more tricks on average and a chance of failing it."""
    t, pos, mine, side, done = _setup(state)
    contract = state.deal.contract
    return {t.codes[c]: score_margin(contract, side, done + v) for c, v in rest_values(t, pos, mine).items()}


def score_margin(contract: Contract, side: int, tricks: int) -> int:
    """The deal's score margin for `side` (its score less the other's) when it ends with
    `tricks`, read as `value` reads (misère: see the module's docstring)."""
    if contract.sitting_out != NOBODY:       # misère: the contractor's one trick, or none
        taken = -tricks if side == contract.side else tricks
        won = (taken, 0) if contract.side == 0 else (0, taken)
    else:
        won = (tricks, TRICKS - tricks) if side == 0 else (TRICKS - tricks, tricks)
    _, score = score_deal(contract, won)
    return score[side] - score[1 - side]


def contract_table(state: State) -> dict[str, dict[str, int]]:
    """Each denomination (S C D H NT) -> each side -> its tricks as contractor, from the hands
    as they were at the first lead (the kitty taken and discarded), the contractor leading
    (B.5.1): the better of the side's two seats as contractor."""
    deal = state.deal
    start = start_hands(deal.hands, deal.tricks, deal.trick)
    out: dict[str, dict[str, int]] = {}
    for denomination in DENOMINATIONS:
        t = table(denomination)
        row = {}
        for side, name in enumerate(SIDE_NAMES):
            mine = tuple(SIDE_OF[i] == side for i in range(4))
            row[name] = max(rest_value(t, Position(hands=masks(t, start), leader=i, tricks_left=TRICKS), mine)
                            for i in range(4) if SIDE_OF[i] == side)
        out[denomination] = row
    return out


__all__ = ["contract_table", "reaches", "solve", "table", "value"]
