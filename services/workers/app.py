"""The Celery application, with the Redis broker of the settings.

Choices, and why:

* `visibility_timeout` 60 s: with Redis a message taken by a worker that dies comes back
  only after it (an hour by default). Short, and the sweeper (on worker start and every
  `ATOUT_SWEEP_EVERY` seconds from beat) re-schedules any overdue turn anyway, so nothing
  depends on redelivery. A countdown longer than that would be redelivered while it
  waits, so a long clock waits in hops (`reactor.expire_at`).
* `global_keyprefix` and queue names under the settings' `redis_prefix`, so deployments
  (and test sessions) sharing a Redis never see each other's tasks.
* Deal reviews on a queue of their own (`reviews`): a review is a second or two of one core,
  which must never hold a bot's turn or a clock behind it; a deployment runs workers for
  `bots,clock` and others for `reviews` (`atout worker --queues`).
* Late acknowledgement, rejected on a lost worker, prefetch 1: a task killed mid-way is
  redelivered rather than lost, and one slow expert never holds other matches' turns.
* Socket timeouts on the broker (`BROKER_SOCKET_TIMEOUT`, above the consumer's 1-second
  BRPOP) and one retry of a publish: kombu's defaults wait for ever on a broker that stopped
  answering without closing the connection, and a publish stuck there would never let its
  thread (`services.workers.sends`) or a worker go on.
* No result backend and no remote control: nothing ever waits on a task's result, and
  pidbox fan-out would cross deployments sharing a Redis.
"""

from __future__ import annotations


from celery import Celery

from infra.settings import Settings

VISIBILITY_TIMEOUT = 60
BROKER_SOCKET_TIMEOUT = 3.0      # seconds: a publish to a stalled broker fails after it
BROKER_CONNECT_TIMEOUT = 2.0


def queues(prefix: str) -> dict[str, str]:
    return {"bots": f"{prefix}.bots", "clock": f"{prefix}.clock", "reviews": f"{prefix}.reviews"}


def make_app(settings: Settings) -> Celery:
    """A Celery app on the settings' broker with no task of its own: enough to send tasks
    (the fast path, the projection); `services.bootstrap.worker_app` adds every feature's
    tasks and beat entries for `atout worker` and `atout beat`."""
    names = queues(settings.redis_prefix)
    app = Celery("atout", broker=settings.redis_url or "redis://127.0.0.1:6379/0", set_as_current=False)
    app.conf.update(
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT,
                                  "global_keyprefix": f"{settings.redis_prefix}:",
                                  "socket_timeout": BROKER_SOCKET_TIMEOUT,
                                  "socket_connect_timeout": BROKER_CONNECT_TIMEOUT},
        task_publish_retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2},
        broker_connection_retry_on_startup=True,
        task_default_queue=names["bots"],
        task_routes={"bots.*": {"queue": names["bots"]}, "clock.*": {"queue": names["clock"]},
                     "sweeper.*": {"queue": names["clock"]}, "tournaments.*": {"queue": names["clock"]},
                     "reviews.*": {"queue": names["reviews"]}},
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        task_serializer="json",
        accept_content=["json"],
        worker_prefetch_multiplier=1,
        worker_enable_remote_control=False,
        worker_send_task_events=False,
        worker_hijack_root_logger=False,
        timezone="UTC",
        enable_utc=True,
        beat_schedule={},
    )
    app.conf.atout_settings = settings
    return app
