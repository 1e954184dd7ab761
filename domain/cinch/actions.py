"""The action vocabulary of Cinch (shared/rules/README.md, "Actions"): parsing what a seat
sends into a command, and listing what a seat may do (OpenSpiel-style legal actions, with
the compact `{"choose": k, "from": [...]}` form for `discard` and `rob`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from domain.cards import DECK_52, SEATS, SUITS, CardCodeError, Seat, parse_card
from domain.game import RuleViolation

from domain.cinch import auction, exchange, play
from domain.cinch.commands import Bid, Discard, NameTrump, Pass, Play, Rob
from domain.cinch.state import HAND_SIZE, State

FIELDS: Final = {
    "pass": (),
    "bid": ("value",),
    "trump": ("suit",),
    "discard": ("cards",),
    "rob": ("keep",),
    "play": ("card",),
}
_SEATS: Final = {str(s): s for s in SEATS}
_CARDS: Final = frozenset(DECK_52)


def _bad(message: str, **details: Any) -> RuleViolation:
    return RuleViolation("bad_action", message, details)


def _card(code: Any) -> str:
    if isinstance(code, str) and code in _CARDS:
        return code
    try:
        card = parse_card(code)
    except CardCodeError as error:
        raise _bad(str(error), card=code) from None
    if card not in _CARDS:
        raise _bad(f"{card} is not a card of the Cinch pack", card=code)
    return card


def _cards(codes: Any, field: str) -> tuple[str, ...]:
    if not isinstance(codes, (list, tuple)):
        raise _bad(f"'{field}' must be a list of card codes", field=field)
    cards = tuple(_card(c) for c in codes)
    if len(set(cards)) != len(cards):
        raise _bad(f"'{field}' names a card twice", field=field)
    return cards


def parse_action(raw: Mapping[str, Any]) -> Any:
    """{"seat", "action", ...fields} -> a command; anything outside the vocabulary is
    `bad_action` (unknown action or field, bad seat, bad card code, bad value)."""
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise _bad("an action is a JSON object with 'seat' and 'action'")
    seat, name = raw.get("seat"), raw.get("action")
    if name == "play" and len(raw) == 3 and isinstance(seat, str) and seat in _SEATS:  # the common case
        card = raw.get("card")
        if isinstance(card, str) and card in _CARDS:
            return Play(seat=_SEATS[seat], card=card)
    try:
        seat, fields = _SEATS.get(seat), FIELDS.get(name)
    except TypeError:  # an unhashable value is no seat or action name
        seat = fields = None
    if seat is None:
        raise _bad(f"bad seat {raw.get('seat')!r}; seats are N, E, S, W", field="seat")
    if fields is None:
        raise _bad(f"unknown cinch action {name!r}; actions are {', '.join(FIELDS)}", field="action")
    if len(raw) != len(fields) + 2 or any(f not in raw for f in fields):
        extra = sorted(set(raw) - {"seat", "action", *fields})
        missing = [f for f in fields if f not in raw]
        raise _bad(f"action {name!r} takes {', '.join(fields) or 'no fields'}"
                   + (f"; unknown {', '.join(map(str, extra))}" if extra else "")
                   + (f"; missing {', '.join(missing)}" if missing else ""), extra=extra, missing=missing)
    if name == "play":
        return Play(seat=seat, card=_card(raw["card"]))
    if name == "pass":
        return Pass(seat=seat)
    if name == "bid":
        value = raw["value"]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= auction.MAX_BID:
            raise _bad(f"a bid 'value' is an integer from 1 to 14, got {value!r}", field="value")
        return Bid(seat=seat, value=value)
    if name == "trump":
        suit = raw["suit"]
        if suit not in SUITS:
            raise _bad(f"'suit' is one of S, H, D, C, got {suit!r}", field="suit")
        return NameTrump(seat=seat, suit=suit)
    if name == "discard":
        return Discard(seat=seat, cards=_cards(raw["cards"], "cards"))
    keep = _cards(raw["keep"], "keep")
    if len(keep) != HAND_SIZE:
        raise _bad(f"'keep' names the dealer's six cards, got {len(keep)}", field="keep")
    return Rob(seat=seat, keep=keep)


_LEGAL: Final = {
    "auction": auction.legal_bids,
    "trump": exchange.legal_exchange,
    "discard": exchange.legal_exchange,
    "rob": exchange.legal_exchange,
    "play": play.legal_plays,
}


def legal_actions(state: State, seat: Seat) -> list[dict[str, Any]]:
    """What `seat` may do now (without the "seat" key); [] when it is not its turn."""
    if state.deal.turn != seat:
        return []
    return _LEGAL[state.phase](state, seat)
