"""Bots: a policy per game and level, deciding from one seat's view and nothing else.

A `Policy` is `policy(view, rng) -> action | None`: `view` is what `domain.match.view`
(a `MatchView`, whose `table` is the game's view) or the game's own `view` gives that seat
— the same object a client gets — and the action is a dict in the shared vocabulary with
its `"seat"`, ready for `MatchService.act`. None means "nothing to do now" (a seat listed
out of turn, e.g. one that may coinche, and chooses not to). Since a policy never receives
the state, it cannot see another seat's cards; `tests/unit/bots` checks that two states
differing only in hidden cards get the same decision.

Levels: `random` (uniform over legal actions), `basic` (rules of thumb per game, in the
game's module), `expert` (determinized Monte Carlo over the real rules, `expert.py`),
`master` (the same worlds, each solved double dummy in the play, `master.py`).
"""

from __future__ import annotations

from random import Random
from types import ModuleType
from typing import Any, Callable

from domain.bots import belote, cinch, five_hundred
from domain.bots.random import policy as uniform_policy
from domain.bots.seat_view import unwrap

Policy = Callable[[Any, Random], "dict[str, Any] | None"]
LEVELS = ("random", "basic", "expert", "master")
FAMILIES: dict[str, ModuleType] = {"belote": belote, "cinch": cinch, "five_hundred": five_hundred}


def policy_for(game_name: str, level: str, **settings: Any) -> Policy:
    """The policy of `level` for `game_name`; `settings` go to the expert or the master
    (budget, worlds)."""
    if game_name not in FAMILIES:
        raise ValueError(f"no bots for game {game_name!r}")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels are {', '.join(LEVELS)}")
    family = FAMILIES[game_name]
    if level == "expert":
        from domain.bots.expert import Expert

        return Expert(family, game_name, **settings)
    if level == "master":
        from domain.bots.master import Master

        return Master(family, game_name, **settings)

    chosen = uniform_policy if level == "random" else family.basic

    def policy(view: Any, rng: Random) -> dict[str, Any] | None:
        table, _ = unwrap(view)
        if table is None:
            return None
        return chosen(table, rng)

    return policy


__all__ = ["FAMILIES", "LEVELS", "Policy", "policy_for", "unwrap"]
