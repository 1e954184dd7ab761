"""Metrics beyond the API's own (services/http/metrics.py): Celery tasks, database pools and
HTTP responses by status, plus a way for a process without an HTTP API to be scraped.

Everything registers on prometheus_client's default registry, so `GET /metrics` of the API
shows it with no further wiring, and any process may call in:

* `instrument_celery()`: once, where the Celery app is built (worker and beat import it).
  Connects Celery's signals to `atout_celery_tasks_total{task,state}`,
  `atout_celery_task_seconds{task}` and `atout_celery_task_failures_total{task,exception}`.
* `instrument_celery(metrics_port=WORKER_METRICS_PORT)` in `atout worker`: also serve
  `/metrics` on that port once the worker is ready (`start_metrics_server`, usable by any
  process without the API). With a prefork pool the tasks run in child processes: set
  `PROMETHEUS_MULTIPROC_DIR` to an empty directory (the image's entrypoint empties it) and
  every child's samples are summed.
* `track_pool(name, pool)`: at pool creation; `atout_db_pool_connections{pool,state}`
  (open, in_use, idle, max) and `atout_db_pool_waiters{pool}` are read at scrape time, from
  `infra.store.pool.Pool` or an asyncpg pool. Pools are held weakly; closed ones vanish.
* `HttpMetrics(app)`: an ASGI wrapper counting `atout_http_responses_total{method,status}`
  (status class: 2xx, 4xx, 5xx, ...), for the 5xx alert (deploy/prometheus/alerts.yml).

Projection lag per projection is already `atout_projection_lag_events` / `_seconds`
(services/http/metrics.py, measured from the checkpoints at each scrape), as are
actions, action latency, open sockets and fan-out drops.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from collections.abc import Iterator
from typing import Any

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

WORKER_METRICS_PORT = 9108  # the Celery worker's /metrics (k8s/base/worker.yaml, docker-compose.yml)

TASK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

CELERY_TASKS = Counter("atout_celery_tasks_total", "Celery tasks finished, by task and final state "
                       "(SUCCESS, FAILURE, RETRY, REJECTED, IGNORED, REVOKED)", ["task", "state"])
CELERY_TASK_SECONDS = Histogram("atout_celery_task_seconds", "Time a Celery task ran, start to end, by task",
                                ["task"], buckets=TASK_BUCKETS)
CELERY_TASK_FAILURES = Counter("atout_celery_task_failures_total", "Celery tasks that raised, by task and "
                               "exception type", ["task", "exception"])
MATCHES_SUSPENDED = Counter("atout_matches_suspended_total", "Matches the server suspended because a task failed "
                            "for a reason retrying cannot fix, by reason (action_refused, deal_failed, task_failed)", ["reason"])
BROKER_SENDS = Counter("atout_broker_sends_total", "Tasks the async schedulers (fast path, bot_turns, tournaments) "
                       "handed to their broker thread, by sender and outcome (sent, failed, dropped: the "
                       "queue was full)", ["sender", "outcome"])
HTTP_RESPONSES = Counter("atout_http_responses_total", "HTTP responses by method and status class",
                         ["method", "status"])

_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})


# --- Celery ---------------------------------------------------------------------------------------

_started: dict[str, float] = {}  # task id -> perf_counter at prerun (per process)
_started_lock = threading.Lock()
_celery_lock = threading.Lock()
_celery_connected = False


def _task_name(sender: Any, task: Any = None) -> str:
    return str(getattr(task, "name", None) or getattr(sender, "name", None) or "unknown")


def _on_prerun(sender: Any = None, task_id: str | None = None, task: Any = None, **_: Any) -> None:
    if task_id is not None:
        with _started_lock:
            _started[task_id] = time.perf_counter()


def _on_postrun(sender: Any = None, task_id: str | None = None, task: Any = None, state: str | None = None,
                **_: Any) -> None:
    with _started_lock:
        began = _started.pop(task_id, None) if task_id is not None else None
    name = _task_name(sender, task)
    if began is not None:
        CELERY_TASK_SECONDS.labels(name).observe(time.perf_counter() - began)
    CELERY_TASKS.labels(name, state or "UNKNOWN").inc()


def _on_failure(sender: Any = None, exception: BaseException | None = None, **_: Any) -> None:
    CELERY_TASK_FAILURES.labels(_task_name(sender), type(exception).__name__ if exception else "unknown").inc()


def _on_revoked(sender: Any = None, request: Any = None, **_: Any) -> None:
    task_id = getattr(request, "id", None)
    with _started_lock:
        if task_id is not None:
            _started.pop(task_id, None)
    CELERY_TASKS.labels(_task_name(sender), "REVOKED").inc()


def _on_rejected(sender: Any = None, message: Any = None, **_: Any) -> None:
    headers = getattr(message, "headers", None) or {}
    CELERY_TASKS.labels(str(headers.get("task") or "unknown"), "REJECTED").inc()


def _on_child_exit(pid: int | None = None, **_: Any) -> None:
    """A prefork child ended: let the multiprocess collector forget its live gauges."""
    if pid is not None and os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)


_metrics_port: int | None = None
metrics_server: Any = None  # the worker's /metrics server once started (`.server_port`, `.shutdown()`)


def _serve_on_ready(sender: Any = None, **_: Any) -> None:
    """worker_ready fires once, in the worker's main process: serve /metrics from there."""
    global metrics_server
    if _metrics_port is not None and metrics_server is None:
        try:
            metrics_server = start_metrics_server(_metrics_port)
        except OSError as exc:  # another worker on this host has the port: work on, unmeasured
            logging.getLogger(__name__).warning("worker /metrics not served on port %s: %s", _metrics_port, exc)


