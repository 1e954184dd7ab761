"""docker-compose.yml and the proxy's deploy/nginx.conf, checked as files (no Docker engine)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from tests.deploy.conftest import PROCESSES, ROOT, check_command, check_env, route_exists

ONE_SHOT = {"migrate"}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return compose["services"]


def atout_services(services: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {name: s for name, s in services.items() if s.get("image") == "atout:local"}


def test_every_part_is_there(services: dict) -> None:
    assert {"postgres", "redis", "migrate", "api", "projector", "worker", "beat"} <= set(services)
    commands = {name: s["command"][0] for name, s in atout_services(services).items()}
    assert sorted(commands.values()) == sorted(PROCESSES), commands
    built = {s["build"]["dockerfile"] for s in atout_services(services).values()}
    assert built == {"deploy/Dockerfile"}, "one image for every process"
    assert services["api"]["deploy"]["replicas"] == 2
    assert services["beat"].get("deploy", {}).get("replicas", 1) == 1


@pytest.mark.parametrize("name", ["migrate", "api", "projector", "worker", "beat"])
def test_commands_are_real_atout_subcommands(name: str, services: dict, subcommands: set[str]) -> None:
    check_command(services[name]["command"], subcommands)


def test_environment_names_and_values_are_the_settings(services: dict) -> None:
    for name, service in atout_services(services).items():
        check_env(service["environment"], f"docker-compose.yml {name}")
        env = service["environment"]
        database = urlsplit(env["ATOUT_DATABASE_URL"].replace("${POSTGRES_PASSWORD:-atout}", "pw"))
        assert database.hostname == "postgres" and database.port == 5432
        assert database.username == services["postgres"]["environment"]["POSTGRES_USER"]
        assert database.path == "/" + services["postgres"]["environment"]["POSTGRES_DB"]
        assert urlsplit(env["ATOUT_REDIS_URL"]).hostname == "redis"


def test_start_order_by_condition(services: dict) -> None:
    for name, service in services.items():
        for dependency, spec in (service.get("depends_on") or {}).items():
            assert dependency in services, f"{name} depends on unknown {dependency}"
            condition = spec["condition"]
            if condition == "service_healthy":
                assert "healthcheck" in services[dependency], f"{name} waits for {dependency} to be healthy"
            else:
                assert condition == "service_completed_successfully" and dependency in ONE_SHOT
    assert services["migrate"]["restart"] == "no"
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("api", "projector", "worker", "beat"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
        assert depends["redis"]["condition"] == "service_healthy", name
    assert services["proxy"]["depends_on"]["api"]["condition"] == "service_healthy"


def test_healthchecks_use_real_routes_and_the_port(services: dict, routes: set[str]) -> None:
    for name in ("postgres", "redis", "api", "proxy"):
        assert services[name]["healthcheck"]["test"][0] == "CMD", name
    api = services["api"]
    path = api["healthcheck"]["test"][-1]
    assert path == "/readyz" and route_exists(path, routes), "api is healthy when it can serve"
    port = api["environment"]["ATOUT_PORT"]
    assert str(port) in [str(p) for p in api["expose"]]
    proxy_check = services["proxy"]["healthcheck"]["test"][-1]
    assert route_exists(urlsplit(proxy_check).path, routes)


def test_postgres_keeps_its_data_in_a_volume(compose: dict, services: dict) -> None:
    mounts = services["postgres"]["volumes"]
    assert "pgdata:/var/lib/postgresql/data" in mounts
    assert "pgdata" in compose["volumes"]


def test_the_proxy_spreads_over_the_api_replicas_and_passes_websockets(services: dict) -> None:
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    port = services["api"]["environment"]["ATOUT_PORT"]
    assert re.search(rf"set \$api http://api:{port};", conf) and "proxy_pass $api;" in conf
    assert "resolver 127.0.0.11" in conf, "re-resolve `api` (every replica, after restarts)"
    for line in ("proxy_http_version 1.1;", "proxy_set_header Upgrade $http_upgrade;",
                 "proxy_set_header Connection $connection_upgrade;", "proxy_buffering off;"):
        assert line in conf, line
    assert re.search(r"proxy_read_timeout (\d+)h;", conf), "quiet live streams stay open"
    listen = re.search(r"listen (\d+);", conf).group(1)
    published = services["proxy"]["ports"][0]
    assert published.split(":")[-1] == listen
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in services["proxy"]["volumes"]


def test_the_proxy_keeps_the_metrics_inside(services: dict) -> None:
    """What Prometheus scrapes on each api replica (port 8000 inside the network) is not served
    on the published port (the k8s ingress likewise routes no /metrics)."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    block = re.search(r"location = /metrics \{([^}]*)\}", conf)
    assert block and "return 404;" in block.group(1), conf


def test_worker_exposes_its_task_metrics(services: dict) -> None:
    from infra.observability import WORKER_METRICS_PORT

    worker = services["worker"]
    assert str(WORKER_METRICS_PORT) in [str(p) for p in worker["expose"]]
    assert worker["environment"]["PROMETHEUS_MULTIPROC_DIR"].startswith("/tmp/")
    assert "/tmp" in worker["tmpfs"] and worker["read_only"] is True


def test_every_api_replica_signs_records_with_one_key_from_the_environment(services: dict) -> None:
    keys = {s["environment"].get("ATOUT_RECORD_KEY") for s in atout_services(services).values()}
    (key,) = keys
    assert key is not None and key.startswith("${ATOUT_RECORD_KEY:-"), "taken from the environment (or .env)"
    assert services["api"]["deploy"]["replicas"] > 1
