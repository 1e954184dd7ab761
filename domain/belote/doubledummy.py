"""Belote double dummy: the card points a team ends the deal with, every remaining card
played perfectly (belote.md §2.3-2.6).

The value is the team's card points as the deal's score counts them: the tricks' points, the
dix de der, or 100 instead of it for a capot (252 in all), and belote-rebelote's 20 when the
team holds it and has not declined it. Combinations are left out: they are fixed before the
first card and no card changes them.

The search works on the difference between the teams' card points, which is zero-sum: on
it, a team prefers a capot against it to losing the last trick by a card's worth, as the
deal's score does (a capot scores the defence's combinations for the takers, and its
contract total is 252), while the team's own points alone would not tell them apart.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from domain.belote.ranking import (
    ALL_TRUMPS,
    BELOTE_SUITS,
    PLAIN_STRENGTH,
    TRUMP_STRENGTH,
    card_values,
    deal_points,
)
from domain.belote.scoring import BELOTE, contract_score
from domain.belote.state import OTHER_TEAM, State
from domain.cards import SEAT_INDEX, SEATS, TEAM
from domain.doubledummy import Position, Solution, Table, rest_reaches, rest_value, rest_values

NEXT_INDEX = (3, 0, 1, 2)          # N -> W -> S -> E (counter-clockwise)
LAST_TRICK, CAPOT_TRICK = 10, 100
NO_TRUMP_LABEL = "SA"


@cache
def table(trump: str | None, official: bool) -> Table:
    """Each suit's cards in trick order, trumps ranked above every plain card. Tout atout
    has no suit above the others: each is in trump order, and the led suit is played
    "overtake" (over its best card when able)."""
    codes: list[str] = []
    for suit in BELOTE_SUITS:
        order = TRUMP_STRENGTH if suit == trump or trump == ALL_TRUMPS else PLAIN_STRENGTH
        codes += sorted((c for c in order if c[1] == suit), key=order.__getitem__)
    values = card_values(trump, official)
    suit_index = tuple(BELOTE_SUITS.index(c[1]) for c in codes)
    t = -1 if trump is None or trump == ALL_TRUMPS else BELOTE_SUITS.index(trump)
    rule = "overtake" if trump == ALL_TRUMPS else "overtrump" if official else "overtrump_or_trump"
    return Table(codes=tuple(codes), suit=suit_index,
                 suit_mask=tuple(sum(1 << i for i, s in enumerate(suit_index) if s == k) for k in range(5)),
                 bonus=tuple(1000 if s == t else 0 for s in suit_index),
                 points=tuple(values[c] for c in codes), trump=t,
                 rule=rule, nxt=NEXT_INDEX,
                 mode="diff", last_bonus=LAST_TRICK, capot_bonus=CAPOT_TRICK)


def _mask(t: Table, cards: Any) -> int:
    return sum(1 << t.index[c] for c in cards)


def _points(diff: int, trump: str | None, official: bool) -> int:
    """A team's card points from the difference (non-capot: P_A + P_D = total)."""
    total, capot = deal_points(trump, official)
    if diff == capot:
        return capot
    if diff == -capot:
        return 0
    return (diff + total) // 2


def _belote(state: State, team: str) -> int:
    deal = state.deal
    holder = deal.belote_holder
    if holder is None or TEAM[holder] != team or deal.belote == "declined":
        return 0
    return BELOTE


def _setup(state: State) -> tuple[Table, Position, tuple[bool, ...], str, int]:
    deal = state.deal
    if deal is None or deal.phase != "play" or deal.turn is None:
        raise ValueError("double dummy needs a belote deal in its play, with a seat to act")
    trump, official = deal.contract.trump, state.options.official
    t = table(trump, official)
    team = TEAM[deal.turn]
    mine = tuple(TEAM[s] == team for s in SEATS)
    flags = 0
    for trick in deal.tricks:
        flags |= 1 if TEAM[trick.winner] == team else 2
    trick = deal.trick
    pos = Position(hands=[_mask(t, h) for h in deal.hands], leader=SEAT_INDEX[trick.leader],
                   tricks_left=8 - len(deal.tricks),
                   plays=[(SEAT_INDEX[s], t.index[c]) for s, c in trick.plays],
                   led=BELOTE_SUITS.index(trick.led) if trick.plays else -1, flags=flags)
    done = deal.points[team] - deal.points[OTHER_TEAM[team]]
    return t, pos, mine, team, done


