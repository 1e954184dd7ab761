"""Five Hundred par: a board's result when the auction and the play are both perfect, every
hand known (B.3–B.7).

A contract's play depends on its contractor, its denomination (trump suit, no-trumps, or
misère with the partner sitting out) and the three cards he discards after taking the kitty;
its level only changes the score, and every score is non-decreasing in the contractor's
tricks (a misère in his taking none). So each (contractor, denomination) is solved once per
candidate discard through the real decider, and the best is kept: the three lowest cards
outside trumps, and every way of voiding one or two short side suits with them (misère: the
highest cards, and the same voids). Open misère plays as misère, every hand being open here.

The continuous auction is then searched exactly (B.3): each seat in turn passes for good or
bids over the highest bid, the side to speak choosing what is best for it, until three pass
after a bid, 10NT closes it, or four passes throw the deal in. Ties go to passing and to the
lower bid.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from domain.cards import JOKER, SEATS, Seat
from domain.five_hundred import bids, doubledummy
from domain.five_hundred.actions import parse_action
from domain.five_hundred.auction import next_bidder
from domain.five_hundred.decider import decide, evolve
from domain.five_hundred.events import ContractWon, KittyTaken
from domain.five_hundred.options import Options
from domain.five_hundred.ranking import NO_TRUMP, STRENGTH, SUIT_OF
from domain.five_hundred.scoring import score_deal
from domain.five_hundred.state import (
    SEAT_INDEX,
    SIDE_NAMES,
    SIDE_OF,
    State,
    initial,
    make_contract,
)
from domain.five_hundred.summary import contract_json
from domain.par import NOBODY, Driver, Par, margin

RULES = Driver(initial, decide, evolve, parse_action)
TRICKS = 10
MISERE = "misere"


def _strength(card: str, denomination: str) -> int:
    suit = SUIT_OF[denomination][card] or "S"
    return STRENGTH[denomination][suit][card]


def discards(hand: Sequence[str], denomination: str, misere: bool) -> list[tuple[str, ...]]:
    """The candidate discards of a contractor's thirteen cards: the three cards he wants least
    (the lowest outside trumps; in misère the highest), and each way of voiding one or two
    short side suits topped up with those."""
    suit_of = SUIT_OF[denomination]
    if misere:
        spare = sorted(hand, key=lambda c: -_strength(c, denomination))
    else:
        spare = sorted((c for c in hand if c != JOKER and suit_of[c] != denomination),
                       key=lambda c: _strength(c, denomination))
        spare += sorted((c for c in hand if c not in spare), key=lambda c: _strength(c, denomination))
    suits: dict[str, list[str]] = {}
    for card in spare:
        if card != JOKER and suit_of[card] != denomination:
            suits.setdefault(suit_of[card], []).append(card)          # type: ignore[arg-type]
    voids = [cards for cards in suits.values() if len(cards) <= 3]
    voids += [a + b for a, b in combinations(voids, 2) if len(a) + len(b) <= 3]
    out = {tuple(sorted(spare[:3]))}
    for void in voids:
        fill = [c for c in spare if c not in void][:3 - len(void)]
        out.add(tuple(sorted(void + fill)))
    return sorted(out)


def _contractor(state: State, seat: Seat, index: int) -> State:
    """The deal as the auction leaves it when `seat` holds bid `index` and has the kitty."""
    spec = bids.BIDS[index]
    state = RULES.evolve(state, ContractWon(seat=seat, tricks=spec.tricks, suit=spec.suit,
                                            contract=spec.kind, value=spec.value))
    return RULES.evolve(state, KittyTaken(seat=seat, cards=state.deal.kitty))


def _climb(state: State, start: int, top: int) -> int:
    """The value of `state`, known to be at least `start`: one probe per trick above it (a
    better discard rarely gains more than one, and a probe costs a third of a full solve)."""
    value = start
    while value < top and doubledummy.reaches(state, value + 1):
        value += 1
    return value


def _best_play(state: State, seat: Seat, index: int, guess: int | None = None) -> tuple[int, tuple[str, ...]]:
    """(the contractor's side's tricks with his best candidate discard — in misère 0 or -1 —,
    that discard). `guess`, a likely value (the partner's in the same denomination), saves
    probes when it is right and costs one when it is not."""
    spec = bids.BIDS[index]
    holding = _contractor(state, seat, index)
    top = 0 if spec.misere else TRICKS
    best: tuple[int, tuple[str, ...]] | None = None
    for cards in discards(holding.deal.hands[SEAT_INDEX[seat]], spec.denomination, spec.misere):
        played = RULES.act(holding, seat, action="discard", cards=list(cards))
        if best is None:
            if guess is not None and doubledummy.reaches(played, guess):
                best = (_climb(played, guess, top), cards)
            else:
                best = (doubledummy.value(played), cards)
        elif best[0] < top and doubledummy.reaches(played, best[0] + 1):
            # after the first, a discard needs its exact value only when it beats the best so far
            best = (_climb(played, best[0] + 1, top), cards)
    assert best is not None
    return best


def par(options: Options, dealer: str, deck: Sequence[str]) -> Par:
    """The board's par: its contract (None when all four pass), each side's score and tricks."""
    state = RULES.dealt(options, dealer, deck)
    first = {denomination: next(b.index for b in bids.BIDS if b.denomination == denomination and not b.misere)
             for denomination in (*"SCDH", NO_TRUMP)}

    @cache
    def taken(seat: Seat, denomination: str) -> int:
        """The contractor's side's tricks: in misère 0 when he takes none, else 1."""
        if denomination == MISERE:
            return -_best_play(state, seat, bids.find(None, None, MISERE))[0]
        partner = SEATS[(SEAT_INDEX[seat] + 2) % 4]
        guess = taken(partner, denomination) if SEAT_INDEX[seat] >= 2 else None
        return _best_play(state, seat, first[denomination], guess)[0]

    def close(seat: Seat, index: int) -> Par:
        spec = bids.BIDS[index]
        side = SIDE_OF[SEAT_INDEX[seat]]
        mine = taken(seat, MISERE if spec.misere else spec.denomination)
        won = [0, 0]
        won[side], won[1 - side] = mine, TRICKS - mine
        _, score = score_deal(make_contract(seat, index), (won[0], won[1]))
        return Par(contract_json(make_contract(seat, index)), dict(zip(SIDE_NAMES, score)), dict(zip(SIDE_NAMES, won)), "tricks")

    @cache
    def auction(turn: int, high: int, bidder: Seat | None, passed: tuple[bool, ...]) -> Par:
        team = SIDE_NAMES[SIDE_OF[turn]]
        now = passed[:turn] + (True,) + passed[turn + 1:]
        if sum(now) == 4:
            best = Par(None, dict(NOBODY), dict(NOBODY), "tricks")        # thrown in
        elif sum(now) == 3 and bidder is not None:
            best = close(bidder, high)
        else:
            best = auction(next_bidder(now, turn), high, bidder, now)
        for index in bids.biddable(high, options.misere):
            if index == bids.HIGHEST or sum(passed) == 3:
                outcome = close(SEATS[turn], index)
            else:
                outcome = auction(next_bidder(passed, turn), index, SEATS[turn], passed)
            if margin(outcome, team) > margin(best, team):
                best = outcome
        return best

    return auction(SEAT_INDEX[state.deal.turn], -1, None, (False,) * 4)


__all__ = ["discards", "par"]
