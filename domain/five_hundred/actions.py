"""The action vocabulary of Five Hundred (shared/rules/README.md, "Actions"): reading a
seat's decision into a command, and listing the decisions a seat may take now.

`legal_actions` is first-class (OpenSpiel style): the record player's `--legal`, the bots,
the views and the property tests all ask it, and `decide` accepts exactly what it lists.
The discard is listed once in the compact form `{"choose": 3, "from": [...]}`.
"""

from __future__ import annotations

from typing import Any, Mapping

from domain.cards import JOKER, RANKS, SUITS, CardCodeError, Seat, parse_card
from domain.five_hundred.auction import legal_bids
from domain.five_hundred.bids import MISERE, OPEN_MISERE
from domain.five_hundred.commands import Bid, Discard, Pass, Play
from domain.five_hundred.play import joker_suits, legal_cards
from domain.five_hundred.ranking import DENOMINATIONS, NO_TRUMP
from domain.five_hundred.state import AUCTION, DISCARD, PLAY, SEAT_INDEX, State
from domain.game import RuleViolation

_FIELDS = {
    "pass": frozenset({"seat", "action"}),
    "bid": frozenset({"seat", "action", "tricks", "suit", "contract"}),
    "discard": frozenset({"seat", "action", "cards"}),
    "play": frozenset({"seat", "action", "card", "suit"}),
}
_SEATS = {s.value: s for s in Seat}
_SEATS.update({s: s for s in Seat})
_NAMED_SUITS = ("S", "H", "D", "C")
_CANONICAL = frozenset(r + s for r in RANKS for s in SUITS) | {JOKER}
"""Canonical codes pass as they are; only other spellings go through parse_card."""


def _bad(message: str) -> RuleViolation:
    return RuleViolation("bad_action", message)


def _card(code: Any) -> str:
    try:
        return parse_card(code)
    except CardCodeError as error:
        raise _bad(str(error)) from None


def parse_action(action: Mapping[str, Any]) -> Any:
    """{"seat", "action", ...fields} -> a command; bad_action for anything outside the vocabulary."""
    if type(action) is not dict and not isinstance(action, Mapping):
        raise _bad("an action is a JSON object with 'seat' and 'action'")
    kind = action.get("action")
    fields = _FIELDS.get(kind) if type(kind) is str else None
    if fields is None:
        raise _bad(f"unknown action {kind!r}; five_hundred knows pass, bid, discard, play")
    for key in action:
        if key not in fields:
            raise _bad(f"unknown field {key!r} for action {kind!r}")
    seat = action.get("seat")
    seat = _SEATS.get(seat) if isinstance(seat, str) else None
    if seat is None:
        raise _bad(f"bad seat {action.get('seat')!r}; seats are N, E, S, W")
    if kind == "play":
        suit = action.get("suit")
        if suit is not None and suit not in _NAMED_SUITS:
            raise _bad(f"bad suit {suit!r}; a Joker lead names S, H, D or C")
        card = action.get("card")
        return Play(seat, card if type(card) is str and card in _CANONICAL else _card(card), suit)
    if kind == "pass":
        return Pass(seat=seat)
    if kind == "bid":
        return _bid(seat, action)
    cards = action.get("cards")
    if not isinstance(cards, (list, tuple)):
        raise _bad("'cards' is a list of three card codes")
    parsed = tuple(_card(c) for c in cards)
    if len(parsed) != 3 or len(set(parsed)) != 3:
        raise _bad("discard exactly three different cards")
    return Discard(seat=seat, cards=parsed)


def _bid(seat: Seat, action: Mapping[str, Any]) -> Bid:
    contract, tricks, suit = action.get("contract"), action.get("tricks"), action.get("suit")
    if contract is not None:
        if contract not in (MISERE, OPEN_MISERE) or tricks is not None or suit is not None:
            raise _bad("a misère bid is {'contract': 'misere'} or {'contract': 'open_misere'}, without tricks or suit")
        return Bid(seat=seat, contract=contract)
    if not isinstance(tricks, int) or isinstance(tricks, bool) or not 6 <= tricks <= 10:
        raise _bad(f"a bid names 6 to 10 tricks, got {tricks!r}")
    if suit not in DENOMINATIONS:
        raise _bad(f"a bid names a suit S, C, D, H or NT, got {suit!r}")
    return Bid(seat=seat, tricks=tricks, suit=suit)


def legal_actions(state: State, seat: Seat) -> list[dict[str, Any]]:
    if state.deal.turn != seat:
        return []
    phase = state.phase
    if phase == PLAY:
        index = SEAT_INDEX[seat]
        cards = legal_cards(state, index)
        deal = state.deal
        if not deal.trick.plays and JOKER in cards and deal.contract.denomination == NO_TRUMP:  # type: ignore[union-attr]
            out = [{"action": "play", "card": c} for c in cards if c != JOKER]
            out += [{"action": "play", "card": JOKER, "suit": s} for s in joker_suits(state, index)]
            return out
        return [{"action": "play", "card": c} for c in cards]
    if phase == AUCTION:
        return legal_bids(state)
    if phase == DISCARD:
        return [{"action": "discard", "cards": {"choose": 3, "from": list(state.deal.hands[SEAT_INDEX[seat]])}}]
    return []
