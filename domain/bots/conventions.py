"""A human partner's conventions in Five Hundred, the ones players most often blame robots
for breaking. They are rules, not searches: a partner reads a call or a lead by them, so a
bot must keep them even where one deal's worlds say another choice scores a little more.

* No overbidding without the cards: a bid of 8 tricks or more is made only when the hand's
  own valuation (`basic`'s) reaches that level ("going 8 with no show" is the complaint).
* A no-trump bid promises the Joker: made only with it (or raising a partner's no-trumps,
  which promised it), and read so: the no-trump bidder is dealt the Joker in every world.
* The contractor's partner who did not support the contract's suit leads a trump the first
  time he leads: it tells the contractor the partner holds no fit and draws the defence's.
* Defending a misère, never win a trick the misère bidder is winning: taking it over would
  spare him the trick he must not take (`basic` already plays so).

The `master` level keeps them (its candidates, and its worlds in the play); `basic` and
`expert` are left as they were measured. Every function reads a seat's view only.
"""

from __future__ import annotations

from typing import Any

from domain.cards import JOKER, PARTNER, Seat
from domain.five_hundred.ranking import NO_TRUMP, SUIT_OF

SHOW_LEVEL = 8


def no_trump_allowed(hand: list[str], seat: Seat, auction: list[dict[str, Any]]) -> bool:
    """Whether this seat may bid no-trumps: it holds the Joker, or its partner bid them."""
    partner_bid = any(c.get("action") == "bid" and c.get("suit") == NO_TRUMP and Seat(c["seat"]) == PARTNER[seat]
                      for c in auction)
    return JOKER in hand or partner_bid


def joker_holder(auction: list[dict[str, Any]], me: Seat) -> Seat | None:
    """The seat a no-trump bid says holds the Joker (the first other seat to bid them)."""
    for call in auction:
        if call.get("action") == "bid" and call.get("suit") == NO_TRUMP and Seat(call["seat"]) != me:
            return Seat(call["seat"])
    return None


def keep_calls(view: Any, calls: list[dict[str, Any]], basic_call: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The candidate calls the conventions allow: no no-trumps without the Joker, no bid of
    `SHOW_LEVEL` tricks or more above what `basic`'s valuation of the hand bids."""
    seat, hand = view.seat, list(view.hand)
    shown = basic_call.get("tricks", 0) if basic_call and basic_call.get("action") == "bid" else 0
    out = []
    for call in calls:
        tricks = call.get("tricks")
        if call.get("suit") == NO_TRUMP and not no_trump_allowed(hand, seat, list(view.auction)):
            continue
        if isinstance(tricks, int) and tricks >= SHOW_LEVEL and tricks > (shown or 0):
            continue
        out.append(call)
    return out


def under_misere(view: Any, cards: list[str], t: Any) -> list[str]:
    """A misère defender's cards that leave the trick to the misère bidder when he is
    winning it (`t`: the trick as `cardplay` reads it); every card otherwise, or when each
    of them wins."""
    from domain.bots import cardplay

    contract = view.contract
    if not contract or not contract.get("contract") or Seat(contract["seat"]) == view.seat or t is None:
        return cards
    winner, best = cardplay.winner(t)
    if winner != Seat(contract["seat"]):
        return cards
    under = [c for c in cards if t.power(c, t.led) < best]
    return under or cards


def first_lead_trumps(view: Any, cards: list[str]) -> list[str]:
    """The cards the contractor's partner may lead: his trumps, when he leads for the first
    time in the deal, holds some, and never bid the contract's suit; else every card."""
    contract = view.contract
    trump = contract.get("trump")
    if trump is None or contract.get("contract") or (view.trick is not None and view.trick.get("cards")):
        return cards
    seat = view.seat
    if Seat(contract["seat"]) != PARTNER[seat]:
        return cards
    if any(c.get("action") == "bid" and c.get("suit") == trump and Seat(c["seat"]) == seat for c in view.auction):
        return cards
    if any(Seat(t["leader"]) == seat for t in view.tricks):
        return cards
    trumps = [c for c in cards if SUIT_OF[trump][c] == trump]
    return trumps or cards
