"""What a hint's reason needs to know of a game's view: the trick as `cardplay` reads it,
who holds the high bid, and how many tricks a contract still needs — each game's bot family
says it for its own view (`hint_table`, `high_bidder`, `contract_tricks`).

The card facts (which suit a card follows, how strong it is, what it counts) are the
`basic` bots' own (`cardplay.Table`, built the way each game's `basic` builds it), so a
reason speaks of the trick exactly as the bots read it. Everything here reads the seat's
view only.
"""

from __future__ import annotations

from typing import Any

from domain.bots import FAMILIES, cardplay
from domain.cards import Seat


def card_table(game_name: str, view: Any) -> tuple[cardplay.Table | None, bool]:
    """(the seat's trick as `cardplay` reads it, whether the seat plays a misère: to lose
    every trick); None when the view is not in the card play."""
    if view.phase != "play" or not view.hand or game_name not in FAMILIES:
        return None, False
    cards = list(dict.fromkeys(a["card"] for a in view.legal if a.get("action") == "play"))
    if not cards:
        return None, False
    return FAMILIES[game_name].hint_table(view, cards)


def high_bidder(game_name: str, view: Any) -> Seat | None:
    """The seat holding the highest bid of the auction so far, None before any bid."""
    family = FAMILIES.get(game_name)
    return None if family is None else family.high_bidder(view)


def contract_tricks(game_name: str, view: Any) -> tuple[str | None, int | None]:
    """("contract_needs" or "defence_needs", tricks still needed by the seat's side) where
    the contract counts tricks (Five Hundred, a trick contract being played; a Coinche capot:
    every trick); else (None, None)."""
    if view.phase != "play" or view.contract is None or game_name not in FAMILIES:
        return None, None
    return FAMILIES[game_name].contract_tricks(view)
