"""Reviews: each finished deal's double-dummy review for its players (the analysis route),
fair-play signals for admins, and the workers' task that computes them off the request path."""

from __future__ import annotations

from typing import Any

from services.features import Feature


def _routes() -> list[Any]:
    from services.reviews.routes import analysis, fairplay
    return [*analysis.ROUTES, *fairplay.ROUTES]


def _tasks(app: Any) -> None:
    from services.reviews import tasks
    tasks.install(app)


async def _backlog(runtime: Any) -> None:
    from services.reviews import metrics      # the API's scrape only: the gauges live in its registry
    await metrics.backlog(runtime)


FEATURE = Feature("reviews", routes=_routes, tasks=(_tasks,), gauges=(_backlog,))
