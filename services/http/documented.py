"""Documented maps: how the contract types what a game owns.

A game's options, its view of the table, its events' payloads and its deal summaries differ
from game to game and grow with the rules, so a response that embeds them cannot name their
fields; it can still say what they are made of. `JsonValue` is any JSON value nested at most
`DEPTH` deep, spelled out level by level (a string, a number, a boolean, null, an array or a
map of the level below), and `GameMap` a map of them: a generator types it (`{[key: string]:
JsonValue}`), a validator checks it, and no object in it is left without a schema.

Why not one recursive schema: Litestar names components after classes only, and a map is no
class. Spelled out, each level holds the one below twice, so `DEPTH` is what the games need
and one more: a value nested deeper breaks the document's schema, and the every-game test of
tests/api/test_typed_answers_disputes.py says so before a client does.
"""

from __future__ import annotations

from typing import Any

import msgspec

# The deepest a game's view, event or summary goes today is 4.
DEPTH = 5


def _nested(depth: int) -> Any:
    level: Any = str | float | bool | None
    for _ in range(depth):
        level = str | float | bool | None | list[level] | dict[str, level]
    return level


JsonValue: Any = _nested(DEPTH)
GameMap: Any = dict[str, JsonValue]     # keys are the game's words; values any JSON, DEPTH deep at most

# A field a branch of the handler leaves out: not `required`, and not nullable unless it says
# `| None` too (`msgspec.UNSET` is no default the document would show).
Absent = msgspec.UnsetType
ABSENT = msgspec.UNSET
