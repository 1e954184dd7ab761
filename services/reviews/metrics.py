"""The reviews' backlog on `/metrics`, measured at each scrape (`Feature.gauges`): what the
alert `AtoutReviewBacklogHigh` (deploy/prometheus/alerts.yml) watches."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prometheus_client import Gauge

from services.reviews.service import ReviewService

if TYPE_CHECKING:
    from services.runtime import Runtime

REVIEW_BACKLOG_DEALS = Gauge("atout_review_backlog_deals", "Finished deals the workers have not reviewed yet")
REVIEW_BACKLOG_SECONDS = Gauge("atout_review_backlog_seconds", "Age of the oldest finished deal not reviewed yet")


async def backlog(runtime: Runtime) -> None:
    deals, oldest = await ReviewService(runtime.pool, 0).backlog()
    REVIEW_BACKLOG_DEALS.set(deals)
    REVIEW_BACKLOG_SECONDS.set(oldest)
