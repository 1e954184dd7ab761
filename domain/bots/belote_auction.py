"""How `basic` bids in the Belote family, from the seat's view: classic's take-or-pass, Sans
Atout's take, and the Coinche auction.

Coinche values a hand in points its side should take with a suit as trumps (cards, belote
and the combinations, as the contract counts them), the partner assumed average. The
tables below are least-squares fits of the points `basic` itself takes over thousands of
deals played out from a forced contract, so a bid means what `basic` can make:

* `own`: the hand opening (or overcalling) in a suit;
* `support`: what the hand adds to a partner's suit over an average partner's hand;
* `defence`: what the hand takes off an opponent's contract over an average defender.

A seat bids its side's value less a safety margin (`MARGIN`, which makes about 70% of the
contracts), rounded down to ten, in one go: an opening bid is the opener's whole value, a
raise the supporter's whole support, so neither partner has anything left to add and the
side raises its own partner at most once. Coinche when the hand takes the opponents under
their bid (`COINCHE_AT`, set by duplicate duels: about 60% of the contracts it coinches
fail), surcoinche when the side's value clears the coinched contract by a margin, capot
when the hand alone can draw trumps and has no losing card. Tout atout and sans atout are
valued by `belote_ta_sa` and bid the same way.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from domain.belote.combinations import choose as choose_combos, find as find_combos
from domain.belote.ranking import BELOTE_SUITS, DENOMINATIONS
from domain.belote.state import PARTNER, TEAM
from domain.bots import belote_ta_sa
from domain.cards import Seat

TRUMP_VALUE = {"J": 35, "9": 25, "A": 15, "T": 12, "K": 8, "Q": 8, "8": 5, "7": 5}
TAKE = (56, 60)          # classic: the hand value to take in round 1 (with the turn-up) and to name in round 2
NO_TRUMP = {"base": 57, "ace": 10, "ace_ten": 6, "ten": 5, "king": 1.5, "queen": 2, "long": 1.5}
NO_TRUMP_TAKE = (76, 75, 73.5, 73.5)   # Sans Atout: take from this `no_trump_value`, by the passes before (later, the
                                       # opponents are known to be weaker): the best sixth of five-card hands

MARGIN = 20              # Coinche: bid the side's value less this (about 70% of contracts made)
COINCHE_AT = 20         # Coinche: coinche when the hand takes this much off an average defence
OPEN = {"base": 46, "J": 28, "9": 20, "A": 16, "T": 12, "low": 8, "belote": 21, "long": 3,
        "side_ace": 12, "side_ten": 4, "side_king": 1, "void": 7}
SUPPORT = {"average": 50, "J": 36, "9": 22, "A": 16, "T": 13, "low": 10, "belote": 18, "long": 4,
           "side_ace": 14, "side_ten": 4, "side_king": 2, "void": 3}
DEFENCE = {"average": -22, "J": -20, "9": -11, "A": -8, "T": -7, "low": -5, "belote": -2, "long": -5,
           "side_ace": -7, "side_ten": -3, "side_king": -1, "void": -4}
TRUMP_ORDER = "J9ATKQ87"
PLAIN_ORDER = "ATKQJ987"


# --- classic and Sans Atout ------------------------------------------------------------------

def suit_strength(hand: list[str], trump: str) -> int:
    """Classic: a hand's worth with `trump` as trumps, in taking tricks."""
    score = 0
    trumps = [c for c in hand if c[1] == trump]
    for c in trumps:
        score += TRUMP_VALUE[c[0]]
    if "K" + trump in hand and "Q" + trump in hand:
        score += 10
    score += 8 * max(0, len(trumps) - 3)
    for c in hand:
        if c[1] != trump:
            if c[0] == "A":
                score += 15
            elif c[0] == "T" and "A" + c[1] in hand:
                score += 8
    return score


def no_trump_value(hand: list[str]) -> float:
    """Sans Atout, five cards: the card points (of 130) the side should take, fitted like
    Coinche's tables — aces above all, a ten beside its ace or guarded, a guarded king or
    queen, length behind an ace."""
    score = NO_TRUMP["base"]
    for suit in BELOTE_SUITS:
        ranks = {c[0] for c in hand if c[1] == suit}
        n = len(ranks)
        if "A" in ranks:
            score += NO_TRUMP["ace"] + NO_TRUMP["long"] * max(0, n - 2) + (NO_TRUMP["ace_ten"] if "T" in ranks else 0)
        else:
            score += NO_TRUMP["ten"] if "T" in ranks and n >= 2 else 0
            score += NO_TRUMP["king"] if "K" in ranks and n >= 2 else 0
        score += NO_TRUMP["queen"] if "Q" in ranks and n >= 3 else 0
    return score


