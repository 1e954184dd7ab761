"""The reviewing task: each beat, a worker reviews the finished deals waiting for it.

Reviews have a queue of their own (`reviews`). A worker that serves only it drains a backlog
batch after batch: a pass that found a full batch sends the next at once. A worker that also
plays bots (`atout worker` with every queue, as compose and k8s run it) must never have its
slots taken by reviews while turns wait: there a pass reviews one deal, and only while it
holds a lease in Redis that one such worker slot in the whole deployment holds at a time, so
bots and clocks always keep the others. Database trouble is retried by the next beat.
"""

from __future__ import annotations

import redis
from celery import Celery

from services.reviews.service import BATCH, ReviewService
from services.workers import runtime

LEASE = 300          # seconds: far beyond one deal's review, so a dead holder frees it in time


def install(app: Celery) -> None:
    if "reviews.review_pending" in app.tasks:
        return
    settings = app.conf.atout_settings
    lease_key = f"{settings.redis_prefix}:reviews:beside-bots"

    def review(limit: int) -> int:
        return runtime.run(app, lambda rt: ReviewService(rt.pool, rt.settings.review_worlds).review_pending(limit))

    @app.task(name="reviews.review_pending", shared=False, acks_late=True)
    def review_pending() -> int:
        if not app.conf.get("atout_reviews_beside_bots", False):
            done = review(BATCH)
            if done >= BATCH:
                app.send_task("reviews.review_pending")
            return done
        client = redis.Redis.from_url(settings.redis_url, socket_timeout=1.0, socket_connect_timeout=1.0)
        try:
            if not client.set(lease_key, "1", nx=True, ex=LEASE):
                return 0                     # another bot-playing slot is reviewing: leave the turns to this one
            try:
                return review(1)
            finally:
                client.delete(lease_key)
        finally:
            client.close()

    app.conf.beat_schedule = {**(app.conf.beat_schedule or {}),
                              "reviews": {"task": "reviews.review_pending", "schedule": settings.review_every}}
