"""How `basic` bids Five Hundred, from the seat's view.

A hand is valued in the tricks its side should take in each denomination — the partner
assumed average and the kitty taken — with weights fitted by least squares to the tricks
`basic` itself takes over thousands of deals played out from a forced contract (`SUIT`,
`NO_TRUMP_VALUE`). The seat bids the highest contract its side's value makes about 70% of
the time (`MARGIN` below the value), at once: an opening bid is the opener's whole value,
a raise the supporter's whole support (`SUPPORT`: what the hand adds over an average
partner), so each partner is counted once and a side raises its own partner at most once.
No-trumps is bid when it is worth more, as the Avondale table ranks it. Misère and open
misère are bid on a hand with few cards the defenders can get under (`misere_exposure`).
"""

from __future__ import annotations

from typing import Any, Iterable

from domain.cards import JOKER, PARTNER, Seat
from domain.five_hundred.bids import BIDS, find
from domain.five_hundred.ranking import NO_TRUMP, SUIT_OF, plain_order

DENOMINATIONS = ("S", "C", "D", "H", NO_TRUMP)
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
SUIT = {"base": 3.5, "joker": 1.15, "right": 1.05, "left": 0.65, "A": 0.65, "K": 0.65, "Q": 0.55,
        "low": 0.45, "side_ace": 0.45, "side_king": 0.2, "void": 0.2, "single": 0.2}
SUIT_SUPPORT = {"average": 2.3, "joker": 1.25, "right": 1.1, "left": 0.8, "A": 0.65, "K": 0.55, "Q": 0.55,
                "low": 0.4, "side_ace": 0.55, "side_king": 0.35, "void": 0.15, "single": 0.0}
NO_TRUMP_VALUE = {"base": 3.95, "joker": 0.7, "ace": 0.7, "king": 0.4, "queen": 0.2, "long": 0.15}
NO_TRUMP_SUPPORT = {"average": 2.1, "joker": 1.3, "ace": 1.05, "king": 0.6, "queen": 0.35, "long": 0.0}
MARGIN = {"S": 0.5, "C": 0.5, "D": 0.5, "H": 0.5, NO_TRUMP: 1.0}   # about 70% of the contracts made
MISERE = (2, 8)          # misère: at most this many exposed cards, this much exposure in all
OPEN_MISERE = (1, 5)
MISERE_RANKS = {"H": "456789TJQKA", "D": "456789TJQKA", "S": "56789TJQKA", "C": "56789TJQKA"}


def _features(hand: list[str], denomination: str) -> dict[str, int]:
    if denomination == NO_TRUMP:
        out = {"joker": int(JOKER in hand), "ace": 0, "king": 0, "queen": 0, "long": 0}
        for suit in "SCDH":
            ranks = {c[0] for c in hand if c != JOKER and c[1] == suit}
            out["ace"] += "A" in ranks
            out["king"] += "K" in ranks and ("A" in ranks or len(ranks) >= 2)
            out["queen"] += "Q" in ranks and len(ranks) >= 3
            out["long"] += max(0, len(ranks) - 4) if "A" in ranks else 0
        return out
    suit_of = SUIT_OF[denomination]
    trumps = [c for c in hand if suit_of[c] == denomination]
    plain = {c[0] for c in trumps if c != JOKER and c[0] != "J"}
    out = {"joker": int(JOKER in hand), "right": int("J" + denomination in hand),
           "left": int("J" + SAME_COLOUR[denomination] in hand), "A": int("A" in plain), "K": int("K" in plain),
           "Q": int("Q" in plain), "low": len(plain - {"A", "K", "Q"}),
           "side_ace": 0, "side_king": 0, "void": 0, "single": 0}
    for suit in "SCDH":
        if suit == denomination:
            continue
        side = {c[0] for c in hand if c != JOKER and suit_of[c] == suit}
        out["side_ace"] += "A" in side
        out["side_king"] += "K" in side and ("A" in side or len(side) >= 2)
        out["void"] += not side
        out["single"] += len(side) == 1
    return out


def own_tricks(hand: Iterable[str], denomination: str) -> float:
    """Tricks the side should take in `denomination` from this hand, an average partner and
    the kitty."""
    table = NO_TRUMP_VALUE if denomination == NO_TRUMP else SUIT
    return table["base"] + sum(table[k] * v for k, v in _features(list(hand), denomination).items())


