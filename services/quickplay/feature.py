"""Quick play: the queues' routes, the matching tick (a Celery task with its beat entry) and
the `quickplay_seated` / `quickplay_expired` notices on the players' account streams."""

from __future__ import annotations

from typing import Any

from infra.projections.quickplay_notices import QuickplayNotices
from services.features import Feature, plain
from services.quickplay import tasks


def _routes() -> list[Any]:
    from services.quickplay.routes import quickplay
    return list(quickplay.ROUTES)


FEATURE = Feature("quick play", routes=_routes, tasks=(tasks.install,), account_events=(plain(QuickplayNotices),))
