"""Cinch's shapes on the wire the view's Struct cannot say by itself: its legal actions."""

from __future__ import annotations

from typing import Any

from domain.wire import CARD, SUIT, action, choose

LEGAL: list[dict[str, Any]] = [
    action("pass"), action("bid", value={"type": "integer", "minimum": 1}), action("trump", suit=SUIT),
    action("rob", keep=choose("the dealer keeps `choose` of his hand and the stock")),
    action("play", card=CARD),
]
VIEW_FIELDS: dict[str, dict[str, Any]] = {}
