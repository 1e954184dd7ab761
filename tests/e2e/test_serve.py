"""`atout serve` as a user runs it: a real process, real servers, a real signal."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import msgspec
import psutil
import pytest

from infra.settings import Settings
from services.http.app import create_app

pytestmark = [pytest.mark.slow, pytest.mark.db, pytest.mark.redis]

SERVER_NAMES = ("postgres", "redis-server")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(tmp_path: Path, **extra: str) -> tuple[subprocess.Popen, int, Path]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env.update(ATOUT_PORT=str(port), ATOUT_DATA_DIR=str(tmp_path / "data"), **extra)
    proc = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "serve"],
        env=env, cwd=tmp_path, stdout=open(tmp_path / "serve.log", "wb"), stderr=subprocess.STDOUT,
    )
    return proc, port, tmp_path / "serve.log"


def _wait_ready(proc: subprocess.Popen, port: int, log: Path, timeout: float = 60.0) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        assert proc.poll() is None, f"atout serve exited with {proc.returncode}:\n{log.read_text()}"
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                return time.monotonic() - started
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    pytest.fail(f"/readyz did not answer 200 within {timeout}s:\n{log.read_text()}")


def _servers_under(pid: int) -> list[psutil.Process]:
    """Postgres/redis processes in the process tree of `pid` (never unrelated servers)."""
    return [p for p in psutil.Process(pid).children(recursive=True) if p.name() in SERVER_NAMES]


def _alive(proc: psutil.Process) -> bool:
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _stop(proc: subprocess.Popen, log: Path) -> int:
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"atout serve ignored SIGTERM for 30s:\n{log.read_text()}")


@pytest.fixture
def own_dir():
    """A directory outside pytest's `/tmp/pytest-of-<user>`: run as root, the embedded Postgres
    runs as an unprivileged user who must traverse the data dir's parents, and another pytest
    session starting meanwhile resets that tree to 0700 (seen with two suites at once)."""
    import shutil
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="atout-serve-test-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def test_serve_embedded_default_is_ready_and_leaves_nothing_behind(own_dir: Path) -> None:
    tmp_path = own_dir
    proc, port, log = _start(tmp_path)
    try:
        elapsed = _wait_ready(proc, port, log)
        assert httpx.get(f"http://127.0.0.1:{port}/healthz").json() == {"status": "ok"}
        servers = _servers_under(proc.pid)
        assert {p.name() for p in servers} == set(SERVER_NAMES), servers
        descendants = psutil.Process(proc.pid).children(recursive=True)  # servers, the worker and its children
        assert (tmp_path / "data" / "pg" / "PG_VERSION").exists()
        assert (tmp_path / "data" / "redis").is_dir()
    finally:
        code = _stop(proc, log)
    assert code == 0, log.read_text()
    gone, alive = psutil.wait_procs(descendants, timeout=10)
    assert not [p for p in alive if _alive(p)], f"left behind: {alive}"
    print(f"embedded /readyz 200 after {elapsed:.1f}s")


async def test_serve_with_urls_starts_nothing(tmp_path: Path, database_url: str, redis_url: str) -> None:
    proc, port, log = _start(tmp_path, ATOUT_DATABASE_URL=database_url, ATOUT_REDIS_URL=redis_url)
    try:
        _wait_ready(proc, port, log, timeout=30)
        assert _servers_under(proc.pid) == []
        assert not (tmp_path / "data").exists()
    finally:
        code = _stop(proc, log)
    assert code == 0, log.read_text()


async def test_readyz_reports_unreachable_servers_with_the_error_shape() -> None:
    from litestar.testing import AsyncTestClient

    closed = _free_port()
    settings = msgspec.structs.replace(
        Settings(), database_url=f"postgresql://postgres@127.0.0.1:{closed}/x", redis_url=f"redis://127.0.0.1:{closed}/0"
    )
    async with AsyncTestClient(app=create_app(settings)) as client:
        response = await client.get("/readyz")
        assert (await client.get("/healthz")).status_code == 200
    assert response.status_code == 503
    body = response.json()
    assert set(body) == {"code", "message", "details"}
    assert body["code"] == "not_ready"
    assert set(body["details"]) == {"postgres", "redis"}
