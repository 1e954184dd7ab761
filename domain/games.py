"""The games Atout plays, listed once.

A literal list rather than a name looked up at run time: what a process can play is read
here, an editor can follow it, and an import graph test sees every game. It lives apart
from `domain/game.py` because each game package imports that module (for `GameRules`), so
the list of games has to sit on the other side of them.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final, Mapping

from domain import belote, cinch, five_hundred
from domain.game import GameRules, RuleViolation

GAMES: Final[Mapping[str, GameRules]] = MappingProxyType({
    game.name: game for game in (belote.GAME, cinch.GAME, five_hundred.GAME)
})

GAME_NAMES: Final[tuple[str, ...]] = tuple(GAMES)


def load(name: Any) -> GameRules:
    """The game called `name`, or RuleViolation('bad_record') naming the known ones."""
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise RuleViolation("bad_record", f"unknown game {name!r}; known games: {', '.join(GAME_NAMES)}",
                            {"field": "game"})
    return game
