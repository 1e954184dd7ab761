"""Belote's shapes on the wire the view's Struct cannot say by itself: its legal actions."""

from __future__ import annotations

from typing import Any

from domain.belote import events
from domain.belote.ranking import DENOMINATIONS
from domain.wire import CARD, SUIT, action, shown_events

DENOMINATION: dict[str, Any] = {"type": "string", "enum": list(DENOMINATIONS),
                                 "description": "a suit, or Coinche's TA (tout atout) or SA (sans atout) with the contracts option"}

PLAY = action("play", card=CARD)
PLAY["properties"]["belote"] = {"type": "boolean", "description": "the king or queen of trumps: say belote or not"}

LEGAL: list[dict[str, Any]] = [
    action("pass"), action("take"), action("name", suit=SUIT),
    action("bid", value={"anyOf": [{"type": "integer", "minimum": 80}, {"type": "string", "const": "capot"}]},
           suit=DENOMINATION),
    action("coinche"), action("surcoinche"), action("declare", combinations={"type": "boolean"}), PLAY,
]
VIEW_FIELDS: dict[str, dict[str, Any]] = {}

# The deal is sent as each seat's share (`deal_seen`, `rest_seen`), never as dealt.
SHOWN_EVENTS = shown_events(events, hidden=frozenset({"deal_started", "rest_dealt"}))
