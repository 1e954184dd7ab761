"""What a hint's reason needs to know of a game's view: the trick as `cardplay` reads it,
who holds the high bid, and how many tricks a contract still needs.

The card facts (which suit a card follows, how strong it is, what it counts) are the
`basic` bots' own (`cardplay.Table`, built the way each game's `basic` builds it), so a
reason speaks of the trick exactly as the bots read it. Everything here reads the seat's
view only.
"""

from __future__ import annotations

from typing import Any

from domain.bots import belote, cardplay, cinch, five_hundred
from domain.cards import TEAM, Seat


def card_table(game_name: str, view: Any) -> tuple[cardplay.Table | None, bool]:
    """(the seat's trick as `cardplay` reads it, whether the seat plays a misère: to lose
    every trick); None when the view is not in the card play."""
    if view.phase != "play" or not view.hand:
        return None, False
    cards = list(dict.fromkeys(a["card"] for a in view.legal if a.get("action") == "play"))
    if not cards:
        return None, False
    seat = view.seat
    if game_name == "belote":
        if view.trick is None or view.contract is None:
            return None, False
        trump = view.contract.trump
        return belote.table(seat, view.hand, cards, view.trick, view.tricks, view.contract, view.options.official,
                            belote._voids(view.tricks, view.trick, trump)), False
    if game_name == "cinch":
        if view.trick is None or view.contract is None:
            return None, False
        voids = cinch._voids(view.tricks, view.trick, view.contract.trump)
        return cinch.table(seat, view.hand, cards, view.trick, view.tricks, view.contract, view.options,
                           cinch._gone(view), voids), False
    if game_name == "five_hundred":
        if view.contract is None:
            return None, False
        contract = five_hundred._contract(view.contract)
        trick = five_hundred._trick(view.trick, contract, view.tricks)
        tricks = tuple(five_hundred._trick(t, contract, ()) for t in view.tricks)
        voids = {Seat(s): v for s, v in view.shown_void.items()}
        mine = view.contract["seat"] == str(seat)
        known = set() if mine else {c for cs in view.exposed.values() for c in cs}
        table = five_hundred.table(seat, list(view.hand), cards, trick, tricks, contract,
                                   set(view.discarded) | known, voids)
        return table, mine and view.contract.get("contract") is not None
    return None, False


def high_bidder(game_name: str, view: Any) -> Seat | None:
    """The seat holding the highest bid of the auction so far, None before any bid."""
    if game_name == "belote":
        call = next((c for c in reversed(view.calls) if c.action == "bid"), None)
        return None if call is None else call.seat
    if game_name == "cinch":
        bids = [(value, seat) for seat, value in view.bids if value is not None]
        return max(bids, key=lambda b: b[0])[1] if bids else None
    if game_name == "five_hundred":
        calls = [c for c in view.auction if c.get("action") != "pass"]
        return Seat(calls[-1]["seat"]) if calls else None
    return None


def contract_tricks(game_name: str, view: Any) -> tuple[str | None, int | None]:
    """("contract_needs" or "defence_needs", tricks still needed by the seat's side) where
    the contract counts tricks (Five Hundred, a trick contract being played; a Coinche capot:
    every trick); else (None, None)."""
    if view.phase != "play" or view.contract is None:
        return None, None
    if game_name == "belote":
        return _capot(view)
    if game_name != "five_hundred":
        return None, None
    contract = view.contract
    if contract.get("contract") is not None or contract.get("tricks") is None:
        return None, None
    team = contract["team"]
    side = next(name for name in view.tricks_won if str(view.seat) in name)
    won = view.tricks_won
    if side == team:
        needed = contract["tricks"] - won[team]
        return ("contract_needs", needed) if needed > 0 else (None, None)
    needed = 11 - contract["tricks"] - won[side]
    return ("defence_needs", needed) if needed > 0 else (None, None)


def _capot(view: Any) -> tuple[str | None, int | None]:
    """A Coinche capot: its takers need every trick, so one trick defeats it."""
    contract = view.contract
    if contract.value != "capot":
        return None, None
    team = contract.team
    mine = TEAM[view.seat] == team
    taken = [t for t in view.tricks if t.winner is not None and TEAM[t.winner] == team]
    if len(taken) < len(view.tricks):
        return None, None                   # already lost
    if mine:
        return "contract_needs", 8 - len(view.tricks)
    return "defence_needs", 1
