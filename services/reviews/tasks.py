"""The reviewing task: each beat, a worker reviews the finished deals waiting for it.

A pass claims a few deals and reviews them; when it found a full batch it sends itself
again at once, so a backlog drains as fast as the workers allow while an idle system costs
one short query per `ATOUT_REVIEW_EVERY`. Database trouble is retried by the next beat.
"""

from __future__ import annotations

from celery import Celery

from services.reviews.service import BATCH, ReviewService
from services.workers import runtime


def install(app: Celery) -> None:
    if "reviews.review_pending" in app.tasks:
        return
    settings = app.conf.atout_settings

    @app.task(name="reviews.review_pending", shared=False, acks_late=True)
    def review_pending() -> int:
        done = runtime.run(app, lambda rt: ReviewService(rt.pool, rt.settings.review_worlds).review_pending(BATCH))
        if done >= BATCH:
            app.send_task("reviews.review_pending")
        return done

    app.conf.beat_schedule = {**(app.conf.beat_schedule or {}),
                              "reviews": {"task": "reviews.review_pending", "schedule": settings.review_every}}
