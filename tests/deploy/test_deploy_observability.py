"""infra/observability.py (Celery task metrics, database pools, HTTP responses, a /metrics
server for processes without the API) and deploy/prometheus/alerts.yml, whose metric names
must all be ones the processes expose."""

from __future__ import annotations

import gc
import re
import urllib.request

import httpx
import pytest
import yaml
from prometheus_client import REGISTRY

from infra import observability
from infra.settings import Settings
from tests.deploy.conftest import ROOT

ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def exposed_names() -> set[str]:
    """Every sample name the API and the other processes can expose."""
    import importlib

    import services.http.metrics  # noqa: F401  (defines the API's metrics)

    for module in sorted((ROOT / "services").glob("*/metrics.py")):   # a feature's gauges (`Feature.gauges`)
        importlib.import_module(f"services.{module.parent.name}.metrics")

    names: set[str] = set()
    for family in REGISTRY.collect():
        suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"),
                    "gauge": ("",)}.get(family.type, ("",))
        names |= {family.name + suffix for suffix in suffixes}
    return names


def test_alert_rules_parse_and_use_real_metrics() -> None:
    groups = yaml.safe_load(ALERTS.read_text())["groups"]
    rules = [rule for group in groups for rule in group["rules"]]
    known = exposed_names()
    for rule in rules:
        assert {"alert", "expr", "for", "labels", "annotations"} <= set(rule), rule.get("alert")
        assert rule["labels"]["severity"] in {"warning", "critical"}
        assert re.fullmatch(r"\d+[smh]", rule["for"])
        used = set(re.findall(r"\batout_[a-z0-9_]+", rule["expr"]))
        assert used and used <= known, f"{rule['alert']}: unknown metrics {sorted(used - known)}"
        assert rule["expr"].count("(") == rule["expr"].count(")"), rule["alert"]
    text = " ".join(rule["expr"] for rule in rules)
    for needed in ("atout_projection_lag_seconds", "atout_projection_lag_events", "atout_fanout_drops_total",
                   'atout_celery_tasks_total{state="FAILURE"}', 'atout_http_responses_total{status="5xx"}',
                   "histogram_quantile(0.99, sum by (le) (rate(atout_action_seconds_bucket"):
        assert needed in text, needed


def test_celery_tasks_are_timed_and_counted() -> None:
    from celery import Celery

    app = Celery("observability-test", set_as_current=False)

    @app.task(name="test.ok")
    def ok() -> int:
        return 1

    @app.task(name="test.boom")
    def boom() -> None:
        raise ValueError("no")

    observability.instrument_celery()
    observability.instrument_celery()  # idempotent: counted once
    before = (value("atout_celery_tasks_total", task="test.ok", state="SUCCESS"),
              value("atout_celery_tasks_total", task="test.boom", state="FAILURE"),
              value("atout_celery_task_failures_total", task="test.boom", exception="ValueError"),
              value("atout_celery_task_seconds_count", task="test.ok"))
    assert ok.apply().get() == 1
    assert boom.apply().failed()
    after = (value("atout_celery_tasks_total", task="test.ok", state="SUCCESS"),
             value("atout_celery_tasks_total", task="test.boom", state="FAILURE"),
             value("atout_celery_task_failures_total", task="test.boom", exception="ValueError"),
             value("atout_celery_task_seconds_count", task="test.ok"))
    assert [a - b for a, b in zip(after, before)] == [1, 1, 1, 1]


def test_pools_are_reported_while_they_live() -> None:
    from infra.store.pool import Pool

    first, second = Pool("postgresql://x@127.0.0.1:1/x", max_size=3), Pool("postgresql://x@127.0.0.1:1/x", max_size=4)
    observability.track_pool("test-pool", first)
    observability.track_pool("test-pool", second)
    assert value("atout_db_pool_connections", pool="test-pool", state="max") == 7
    assert value("atout_db_pool_connections", pool="test-pool", state="in_use") == 0
    assert value("atout_db_pool_waiters", pool="test-pool") == 0
    del second
    gc.collect()
    assert value("atout_db_pool_connections", pool="test-pool", state="max") == 3


async def test_http_responses_are_counted_by_status_class() -> None:
    from services.http.app import create_app

    app = observability.HttpMetrics(create_app(Settings(database_url="postgresql://x@127.0.0.1:1/x")))
    before = {s: value("atout_http_responses_total", method="GET", status=s) for s in ("2xx", "4xx")}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://atout") as client:
        assert (await client.get("/healthz")).status_code == 200
        assert (await client.get("/no-such-route")).status_code == 404
    assert value("atout_http_responses_total", method="GET", status="2xx") == before["2xx"] + 1
    assert value("atout_http_responses_total", method="GET", status="4xx") == before["4xx"] + 1

    async def broken(scope, receive, send):
        raise RuntimeError("boom")

    five = value("atout_http_responses_total", method="POST", status="5xx")
    with pytest.raises(RuntimeError):
        await observability.HttpMetrics(broken)({"type": "http", "method": "POST"}, None, None)
    assert value("atout_http_responses_total", method="POST", status="5xx") == five + 1


def test_a_ready_worker_serves_its_metrics(monkeypatch: pytest.MonkeyPatch) -> None:
    """What `atout worker` gets from instrument_celery(metrics_port=...): /metrics once ready."""
    from celery import signals

    start = observability.start_metrics_server
    monkeypatch.setattr(observability, "start_metrics_server", lambda port: start(port, "127.0.0.1"))
    monkeypatch.setattr(observability, "_metrics_port", None)
    monkeypatch.setattr(observability, "metrics_server", None)
    observability.instrument_celery(metrics_port=0)  # 0: any free port
    try:
        signals.worker_ready.send(sender=None)
        server = observability.metrics_server
        assert server is not None
    finally:
        signals.worker_ready.disconnect(observability._serve_on_ready)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/metrics", timeout=5) as response:
            body = response.read().decode()
    finally:
        server.shutdown()
    assert "atout_celery_task_seconds" in body and "atout_db_pool_connections" in body
