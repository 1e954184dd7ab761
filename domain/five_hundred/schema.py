"""Five Hundred's shapes on the wire the view's Struct cannot say by itself: its legal actions,
and the contract, tricks, auction and deal rows its view builds as plain values."""

from __future__ import annotations

from typing import Any

from domain.five_hundred import events
from domain.wire import BY_SIDE, CARD, CARDS, SEAT, SUIT, action, choose, nullable, shown_events

DENOMINATION = {"type": "string", "enum": ["S", "C", "D", "H", "NT"]}
MISERE = {"type": "string", "enum": ["misere", "open_misere"]}
TRICKS = {"type": "integer", "minimum": 6, "maximum": 10}

LEGAL: list[dict[str, Any]] = [
    action("pass"), action("bid", tricks=TRICKS, suit=DENOMINATION), action("bid", contract=MISERE),
    action("discard", cards=choose("the contractor puts back `choose` of his hand and the kitty")),
    action("play", card=CARD),
    {**action("play", card={"type": "string", "const": "JK"}, suit=SUIT), "description": "the Joker led in no-trumps or misère, "
                                                                        "naming the suit to follow"},
]

CONTRACT = {"type": "object", "required": ["seat", "team", "trump"], "properties": {
    "seat": SEAT, "team": {"type": "string", "enum": ["NS", "EW"]}, "trump": nullable(SUIT),
    "tricks": TRICKS, "contract": MISERE}}
TRICK = {"type": "object", "required": ["leader", "cards", "winner", "plays", "led"], "properties": {
    "leader": SEAT, "cards": CARDS, "winner": nullable(SEAT),
    "plays": {"type": "array", "items": {"type": "array", "items": {"anyOf": [SEAT, CARD]}, "minItems": 2,
                                         "maxItems": 2}, "description": "deprecated: [seat, card] in play order"},
    "led": nullable(SUIT)}}
CALL = {"type": "object", "required": ["seat", "action"], "properties": {
    "seat": SEAT, "action": {"type": "string", "enum": ["pass", "bid"]}, "tricks": TRICKS, "suit": DENOMINATION,
    "contract": MISERE}}
BID = {"type": "object", "required": ["action"], "properties": {
    "action": {"type": "string", "const": "bid"}, "tricks": TRICKS, "suit": DENOMINATION, "contract": MISERE}}
DEAL_ROW = {"type": "object", "required": ["deal", "dealer", "contract", "result", "score", "voided", "adjust"],
            "properties": {"deal": {"type": "integer"}, "dealer": SEAT, "contract": nullable(CONTRACT),
                           "result": {"type": "string"}, "score": BY_SIDE, "voided": {"type": "boolean"},
                           "adjust": BY_SIDE}}

VIEW_FIELDS: dict[str, dict[str, Any]] = {
    "contract": nullable(CONTRACT), "trick": nullable(TRICK), "tricks": {"type": "array", "items": TRICK},
    "auction": {"type": "array", "items": CALL}, "high_bid": nullable(BID), "deals": {"type": "array",
                                                                                     "items": DEAL_ROW},
}

# The deal is sent as each seat's hand (`hand_dealt`), never as dealt.
SHOWN_EVENTS = shown_events(events, hidden=frozenset({"cards_dealt"}))
