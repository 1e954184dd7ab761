"""Belote: classic ("with trump"), sans atout and Coinche, with or without combinations, under
House or Official rules (shared/rules/belote.md). `GAME` is all the outside world needs."""

from __future__ import annotations

from domain.cards import DECK_32
from domain.belote import doubledummy, imp_scale, par, schema
from domain.game import AdjustScore, GameRules, StartDeal, VoidDeal

from domain.belote.actions import legal_actions, parse_action
from domain.belote.commands import COMMAND_TYPES
from domain.belote.decider import decide, evolve
from domain.belote.events import EVENT_TYPES
from domain.belote.options import (MAX_TARGET, OPTIONS_SCHEMA, POOLS, Options, parse_options,
                                   rating_pool, sides)
from domain.belote.state import DIRECTION, State, initial
from domain.belote.summary import deal_summary, status
from domain.belote.views import ALIASES, DEALS_STARTED, View, redact, view

GAME = GameRules(
    name="belote",
    direction=DIRECTION,
    deck=DECK_32,
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
    deals_started_field=DEALS_STARTED,
    action_shapes=tuple(schema.LEGAL),
    view_fields=schema.VIEW_FIELDS,
    shown_events=schema.SHOWN_EVENTS,
    double_dummy=doubledummy,
    par=par.par,
    imp_scale=imp_scale.imp_scale,
)

__all__ = ["GAME", "Options", "State", "View"]
