"""Five Hundred: the Australian partnership game on 43 cards (shared/rules/five-hundred.md).

Continuous auction with misère and open misère, the kitty, bowers and the Joker as trumps,
the Joker in no-trumps, Avondale scoring, and winning only by making a contract at 500.
How each rule is implemented, and every decision taken where the rules are silent, is in
docs/rules-five-hundred.md.
"""

from __future__ import annotations

from domain.cards import DECK_43
from domain.five_hundred.actions import legal_actions, parse_action
from domain.five_hundred.commands import COMMAND_TYPES
from domain.five_hundred.decider import decide, evolve
from domain.five_hundred.events import EVENT_TYPES
from domain.five_hundred.options import (MAX_TARGET, OPTIONS_SCHEMA, POOLS, Options, parse_options,
                                         rating_pool, sides)
from domain.five_hundred.state import State, initial
from domain.five_hundred.summary import deal_summary, status
from domain.five_hundred.views import ALIASES, DEALS_STARTED, redact, view
from domain.five_hundred import doubledummy, imp_scale, par, schema
from domain.game import AdjustScore, GameRules, StartDeal, VoidDeal


GAME = GameRules(
    name="five_hundred",
    direction="clockwise",
    deck=DECK_43,
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
    imp_scale=imp_scale.imp_scale,
    par=par.par,
)

__all__ = ["GAME", "Options", "State"]
