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
                   worker_args: Sequence[str] = ("--pool", "solo"), **settings: str) -> Iterator[System]:
    """Start both processes, wait for `/readyz`, and stop them (the worker's whole process
    group: its Celery children too) however the test ends. `settings` are more ATOUT_ vars."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env.update(ATOUT_PORT=str(port), ATOUT_DATABASE_URL=database_url, ATOUT_REDIS_URL=redis_url,
               ATOUT_REDIS_PREFIX=redis_prefix, ATOUT_LOG_LEVEL="warning", ATOUT_DATA_DIR=str(data), **settings)
    logs = data / "server.log", data / "worker.log"
    server = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--projector"], env=env, cwd=ROOT,
                              stdout=open(logs[0], "wb"), stderr=subprocess.STDOUT)
    worker = subprocess.Popen([sys.executable, "-m", "services.cli", "worker", *worker_args, "--beat"],
                              env=env, cwd=ROOT, start_new_session=True,
                              stdout=open(logs[1], "wb"), stderr=subprocess.STDOUT)
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
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
        for proc, kill in ((server, server.kill), (worker, lambda: os.killpg(worker.pid, signal.SIGKILL))):
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
               ATOUT_REDIS_PREFIX=redis_prefix, ATOUT_LOG_LEVEL="warning", **settings)
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