def bid_classic(view: Any, legal: list[dict[str, Any]]) -> dict[str, Any]:
    hand = list(view.hand)
    if view.options.variant == "sans_atout":
        take = no_trump_value(hand) >= NO_TRUMP_TAKE[min(len(view.calls), 3)]
        return {"action": "take"} if take and {"action": "take"} in legal else {"action": "pass"}
    if any(a["action"] == "take" for a in legal):
        trump = view.turn_up[1]
        return {"action": "take"} if suit_strength(hand + [view.turn_up], trump) >= TAKE[0] else {"action": "pass"}
    names = [a for a in legal if a["action"] == "name"]
    if names:
        best = max(names, key=lambda a: suit_strength(hand, a["suit"]))
        if suit_strength(hand, best["suit"]) >= TAKE[1]:
            return best
    return {"action": "pass"}


# --- Coinche: what a hand is worth -----------------------------------------------------------

def _features(hand: Iterable[str], trump: str) -> dict[str, int]:
    hand = list(hand)
    ranks = {c[0] for c in hand if c[1] == trump}
    out = {r: int(r in ranks) for r in "J9AT"}
    out["low"] = sum(1 for r in ranks if r in "KQ87")
    out["belote"] = int({"K", "Q"} <= ranks)
    out["long"] = max(0, len(ranks) - 3)
    out["side_ace"] = out["side_ten"] = out["side_king"] = out["void"] = 0
    for suit in BELOTE_SUITS:
        if suit == trump:
            continue
        side = {c[0] for c in hand if c[1] == suit}
        out["side_ace"] += "A" in side
        out["side_ten"] += "T" in side
        out["side_king"] += "K" in side
        out["void"] += not side
    return out


def _weigh(table: dict[str, int], features: dict[str, int]) -> int:
    return sum(table[k] * v for k, v in features.items())


def combination_points(hand: Iterable[str], trump: str, official: bool) -> int:
    """The combinations this hand would declare with `trump` (they count toward the contract)."""
    return sum(c.value for c in choose_combos(find_combos(Seat.N, list(hand), False), official, trump))


@lru_cache(maxsize=1024)
def _values(hand: tuple[str, ...], trump: str, official: bool) -> tuple[int, int, int]:
    """(own, support, defence) of a hand in `trump`. Memoized: the expert's worlds ask the
    same hands again and again (every call replayed, every candidate's playout of the rest
    of the auction), and a hand's worth is all arithmetic on the same cards. Those repeats
    come within one world, so a small cache catches them; a large one only keeps more
    objects for the garbage collector to walk (measured: 7x its time, and collections of
    20-40 ms inside a decision)."""
    if trump in belote_ta_sa.KINDS:
        return (belote_ta_sa.own_value(hand, trump, official), belote_ta_sa.support_value(hand, trump, official),
                belote_ta_sa.defence_value(hand, trump))
    features = _features(hand, trump)
    combos = combination_points(hand, trump, official)
    return (OPEN["base"] + _weigh(OPEN, features) + combos,
            _weigh(SUPPORT, features) - SUPPORT["average"] + combos,
            _weigh(DEFENCE, features) - DEFENCE["average"])


def own_value(hand: Iterable[str], trump: str, official: bool = False) -> int:
    """Points the side should take in `trump` from this hand and an average partner."""
    return _values(tuple(hand), trump, official)[0]


def support_value(hand: Iterable[str], trump: str, official: bool = False) -> int:
    """What this hand adds to the partner's contract in `trump` over an average partner."""
    return _values(tuple(hand), trump, official)[1]


def defence_value(hand: Iterable[str], trump: str) -> int:
    """Points this hand takes off the opponents' contract in `trump` over an average defender
    (negative: the contract is worse off)."""
    return _values(tuple(hand), trump, False)[2]


def sure_capot(hand: Iterable[str], trump: str) -> bool:
    """The hand alone takes every trick: it draws the outstanding trumps with masters (the top
    of the trump order, five trumps or more) and every side card is a master once the suit
    is led from the top."""
    return _sure_capot(tuple(hand), trump)


