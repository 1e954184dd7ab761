"""The whole system as `make run` runs it, for the end-to-end tests: `atout serve --projector`
(the API, the read models, the live publisher) and one `atout worker --beat` (bots, clocks, the
sweeper, the tournament tick), on the session's Postgres and Redis under a prefix of their own.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


UNLIMITED_REGISTRATIONS = {"ATOUT_REGISTRATIONS_PER_HOUR": "0"}
"""The tests register hundreds of players from 127.0.0.1 in one session; a test of that
limit sets it."""


@dataclass
class System:
    base: str
    env: dict[str, str]
    logs: tuple[Path, Path]  # the server's, the worker's

    def admin_token(self, name: str = "root") -> str:
        """`atout admin create NAME --json`, as an operator makes the first admin."""
        out = subprocess.run([sys.executable, "-m", "services.cli", "admin", "create", name, "--json"], cwd=ROOT,
                             env=self.env, capture_output=True, text=True, timeout=60, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])["token"]


@contextlib.contextmanager
def running_system(data: Path, database_url: str, redis_url: str, redis_prefix: str,
                   worker_args: Sequence[str] = ("--pool", "solo", "--queues", "bots,clock"),
                   reviews: bool = False, **settings: str) -> Iterator[System]:
    """Start both processes, wait for `/readyz`, and stop them (the worker's whole process
    group: its Celery children too) however the test ends. `settings` are more ATOUT_ vars.
    The worker plays bots and clocks; `reviews` adds a second worker reviewing finished deals
    (`--queues reviews`, as `make run` does), which the other tests leave out: on the session's
    database it would review every deal the tests before them played."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env.update(ATOUT_PORT=str(port), ATOUT_DATABASE_URL=database_url, ATOUT_REDIS_URL=redis_url,
               ATOUT_REDIS_PREFIX=redis_prefix, ATOUT_LOG_LEVEL="warning", ATOUT_DATA_DIR=str(data),
               **{**UNLIMITED_REGISTRATIONS, **settings})
    logs = data / "server.log", data / "worker.log"
    server = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--projector"], env=env, cwd=ROOT,
                              stdout=open(logs[0], "wb"), stderr=subprocess.STDOUT)
    worker = subprocess.Popen([sys.executable, "-m", "services.cli", "worker", *worker_args, "--beat"],
                              env=env, cwd=ROOT, start_new_session=True,
                              stdout=open(logs[1], "wb"), stderr=subprocess.STDOUT)
    reviewer = subprocess.Popen([sys.executable, "-m", "services.cli", "worker", "--pool", "solo", "--queues",
                                 "reviews"], env=env, cwd=ROOT, start_new_session=True,
                                stdout=open(data / "reviewer.log", "wb"), stderr=subprocess.STDOUT) if reviews else None
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, logs[0].read_text()
            assert worker.poll() is None, logs[1].read_text()
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, logs[0].read_text()
            time.sleep(0.1)
        yield System(base, env, logs)
    finally:
        server.terminate()
        workers = [w for w in (worker, reviewer) if w is not None]
        for w in workers:
            if w.poll() is None:
                os.killpg(w.pid, signal.SIGTERM)
        for proc, kill in ((server, server.kill),
                           *((w, lambda w=w: os.killpg(w.pid, signal.SIGKILL)) for w in workers)):
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                kill()
                proc.wait(5)


