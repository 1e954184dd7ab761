"""The event registry of a match stream: the match layer's events and its game's own.

One registry per game for the whole process, shared by the game service (which appends and
folds) and the projections that fold match streams (the publisher, `bot_turns`), so an event
is decoded the same way wherever it is read.
"""

from __future__ import annotations

from functools import lru_cache

from domain import match as rules
from domain.games import load
from infra.serialization import EventRegistry


@lru_cache(maxsize=None)
def registry_for(game_name: str | None) -> EventRegistry:
    """The events a match of this game holds: the match layer's and the game's own."""
    registry = EventRegistry()
    registry.register_all(rules.MATCH_EVENTS)
    if game_name:
        registry.register_all(load(game_name).event_types)
    return registry