def instrument_celery(metrics_port: int | None = None) -> None:
    """Connect the task metrics to Celery's signals (idempotent; weak=False: module functions).
    With `metrics_port` (e.g. `WORKER_METRICS_PORT` in `atout worker`), the worker serves
    `/metrics` on it once ready; leave it None where the process already has one (the API)."""
    global _celery_connected, _metrics_port
    from celery import signals

    with _celery_lock:
        if metrics_port is not None and _metrics_port is None:
            _metrics_port = metrics_port
            signals.worker_ready.connect(_serve_on_ready, weak=False)
        if _celery_connected:
            return
        signals.task_prerun.connect(_on_prerun, weak=False)
        signals.task_postrun.connect(_on_postrun, weak=False)
        signals.task_failure.connect(_on_failure, weak=False)
        signals.task_revoked.connect(_on_revoked, weak=False)
        signals.task_rejected.connect(_on_rejected, weak=False)
        signals.worker_process_shutdown.connect(_on_child_exit, weak=False)
        _celery_connected = True


# --- a /metrics for processes without the API -------------------------------------------------------

def metrics_registry() -> CollectorRegistry:
    """The registry to expose: the default one, or, under `PROMETHEUS_MULTIPROC_DIR`, one
    summing every process's files plus this process's own collectors (the pools)."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    registry.register(POOLS)
    return registry


def start_metrics_server(port: int = WORKER_METRICS_PORT, addr: str = "0.0.0.0") -> Any:
    """Serve `/metrics` on `port` from a daemon thread; returns prometheus_client's server
    (call `.shutdown()` to stop it). Call it once per process (not in prefork children)."""
    server, _thread = start_http_server(port, addr, registry=metrics_registry())
    return server


# --- database pools ----------------------------------------------------------------------------------

def _pool_stats(pool: Any) -> dict[str, int] | None:
    """(open, idle, max, waiters) of an infra.store Pool or an asyncpg Pool; None once closed."""
    if hasattr(pool, "get_size"):  # asyncpg.Pool
        if pool.is_closing():
            return None
        size, idle = pool.get_size(), pool.get_idle_size()
        return {"open": size, "idle": idle, "in_use": size - idle, "max": pool.get_max_size(), "waiters": 0}
    if getattr(pool, "_closed", False):
        return None
    stats = getattr(pool, "stats", None)
    if callable(stats):
        return dict(stats())
    size, idle = int(getattr(pool, "_size", 0)), len(getattr(pool, "_idle", ()))
    return {"open": size, "idle": idle, "in_use": max(size - idle, 0), "max": int(getattr(pool, "_max", 0)),
            "waiters": len(getattr(pool, "_waiters", ()))}


class PoolCollector(Collector):
    """Reads the tracked pools at each scrape; pools of one name are summed."""

    def __init__(self) -> None:
        self._pools: dict[str, weakref.WeakSet[Any]] = {}
        self._lock = threading.Lock()

    def track(self, name: str, pool: Any) -> Any:
        with self._lock:
            self._pools.setdefault(name, weakref.WeakSet()).add(pool)
        return pool

    def collect(self) -> Iterator[GaugeMetricFamily]:
        connections = GaugeMetricFamily("atout_db_pool_connections", "Database pool connections by pool and state "
                                        "(open, in_use, idle, max)", labels=["pool", "state"])
        waiters = GaugeMetricFamily("atout_db_pool_waiters", "Tasks waiting for a connection, by pool",
                                    labels=["pool"])
        with self._lock:
            named = {name: list(pools) for name, pools in self._pools.items()}
        for name, pools in sorted(named.items()):
            total = {"open": 0, "in_use": 0, "idle": 0, "max": 0, "waiters": 0}
            for pool in pools:
                for key, value in (_pool_stats(pool) or {}).items():
                    if key in total:
                        total[key] += value
            for state in ("open", "in_use", "idle", "max"):
                connections.add_metric([name, state], total[state])
            waiters.add_metric([name], total["waiters"])
        yield connections
        yield waiters


POOLS = PoolCollector()
REGISTRY.register(POOLS)


def track_pool(name: str, pool: Any) -> Any:
    """Report `pool` as `name` (e.g. "api", "projector") until it is closed; returns it."""
    return POOLS.track(name, pool)


# --- HTTP responses --------------------------------------------------------------------------------

class HttpMetrics:
    """ASGI wrapper: counts each HTTP response by method and status class. WebSocket and
    lifespan traffic pass through untouched; a request that raises counts as 5xx."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def __getattr__(self, name: str) -> Any:  # e.g. `.state` of the wrapped Litestar app
        return getattr(self.app, name)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope.get("method", "GET")
        method = method if method in _METHODS else "other"
        status: list[int] = []

        async def send_counting(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))
            await send(message)

        try:
            await self.app(scope, receive, send_counting)
        except BaseException:
            HTTP_RESPONSES.labels(method, f"{status[0] // 100}xx" if status else "5xx").inc()
            raise
        HTTP_RESPONSES.labels(method, f"{status[0] // 100}xx" if status else "5xx").inc()
