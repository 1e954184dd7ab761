"""Prometheus metrics of the API process, served at `GET /metrics`.

Defined once per process at import (prometheus_client's default registry), so any module
may update them: the action route counts actions and their latency, the live streams
(services/live/routes/streams.py) set `OPEN_SOCKETS` and count `FANOUT_DROPS`. Projection lag is
measured when scraped, from the checkpoints in Postgres, so it is right even when the
projector runs in another process (`atout projector`).
"""

from __future__ import annotations

import hmac
import logging

from litestar import Request, Response, get
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from services.http.errors import ApiError
from services.http.schemas import ErrorOut

log = logging.getLogger(__name__)

# The shared action vocabulary (shared/rules/README.md, "Actions"): anything else is
# counted as "other", so a client cannot grow the label set without bound.
ACTION_LABELS = frozenset({"pass", "play", "take", "name", "bid", "coinche", "surcoinche", "declare", "trump",
                           "discard", "rob"})

ACTIONS = Counter("atout_actions_total", "Actions submitted, by action type and outcome "
                  "(accepted, replayed, stale_version, command_conflict, rejected, malformed, unknown_match, error)",
                  ["action", "outcome"])
ACTION_SECONDS = Histogram("atout_action_seconds", "Time to answer an action, request to response",
                           buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5))
PROJECTION_LAG_EVENTS = Gauge("atout_projection_lag_events", "Committed events a projection has not applied yet",
                              ["projection"])
PROJECTION_LAG_SECONDS = Gauge("atout_projection_lag_seconds", "Age of the oldest event a projection has not applied",
                               ["projection"])
OPEN_SOCKETS = Gauge("atout_open_sockets", "Live connections open in this process (WebSocket or HTTP stream)",
                     ["transport"])
FANOUT_DROPS = Counter("atout_fanout_drops_total", "Live clients dropped because their bounded queue was full",
                       ["transport"])


def action_label(action: object) -> str:
    return action if isinstance(action, str) and action in ACTION_LABELS else "other"


def observe_action(action: object, outcome: str, seconds: float) -> None:
    ACTIONS.labels(action_label(action), outcome).inc()
    ACTION_SECONDS.observe(seconds)


async def _measure_feature_gauges(request: Request) -> None:
    """The gauges the features declared (`Feature.gauges`), each from what it reads now."""
    for measure in getattr(getattr(request.app.state, "runtime", None), "gauges", ()):
        try:
            await measure()
        except Exception as exc:  # no tables yet, database down: leave the last values
            log.debug("a feature's gauges are unavailable: %s", exc)


async def _measure_projection_lag(request: Request) -> None:
    runtime = getattr(request.app.state, "runtime", None)
    if runtime is None or runtime.store is None:
        return
    from infra.projections import ProjectionRunner

    try:
        status = await ProjectionRunner(runtime.store).status(runtime.projections())
    except Exception as exc:  # no tables yet, database down: leave the last values
        log.debug("projection lag unavailable: %s", exc)
        return
    for name, entry in status["projections"].items():
        PROJECTION_LAG_EVENTS.labels(name).set(entry.get("lag", 0))
        PROJECTION_LAG_SECONDS.labels(name).set(entry.get("lag_seconds", 0.0))


EXAMPLE = """# HELP atout_actions_total Actions submitted, by action type and outcome
# TYPE atout_actions_total counter
atout_actions_total{action="play",outcome="accepted"} 412.0
atout_actions_total{action="play",outcome="rejected"} 3.0
"""


def _scraper_allowed(request: Request) -> bool:
    """Open unless ATOUT_METRICS_TOKEN is set; then only with that bearer token."""
    wanted = getattr(request.app.state.settings, "metrics_token", None)
    if not wanted:
        return True
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), wanted.encode())


@get("/metrics", tags=["health"], summary="Prometheus metrics", include_in_schema=True,
     description="Open, unless `ATOUT_METRICS_TOKEN` is set: then it needs `Authorization: Bearer <that token>` "
                 "(docs/settings.md). The compose proxy and the k8s ingress never route it from outside.",
     responses={200: ResponseSpec(data_container=str, media_type="text/plain", description="Prometheus text format",
                                  generate_examples=False,
                                  examples=[Example(summary="a few lines", value=EXAMPLE)]),
                401: ResponseSpec(data_container=ErrorOut, generate_examples=False,
                                  description="ATOUT_METRICS_TOKEN is set and this is not it",
                                  examples=[Example(summary="no scrape token", value={
                                      "code": "unauthorized", "message": "this needs the metrics token",
                                      "details": {}})])})
async def metrics(request: Request) -> Response:
    if not _scraper_allowed(request):
        raise ApiError(401, "unauthorized", "this needs the metrics token", headers={"WWW-Authenticate": "Bearer"})
    await _measure_projection_lag(request)
    await _measure_feature_gauges(request)
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


ROUTES = [metrics]
