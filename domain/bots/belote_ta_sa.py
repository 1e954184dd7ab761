"""What a Coinche hand is worth in tout atout (TA) and sans atout (SA), in the same units as
`belote_auction`'s suit tables: the card points its side should take with an average partner,
what it adds to a partner's contract, what it takes off an opponent's.

These are hand counts, not fits: no suit is above another, so a trick is won by the master
of the suit led, and the masters are held, not drawn out. In TA the masters are the jacks and,
behind them, the nines (J 9 A 10 K Q 8 7 in every suit); in SA the aces and, behind them, the
tens. A master guarded by the next card is worth two tricks; small cards in a mastered suit
run once the suit is cleared. The count's weights are set by hand and its base by the
double-dummy points these contracts take (docstring of BASE), less a safety margin, so
`basic` bids them when they beat its best suit. Capot is never bid in them.
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.belote.combinations import choose as choose_combos
from domain.belote.combinations import find as find_combos
from domain.belote.ranking import ALL_TRUMPS, BELOTE_SUITS, NO_TRUMPS
from domain.cards import Seat

KINDS = (ALL_TRUMPS, NO_TRUMPS)
BASE = {ALL_TRUMPS: 55, NO_TRUMPS: 57}
"""An average partner's share and the lead's. Started from the mean double-dummy points of a
side at these contracts, eldest leading, less the hand's count (160 deals: TA 107 taken for a
count of 53, SA Official 96 for 52), then lowered until `basic` makes them about as often as
its suit contracts (800 deals, basic at every seat, both rule sets, combinations on and off:
TA 24 of 34 made, SA 9 of 10, suits 530 of 756)."""
TOP = {ALL_TRUMPS: ("J", "9"), NO_TRUMPS: ("A", "T")}
MASTER, SECOND, RUN, THIRD = 16, 11, 4, 3
"""Per suit: the master, the second card under it, each further card of a mastered suit of 3+,
the third card (A in TA, K in SA) under both."""
SUPPORT_OVER = 100                  # a hand adds to its partner's TA/SA what it holds above this (about the mean)
DEFENCE = {"master": -9, "second": -5}
NO_TRUMP_SCALE = {False: 130 / 162, True: 1.0}   # House SA has 130 card points, Official 162


def _suit_value(ranks: set[str], kind: str) -> int:
    first, second = TOP[kind]
    third = "A" if kind == ALL_TRUMPS else "K"
    value = 0
    if first in ranks:
        value += MASTER
        if second in ranks:
            value += SECOND
            if third in ranks:
                value += THIRD
        value += RUN * max(0, len(ranks) - 2)
    elif second in ranks and len(ranks) >= 2:
        value += SECOND // 2                      # the second card guarded: a trick once the master falls
    return value


def own_value(hand: Iterable[str], kind: str, official: bool) -> int:
    """Points the side should take in `kind` (TA or SA) from this hand and an average partner,
    its combinations included (they count toward the contract)."""
    hand = list(hand)
    value = BASE[kind]
    for suit in BELOTE_SUITS:
        value += _suit_value({c[0] for c in hand if c[1] == suit}, kind)
    if kind == NO_TRUMPS:
        value = int(value * NO_TRUMP_SCALE[official])
    trump = ALL_TRUMPS if kind == ALL_TRUMPS else None
    combos = choose_combos(find_combos(Seat.N, hand, kind == NO_TRUMPS and official), official, trump)
    return value + sum(c.value for c in combos)


def support_value(hand: Iterable[str], kind: str, official: bool) -> int:
    """What this hand adds to a partner's TA or SA over an average partner: only a strong one
    adds anything."""
    return max(0, own_value(hand, kind, official) - SUPPORT_OVER)


def defence_value(hand: Iterable[str], kind: str) -> int:
    """Points this hand takes off an opponent's TA or SA (negative), from its masters."""
    first, second = TOP[kind]
    value = 0
    for suit in BELOTE_SUITS:
        ranks = {c[0] for c in hand if c[1] == suit}
        if first in ranks:
            value += DEFENCE["master"] + (DEFENCE["second"] if second in ranks else 0)
        elif second in ranks and len(ranks) >= 2:
            value += DEFENCE["second"]
    return value


def guaranteed_trick(hand: Iterable[str], kind: str) -> bool:
    """A defender's trick against a capot in TA or SA: a master of any suit."""
    first = TOP[kind][0]
    return any(c[0] == first for c in hand)