@lru_cache(maxsize=1024)
def _sure_capot(hand: tuple[str, ...], trump: str) -> bool:
    if trump in belote_ta_sa.KINDS:
        return False
    hand = list(hand)
    trumps = [c[0] for c in hand if c[1] == trump]
    top = next((i for i, r in enumerate(TRUMP_ORDER) if r not in trumps), len(TRUMP_ORDER))
    if len(trumps) < 5 or top < min(3, 8 - len(trumps)):
        return False
    for suit in BELOTE_SUITS:
        if suit == trump:
            continue
        side = [c[0] for c in hand if c[1] == suit]
        masters = next((i for i, r in enumerate(PLAIN_ORDER) if r not in side), len(PLAIN_ORDER))
        if len(side) > masters:
            return False
    return True


def guaranteed_trick(hand: Iterable[str], trump: str) -> bool:
    """A defender's trick against a capot: the master trump, or the nine guarded."""
    if trump in belote_ta_sa.KINDS:
        return belote_ta_sa.guaranteed_trick(hand, trump)
    trumps = {c[0] for c in hand if c[1] == trump}
    return "J" in trumps or ("9" in trumps and len(trumps) >= 2)


# --- Coinche: the auction ----------------------------------------------------------------------

def _side_value(view: Any, seat: Seat, suit: str, bids: list[Any]) -> int:
    """The side's value in `suit` as this seat knows it, counting each partner once: the
    opener's own value plus what a raise showed, or the partner's bid plus this hand's
    support."""
    official = view.options.official
    hand = list(view.hand)
    in_suit = [c for c in bids if c.suit == suit and TEAM[c.seat] == TEAM[seat]]
    if not in_suit or in_suit[0].seat == seat:
        mine = own_value(hand, suit, official)
        raised = [c.value for c in in_suit if c.seat != seat and c.value != "capot"]
        before = [c.value for c in in_suit if c.seat == seat and c.value != "capot"]
        if raised and before:
            mine += max(0, max(raised) - max(before))
        return mine
    partner_bid = max(c.value for c in in_suit if c.seat != seat and c.value != "capot") if any(
        c.value != "capot" for c in in_suit if c.seat != seat) else 0
    return partner_bid + MARGIN + support_value(hand, suit, official)


def bid_coinche(view: Any, seat: Seat, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    hand = list(view.hand)
    bids = [c for c in view.calls if c.action == "bid"]
    high = bids[-1] if bids else None
    if {"action": "coinche"} in legal and high is not None:
        if high.value == "capot":
            if guaranteed_trick(hand, high.suit):
                return {"action": "coinche"}
        elif defence_value(hand, high.suit) <= -COINCHE_AT:
            return {"action": "coinche"}
    if {"action": "surcoinche"} in legal and high is not None:
        value = 250 if high.value == "capot" else high.value
        if high.value == "capot" and sure_capot(hand, high.suit):
            return {"action": "surcoinche"}
        if high.value != "capot" and _side_value(view, seat, high.suit, bids) - MARGIN >= value + 30:
            return {"action": "surcoinche"}
    if view.turn != seat:
        return None
    offered = {(a["value"], a["suit"]) for a in legal if a["action"] == "bid"}
    if not offered:
        return {"action": "pass"}
    over_partner = high is not None and high.seat == PARTNER[seat]
    if over_partner and _raised_partner(view.calls, seat):
        return {"action": "pass"}                       # the side has raised its partner once already
    mine = {c.suit for c in bids if c.seat == seat}
    best: tuple[int, str] | None = None
    for suit in (d for d in DENOMINATIONS if any(s == d for _, s in offered)):
        if over_partner and suit in mine:
            continue                                    # this hand is already counted in that suit
        if ("capot", suit) in offered and sure_capot(hand, suit):
            return {"action": "bid", "value": "capot", "suit": suit}
        value = _side_value(view, seat, suit, bids) - MARGIN
        level = value // 10 * 10
        if over_partner and suit != high.suit:
            level = min(level, value - 20) // 10 * 10    # a new suit over the partner must be much better
        while level >= 80 and (level, suit) not in offered:
            level -= 10
        if level >= 80 and (level, suit) in offered and (best is None or level > best[0] or (
                level == best[0] and high is not None and suit == high.suit)):
            best = (level, suit)
    if best is None:
        return {"action": "pass"}
    return {"action": "bid", "value": best[0], "suit": best[1]}


def _raised_partner(calls: Iterable[Any], seat: Seat) -> bool:
    """Whether a player of this seat's side has already bid over his partner's bid."""
    high = None
    for c in calls:
        if c.action != "bid":
            continue
        if high is not None and TEAM[c.seat] == TEAM[seat] and high.seat == PARTNER[c.seat]:
            return True
        high = c
    return False