def value(state: State) -> int:
    """The final card points of the team of the seat to act, perfect play from here."""
    t, pos, mine, team, done = _setup(state)
    trump, official = state.deal.contract.trump, state.options.official
    return _points(done + rest_value(t, pos, mine), trump, official) + _belote(state, team)


def reaches(state: State, team: str, points: int) -> bool:
    """Whether `team` ends the deal with at least `points` card points (tricks, the dix de der,
    a capot's total when it takes every trick; belote and combinations apart), perfect play
    from here: one null-window probe, a fraction of what `card_points` costs (which bisects)."""
    if points <= 0:
        return True
    t, pos, _, _, _ = _setup(state)
    deal = state.deal
    total, capot = deal_points(deal.contract.trump, state.options.official)
    done = deal.points[team] - deal.points[OTHER_TEAM[team]]
    diff = 2 * points - total if points <= total else capot     # `_points`, inverted
    return rest_reaches(t, pos, tuple(TEAM[s] == team for s in SEATS), diff - done)


def card_points(state: State) -> tuple[dict[str, int], str | None]:
    """Each team's card points at the deal's end on the perfect line from here (tricks, the
    dix de der or a capot's 100), and the team that takes every trick if one does: what the
    score formulas take, belote and combinations apart. The difference is what the search
    plays on; a capot is its extreme, so it cannot be mistaken for a team's zero points."""
    t, pos, mine, team, done = _setup(state)
    return _split(state, team, done + rest_value(t, pos, mine))


def _split(state: State, team: str, diff: int) -> tuple[dict[str, int], str | None]:
    total, capot = deal_points(state.deal.contract.trump, state.options.official)
    other = OTHER_TEAM[team]
    if abs(diff) == capot:
        winner = team if diff > 0 else other
        return {winner: capot, OTHER_TEAM[winner]: 0}, winner
    points = (diff + total) // 2
    return {team: points, other: total - points}, None


def margins(state: State) -> dict[str, int]:
    """Each legal card of the seat to act -> the deal's score margin for its team (its score
    less the other's under the contract, every seat declaring), perfect play from here. The
    score never falls as the card points rise, so the best card of one deal is the same; but
    a mean over sampled deals is not: a line sure to make the contract beats one with more
    points on average and a chance of failing it, as the deal's score has it."""
    t, pos, mine, team, done = _setup(state)
    other = OTHER_TEAM[team]
    out = {}
    for c, v in rest_values(t, pos, mine).items():
        score = contract_score(state, *_split(state, team, done + v))
        out[t.codes[c]] = score[team] - score[other]
    return out


def solve(state: State) -> Solution:
    t, pos, mine, team, done = _setup(state)
    trump, official = state.deal.contract.trump, state.options.official
    extra = _belote(state, team)
    cards = {t.codes[c]: _points(done + v, trump, official) + extra for c, v in rest_values(t, pos, mine).items()}
    return Solution(side=team, unit="card_points", value=max(cards.values()), cards=cards)


def contract_table(state: State) -> dict[str, dict[str, int]]:
    """Each contract the variant plays (a trump suit, TA, or SA) -> each team -> its card
    points, from the hands as dealt, eldest leading (belote.md §1.3)."""
    deal = state.deal
    official = state.options.official
    start = [list(h) for h in deal.hands]
    for trick in (*deal.tricks, deal.trick) if deal.trick is not None else deal.tricks:
        for seat, card in trick.plays:
            start[SEAT_INDEX[seat]].append(card)
    trumps: tuple[str | None, ...] = (None,) if state.options.variant == "sans_atout" else BELOTE_SUITS
    if state.options.ta_sa:
        trumps += (ALL_TRUMPS, None)
    out: dict[str, dict[str, int]] = {}
    for trump in trumps:
        t = table(trump, official)
        pos = Position(hands=[_mask(t, h) for h in start], leader=SEAT_INDEX[deal.eldest], tricks_left=8)
        mine = tuple(TEAM[s] == "NS" for s in SEATS)
        diff = rest_value(t, pos, mine)
        row = {"NS": _points(diff, trump, official), "EW": _points(-diff, trump, official)}
        if trump is not None and trump != ALL_TRUMPS:
            for seat, hand in zip(SEATS, start):
                if "K" + trump in hand and "Q" + trump in hand:
                    row[TEAM[seat]] += BELOTE
        out[trump or NO_TRUMP_LABEL] = row
    return out


__all__ = ["card_points", "contract_table", "solve", "table", "value"]
