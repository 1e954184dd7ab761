"""The action vocabulary of belote (shared/rules/README.md, "Actions"): parsing what a seat
sends into a command, and listing what a seat may do now.

Parsing knows the whole belote vocabulary but not the match: an action of another variant
(`bid` in classic) is well-formed here and refused by `decide` as `bad_action`, because only
the state knows the variant.
"""

from __future__ import annotations

from typing import Any, Callable, Final, Mapping

from domain.cards import CardCodeError, Seat, parse_card
from domain.game import RuleViolation

from domain.belote import auction, coinche, play
from domain.belote.commands import Bid, Coinche, Declare, Name, Pass, Play, Surcoinche, Take
from domain.belote.ranking import BELOTE_SUITS, DENOMINATIONS, SUIT
from domain.belote.state import State


def _bad(message: str) -> RuleViolation:
    return RuleViolation("bad_action", message)


def _suit(raw: Mapping[str, Any]) -> str:
    suit = raw.get("suit")
    if suit not in BELOTE_SUITS:
        raise _bad(f"'suit' must be one of S, H, D, C, got {suit!r}")
    return suit


def _denomination(raw: Mapping[str, Any]) -> str:
    """A bid's `suit`: a suit, or TA / SA (whether the match allows them is the rules' call)."""
    suit = raw.get("suit")
    if suit not in DENOMINATIONS:
        raise _bad(f"a bid's 'suit' must be one of S, H, D, C, TA, SA, got {suit!r}")
    return suit


def _value(raw: Mapping[str, Any]) -> int | str:
    value = raw.get("value")
    if value == "capot" or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise _bad(f"'value' must be an integer (80, 90, ...) or \"capot\", got {value!r}")


def _card(raw: Mapping[str, Any]) -> str:
    card = raw.get("card")
    if type(card) is str and card in SUIT:   # already canonical: the common case
        return card
    try:
        card = parse_card(card)
    except CardCodeError as error:
        raise _bad(str(error)) from None
    if card not in SUIT:
        raise _bad(f"card {card} is not in the 32-card belote deck")
    return card


def _flag(raw: Mapping[str, Any], name: str, default: bool) -> bool:
    value = raw.get(name, default)
    if not isinstance(value, bool):
        raise _bad(f"'{name}' must be true or false, got {value!r}")
    return value


def _declare(raw: Mapping[str, Any], seat: Seat) -> Declare:
    if raw.get("combinations") is not False:
        raise _bad("declare takes \"combinations\": false (declaring is automatic; this declines it)")
    return Declare(seat, False)


_PARSERS: Final[dict[str, tuple[frozenset[str], Callable[[Mapping[str, Any], Seat], Any]]]] = {
    "pass": (frozenset(), lambda raw, seat: Pass(seat)),
    "take": (frozenset(), lambda raw, seat: Take(seat)),
    "name": (frozenset({"suit"}), lambda raw, seat: Name(seat, _suit(raw))),
    "bid": (frozenset({"value", "suit"}), lambda raw, seat: Bid(seat, _value(raw), _denomination(raw))),
    "coinche": (frozenset(), lambda raw, seat: Coinche(seat)),
    "surcoinche": (frozenset(), lambda raw, seat: Surcoinche(seat)),
    "play": (frozenset({"card", "belote"}),
             lambda raw, seat: Play(seat, _card(raw), _flag(raw, "belote", True))),
    "declare": (frozenset({"combinations"}), _declare),
}
_SEATS: Final = {str(s): s for s in Seat}
_REQUIRED: Final = {"name": ("suit",), "bid": ("value", "suit"), "play": ("card",), "declare": ("combinations",)}


def parse_action(raw: Mapping[str, Any]) -> Any:
    """`{"seat": "N", "action": "play", "card": "10H"}` -> Play(N, "TH"); anything outside
    the vocabulary (unknown action or field, bad seat, suit or card) is `bad_action`."""
    if type(raw) is dict and len(raw) == 3 and raw.get("action") == "play":
        seat, card = raw.get("seat"), raw.get("card")        # the common case, fast
        if type(seat) is str and type(card) is str and seat in _SEATS and card in SUIT:
            return Play(_SEATS[seat], card)
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise _bad("an action is a JSON object with 'seat' and 'action'")
    seat = raw.get("seat")
    seat = _SEATS.get(seat) if type(seat) is str else None
    if seat is None:
        raise _bad(f"'seat' must be one of N, E, S, W, got {raw.get('seat')!r}")
    action = raw.get("action")
    entry = _PARSERS.get(action) if isinstance(action, str) else None
    if entry is None:
        raise _bad(f"unknown belote action {action!r}; actions are {', '.join(_PARSERS)}")
    fields, build = entry
    for key in raw:
        if key != "seat" and key != "action" and key not in fields:
            raise _bad(f"unknown field {key!r} for action {action!r}")
    for key in _REQUIRED.get(action, ()):
        if key not in raw:
            raise _bad(f"action {action!r} needs {key!r}")
    return build(raw, seat)


def legal_actions(state: State, seat: Seat) -> list[dict[str, Any]]:
    deal = state.deal
    if deal is None or state.over:
        return []
    options = state.options
    if deal.phase == "play":
        if deal.turn != seat and (deal.tricks or not options.combinations):
            return []                    # nobody acts out of turn once declining is over
        return play.legal_plays(options, deal, seat)
    if deal.phase != "auction":
        return []
    if options.variant == "coinche":
        return coinche.legal_bids(options, deal, seat)
    return auction.legal_bids(deal, options.variant) if deal.turn == seat else []
