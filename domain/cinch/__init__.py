"""Cinch (Double Pedro, High Five): shared/rules/cinch.md on the decider shape of
`domain/game.py`. Partnership or individual (cut-throat, four seats) mode; one-round
auction 1..14 with a stuck dealer; trump naming, automatic discards, draw and the dealer's
robbing of the pack; six tricks for fourteen points; game to 51."""

from __future__ import annotations

from domain.cards import DECK_52
from domain.cinch import doubledummy, imp_scale, par, schema
from domain.game import AdjustScore, GameRules, StartDeal, VoidDeal

from domain.cinch.actions import legal_actions, parse_action
from domain.cinch.commands import COMMAND_TYPES
from domain.cinch.decider import decide, evolve
from domain.cinch.events import EVENT_TYPES
from domain.cinch.options import (INDIVIDUAL_POOLS, MAX_TARGET, OPTIONS_SCHEMA, POOLS, Options, parse_options,
                                  rating_pool, sides)
from domain.cinch.state import State, initial
from domain.cinch.summary import deal_summary, status
from domain.cinch.views import ALIASES, redact, view

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
    command_types=(StartDeal, VoidDeal, AdjustScore, *COMMAND_TYPES),
    event_types=EVENT_TYPES,
    options_schema=OPTIONS_SCHEMA,
    max_target=MAX_TARGET,
    pools=POOLS,
    rating_pool=rating_pool,
    view_aliases=ALIASES,
    individual_pools=INDIVIDUAL_POOLS,
    action_shapes=tuple(schema.LEGAL),
    view_fields=schema.VIEW_FIELDS,
    shown_events=schema.SHOWN_EVENTS,
    double_dummy=doubledummy,
    imp_scale=imp_scale.imp_scale,
    par=par.par,
)

__all__ = ["GAME", "Options", "State"]
