"""Cinch (Double Pedro, High Five): shared/rules/cinch.md on the decider shape of
`domain/game.py`. Partnership or individual (cut-throat, four seats) mode; one-round
auction 1..14 with a stuck dealer; trump naming, automatic discards, draw and the dealer's
robbing of the pack; six tricks for fourteen points; game to 51."""

from __future__ import annotations

from domain.cards import DECK_52
from domain.game import AdjustScore, GameRules, StartDeal, VoidDeal

from .actions import legal_actions, parse_action
from .decider import decide, evolve
from .messages import COMMANDS, EVENTS
from .options import Options, parse_options, sides
from .state import State, initial
from .summary import deal_summary, status
from .views import redact, view

GAME = GameRules(
    name="cinch",
    direction="clockwise",
    deck=DECK_52,
    sides=sides,
    parse_options=parse_options,
    initial=initial,
    decide=decide,
    evolve=evolve,
    legal_actions=legal_actions,
    view=view,
    redact=redact,
    parse_action=parse_action,
    status=status,
    deal_summary=deal_summary,
    command_types=(StartDeal, VoidDeal, AdjustScore, *COMMANDS),
    event_types=EVENTS,
)

__all__ = ["GAME", "Options", "State"]