def support_tricks(hand: Iterable[str], denomination: str) -> float:
    """Tricks this hand adds to the partner's contract over an average partner."""
    table = NO_TRUMP_SUPPORT if denomination == NO_TRUMP else SUIT_SUPPORT
    return sum(table[k] * v for k, v in _features(list(hand), denomination).items()) - table["average"]


def misere_exposure(hand: Iterable[str]) -> tuple[int, int]:
    """How exposed a hand is in misère: per suit, its k-th lowest card is safe while it is
    among the suit's 2k+2 lowest ranks (the two defenders, playing low, can hardly get
    under it); (cards above that, ranks above it in all), the Joker counting as a sure
    trick."""
    cards = list(hand)
    exposed, height = (1, 6) if JOKER in cards else (0, 0)
    for suit, ranks in MISERE_RANKS.items():
        mine = sorted(ranks.index(c[0]) for c in cards if c != JOKER and c[1] == suit)
        for k, r in enumerate(mine):
            over = r - (2 * k + 1)
            if over > 0:
                exposed += 1
                height += over
    return exposed, height


def misere_discard(cards: list[str]) -> list[str]:
    """The three cards whose going leaves the hand least exposed (the Joker first)."""
    kept, out = list(cards), []
    for _ in range(3):
        worst = min(kept, key=lambda c: (misere_exposure([x for x in kept if x != c]), -plain_order(c)))
        kept.remove(worst)
        out.append(worst)
    return out


def _side_value(hand: list[str], seat: Seat, denomination: str, calls: list[dict[str, Any]]) -> float:
    """The side's tricks in `denomination` as this seat knows them, each partner counted once."""
    ours = [c for c in calls if c.get("suit") == denomination and Seat(c["seat"]) in (seat, PARTNER[seat])]
    if not ours or Seat(ours[0]["seat"]) == seat:
        value = own_tricks(hand, denomination)
        raised = [c["tricks"] for c in ours if Seat(c["seat"]) != seat]
        before = [c["tricks"] for c in ours if Seat(c["seat"]) == seat]
        if raised and before:
            value += max(0, max(raised) - max(before))
        return value
    shown = max(c["tricks"] for c in ours if Seat(c["seat"]) != seat)
    return shown + MARGIN[denomination] + support_tricks(hand, denomination)


def _within(exposure: tuple[int, int], limit: tuple[int, int]) -> bool:
    return exposure[0] <= limit[0] and exposure[1] <= limit[1]


def _raised_partner(calls: list[dict[str, Any]], seat: Seat) -> bool:
    side = (seat, PARTNER[seat])
    return any(Seat(after["seat"]) in side and Seat(before["seat"]) == PARTNER[Seat(after["seat"])]
               for before, after in zip(calls, calls[1:]))


def bid(view: Any, seat: Seat, legal: list[dict[str, Any]]) -> dict[str, Any]:
    hand = list(view.hand)
    calls = [c for c in view.auction if c["action"] == "bid"]
    exposure = misere_exposure(hand)
    if {"action": "bid", "contract": "open_misere"} in legal and _within(exposure, OPEN_MISERE):
        return {"action": "bid", "contract": "open_misere"}
    over_partner = bool(calls) and Seat(calls[-1]["seat"]) == PARTNER[seat]
    if over_partner and (_raised_partner(calls, seat) or "contract" in calls[-1]):
        return {"action": "pass"}                       # shown already, or a misère left alone
    if {"action": "bid", "contract": "misere"} in legal and _within(exposure, MISERE):
        return {"action": "bid", "contract": "misere"}
    offered = {(a["tricks"], a["suit"]) for a in legal if a["action"] == "bid" and "tricks" in a}
    mine = {c.get("suit") for c in calls if Seat(c["seat"]) == seat}
    best: tuple[int, int, str] | None = None
    for d in DENOMINATIONS:
        if over_partner and d in mine:
            continue                                    # this hand is already counted in that suit
        value = _side_value(hand, seat, d, calls) - MARGIN[d]
        if over_partner and d != calls[-1].get("suit"):
            value -= 1                                  # a new denomination over the partner: much better only
        tricks = min(10, int(value))
        if tricks >= 6 and (tricks, d) in offered:
            worth = BIDS[find(tricks, d, None)].value
            if best is None or worth > best[0]:
                best = (worth, tricks, d)
    if best is None:
        return {"action": "pass"}
    return {"action": "bid", "tricks": best[1], "suit": best[2]}
