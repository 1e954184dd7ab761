"""Bots and clocks: the bots' turns and the turn clocks as Celery tasks with the sweeper, the
`bot_turns` read model, and the fast path that answers a bot's turn in the process that
appended it."""

from __future__ import annotations

from services.bots import fastpath, reactor
from services.bots.tasks import install
from services.features import Feature

FEATURE = Feature("bots and clocks", projections=(reactor.projection,), after_commit=(fastpath.after_commit,),
                  tasks=(install,))
