"""Cinch's shapes on the wire the view's Struct cannot say by itself: its legal actions."""

from __future__ import annotations

from typing import Any

from domain.cinch import events
from domain.wire import CARD, SUIT, action, choose, shown_events

LEGAL: list[dict[str, Any]] = [
    action("pass"), action("bid", value={"type": "integer", "minimum": 1}), action("trump", suit=SUIT),
    action("discard", cards=choose("a seat holding more than six trumps sheds `choose` of them, shown (A.4.5)")),
    action("rob", keep=choose("the dealer keeps `choose` of his hand and the stock")),
    action("play", card=CARD),
]
VIEW_FIELDS: dict[str, dict[str, Any]] = {}

# Redaction keeps the types (a seat's copy empties what it may not see).
SHOWN_EVENTS = shown_events(events)
