"""Duplicate: robot duplicate events (played alone with bots within a window), travellers of
every public board, and the daily robot event beat creates from `ATOUT_ROBOT_DAILY`. The
events are tournaments (their rounds, seals and notices are the tournaments feature's)."""

from __future__ import annotations

from typing import Any

from services.duplicate import daily
from services.features import Feature


def _routes() -> list[Any]:
    from services.duplicate.routes import duplicate
    return list(duplicate.ROUTES)


FEATURE = Feature("duplicate", routes=_routes, tasks=(daily.register_tasks,))