@contextlib.contextmanager
def serving(tmp: Path, database_url: str, redis_url: str, redis_prefix: str, *, projector: bool = False,
            **settings: str) -> Iterator[str]:
    """`atout serve` (with no projector unless asked: read models and account streams need
    one) with more ATOUT_ settings."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env.update(ATOUT_PORT=str(port), ATOUT_DATABASE_URL=database_url, ATOUT_REDIS_URL=redis_url,
               ATOUT_REDIS_PREFIX=redis_prefix, ATOUT_LOG_LEVEL="warning", **{**UNLIMITED_REGISTRATIONS, **settings})
    log = tmp / f"serve-{port}.log"
    proc = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--projector" if projector else "--no-projector"], env=env, cwd=ROOT,
                            stdout=open(log, "wb"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


# --- a cluster on one machine: nginx in front of replicas (tests/e2e/test_cluster.py, bench/cluster.py) ---

NGINX = next((p for p in ("/usr/sbin/nginx", "/usr/bin/nginx") if Path(p).exists()), None)
SHIPPED_NGINX = ROOT / "deploy" / "nginx.conf"


def nginx_config(port: int, upstreams: Sequence[int], prefix: Path) -> str:
    """deploy/nginx.conf with its one `server` for 127.0.0.1:`port` in front of `upstreams`
    (loopback ports) instead of Docker's `api` name, wrapped in a main context that keeps
    every file under `prefix`. The response header `X-Upstream` (which replica answered)
    is the tests' only addition."""
    shipped = SHIPPED_NGINX.read_text()
    body = "\n".join(line for line in shipped.splitlines()
                     if not line.lstrip().startswith(("resolver ", "set $api ", "#")))
    assert "proxy_pass $api;" in body and "listen 8080;" in body, "deploy/nginx.conf changed shape"
    body = body.replace("proxy_pass $api;", "proxy_pass http://atout_api;\n        add_header X-Upstream "
                                            "$upstream_addr always;")
    body = body.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n" for p in upstreams)
    temp = "".join(f"{kind}_temp_path {prefix}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                     "scgi"))
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (f"{user}daemon off;\nmaster_process on;\nworker_processes 1;\npid {prefix}/nginx.pid;\n"
            f"error_log {prefix}/error.log warn;\nevents {{ worker_connections 4096; }}\n"
            f"http {{\naccess_log off;\n{temp}upstream atout_api {{\n{servers}}}\n{body}\n}}\n")


@dataclass
class Proc:
    """One process of a cluster, in its own process group (a worker's children die with it)."""

    name: str
    popen: subprocess.Popen
    log: Path
    port: int | None = None

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        """kill -9, the whole group, no goodbye."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(10)

    def stop(self) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGTERM)
        try:
            self.popen.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()


def start(name: str, command: Sequence[str], env: dict[str, str], data: Path, port: int | None = None) -> Proc:
    log = data / f"{name}.log"
    popen = subprocess.Popen(list(command), env=env, cwd=ROOT, start_new_session=True,
                             stdout=open(log, "wb"), stderr=subprocess.STDOUT)
    return Proc(name, popen, log, port)


def atout(name: str, args: Sequence[str], env: dict[str, str], data: Path, port: int | None = None) -> Proc:
    return start(name, [sys.executable, "-m", "services.cli", *args], env, data, port)


def wait_ready(url: str, proc: Proc, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        assert proc.alive(), proc.log.read_text()
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=1).status_code == 200:
                return
        assert time.monotonic() < deadline, proc.log.read_text()
        time.sleep(0.1)


PROJECTOR_RUNNING = "projector running"   # infra/projections/projector.py's line once it holds the lock


@dataclass
class Cluster:
    base: str                        # the proxy
    env: dict[str, str]
    data: Path
    procs: dict[str, Proc]

    def of(self, kind: str) -> list[Proc]:
        return [p for name, p in self.procs.items() if name.startswith(kind + "-")]

    def active_projector(self) -> Proc:
        (active,) = [p for p in self.of("projector") if p.alive() and PROJECTOR_RUNNING in p.log.read_text()]
        return active

    def replica(self, port: int) -> Proc:
        (proc,) = [p for p in self.of("serve") if p.port == port]
        return proc


@contextlib.contextmanager
def cluster(data: Path, database_url: str, redis_url: str, redis_prefix: str, *, replicas: int = 3,
            workers: int = 2, projectors: int = 2, beat: bool = True, projector_command: Sequence[str] | None = None,
            **settings: str) -> Iterator[Cluster]:
    """`atout migrate`, then `projectors` projectors (the first takes the lock, the others
    stand by), `replicas` × `atout serve`, `workers` × `atout worker --pool solo`, an
    `atout beat`, and nginx (deploy/nginx.conf) in front of the replicas; everything stopped
    however the test ends. `projector_command` replaces `atout projector` (the benchmark's,
not waited for: it says nothing when it holds the lock)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env.update(ATOUT_DATABASE_URL=database_url, ATOUT_REDIS_URL=redis_url, ATOUT_REDIS_PREFIX=redis_prefix,
               ATOUT_LOG_LEVEL="warning", ATOUT_DATA_DIR=str(data), **settings)
    assert NGINX is not None, "no nginx: .ci/run installs Debian's"
    subprocess.run([sys.executable, "-m", "services.cli", "migrate"], cwd=ROOT, env=env, check=True,
                   capture_output=True, timeout=120)
    procs: dict[str, Proc] = {}
    try:
        for i in range(projectors):            # info: the line that says it holds the lock
            command = list(projector_command or [sys.executable, "-m", "services.cli", "projector"])
            procs[f"projector-{i}"] = start(f"projector-{i}", command, {**env, "ATOUT_LOG_LEVEL": "info"}, data)
            if i == 0 and projector_command is None:     # the others must find the lock taken
                deadline = time.monotonic() + 60
                while PROJECTOR_RUNNING not in procs["projector-0"].log.read_text():
                    assert procs["projector-0"].alive() and time.monotonic() < deadline, \
                        procs["projector-0"].log.read_text()
                    time.sleep(0.1)
        ports = [free_port() for _ in range(replicas)]
        for i, port in enumerate(ports):
            procs[f"serve-{i}"] = atout(f"serve-{i}", ["serve", "--no-projector"],
                                        {**env, "ATOUT_PORT": str(port)}, data, port)
        for i in range(workers):
            procs[f"worker-{i}"] = atout(f"worker-{i}", ["worker", "--pool", "solo", "--queues", "bots,clock"], env, data)
        if beat:
            procs["beat-0"] = atout("beat-0", ["beat"], env, data)
        prefix = data / "nginx"
        prefix.mkdir(exist_ok=True)
        proxy_port = free_port()
        (prefix / "nginx.conf").write_text(nginx_config(proxy_port, ports, prefix))
        procs["nginx-0"] = start("nginx-0", [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf")], env, data,
                                 proxy_port)
        for i, port in enumerate(ports):
            wait_ready(f"http://127.0.0.1:{port}/readyz", procs[f"serve-{i}"])
        base = f"http://127.0.0.1:{proxy_port}"
        wait_ready(f"{base}/readyz", procs["nginx-0"])
        yield Cluster(base, env, data, procs)
    finally:
        for proc in procs.values():
            if proc.alive():
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.popen.pid, signal.SIGTERM)
        for proc in procs.values():
            proc.stop()
