"""The bounds of a new match's options, beyond what each game's options accept.

A game takes any positive `deals` and `target` (so `record play` replays any record), but a
match created on the server is bounded: a match of a million deals or to a target nobody
reaches is a match that never ends. The bounds are about ten times each game's usual target
(docs/api.md, "Matches").
"""

from __future__ import annotations

from typing import Any, Mapping

from domain.game import RuleViolation
from domain.games import GAMES

MAX_DEALS = 1000
MAX_TARGET = {name: game.max_target for name, game in GAMES.items()}
"""Bounds of a new match's `deals` and `target` (each game's `max_target`, about ten times
its usual target). The games' own options (and so `record play`) take any positive integer."""


def check_bounds(game_name: str, options: Mapping[str, Any]) -> None:
    for option, limit in (("deals", MAX_DEALS), ("target", MAX_TARGET.get(game_name))):
        value = options.get(option)
        if limit is not None and isinstance(value, int) and not isinstance(value, bool) and value > limit:
            raise RuleViolation("bad_option", f"option {option!r}: at most {limit} in a new {game_name} match, "
                                f"got {value}", {"option": option, "max": limit})
