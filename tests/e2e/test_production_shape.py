"""The system in the shape docker-compose and k8s run it: `atout migrate`, then `atout serve` and
`atout worker` as separate processes on external Postgres and Redis, built only from what the
composition root declares (nothing imported by a test to fill a list).

A human plays against three bots: each card he plays gets the next bot's answer within a
second, with no projector at all, and with a projector whose batches wait seconds
(`ATOUT_PROJECTOR_DELAY`): the bots are scheduled by the process that commits, never by a
read model.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from system_support import ROOT, free_port

from tests.databases import own_database

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

ANSWER_WITHIN = 1.0      # seconds from a human's card to the bot's answer
PROJECTOR_DELAY = "5"    # seconds between the slow projector's batches: far more than ANSWER_WITHIN


@pytest.fixture(scope="module")
async def fresh_database(database_url: str) -> Iterator[str]:
    """An empty database of its own, for `atout migrate` to create everything in."""
    async with own_database(database_url, "atout_shape", migrated=False) as url:
        yield url


def _env(database_url: str, redis_url: str, prefix: str, data: Path, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env.update(ATOUT_DATABASE_URL=database_url, ATOUT_REDIS_URL=redis_url, ATOUT_REDIS_PREFIX=prefix,
               ATOUT_LOG_LEVEL="warning", ATOUT_DATA_DIR=str(data), **more)
    return env


@contextlib.contextmanager
def processes(env: dict[str, str], data: Path, *commands: list[str]) -> Iterator[list[Path]]:
    """Start each `atout` command in its own process group (with its log); stop them all."""
    procs, logs = [], []
    try:
        for i, command in enumerate(commands):
            log = data / f"{command[0]}-{i}.log"
            logs.append(log)
            procs.append(subprocess.Popen([sys.executable, "-m", "services.cli", *command], cwd=ROOT, env=env,
                                          start_new_session=True, stdout=open(log, "wb"), stderr=subprocess.STDOUT))
        yield logs
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)


def _wait_ready(base: str, logs: list[Path]) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "\n".join(log.read_text()[-2000:] for log in logs)
        time.sleep(0.1)


def _answer_times(base: str, logs: list[Path], cards: int = 3) -> list[float]:
    """A human (N) against three bots: seconds from each of his first `cards` cards (when a bot
    is next to act) to the version moving on, i.e. the bot's answer. A bot that answered
    before the first read after the card counts with the time of that read (an upper bound):
    leaving the fast answers out would keep only the slow ones, and a deal whose answers
    were all fast would have none."""
    with httpx.Client(base_url=base, timeout=10) as http:
        token = http.post("/v1/players", json={"name": "human"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        created = http.post("/v1/matches", headers=auth, json={
            "game": "belote", "options": {"deals": 1},
            "seats": {"N": "me", "E": "bot:random", "S": "bot:random", "W": "bot:random"}})
        assert created.status_code == 201, created.text
        match = created.json()["match_id"]
        times: list[float] = []
        deadline = time.monotonic() + 60
        while len(times) < cards:
            assert time.monotonic() < deadline, (times, "\n".join(log.read_text()[-2000:] for log in logs))
            view = http.get(f"/v1/matches/{match}", headers=auth).json()
            assert view["status"] == "playing", view
            legal = view["table"].get("legal") or []
            if "N" not in view["to_act"] or not legal:
                time.sleep(0.02)                   # the bots' turns (scheduled at once, by the API's commit)
                continue
            action = legal[0]
            acted = http.post(f"/v1/matches/{match}/actions", headers=auth, json={
                "command_id": str(uuid.uuid4()), "expected_version": view["version"], **action})
            assert acted.status_code == 200, acted.text
            done, version = time.monotonic(), acted.json()["version"]
            if action.get("action") != "play":
                continue
            after = http.get(f"/v1/matches/{match}", headers=auth).json()
            if after["version"] > version:         # a bot answered already: within this read
                times.append(time.monotonic() - done)
                continue
            if "N" in after["to_act"] or after["status"] != "playing":
                continue                           # N's card took the trick or ended the deal: no bot to answer
            while (now := http.get(f"/v1/matches/{match}", headers=auth).json())["version"] == version:
                assert time.monotonic() - done < 10, ("no bot answered", "\n".join(
                    log.read_text()[-2000:] for log in logs))
                time.sleep(0.01)
            assert now["version"] > version
            times.append(time.monotonic() - done)
        return times


def test_migrate_serve_and_worker_apart_with_no_projector_bots_answer_at_once(fresh_database, redis_url,
                                                                                redis_prefix, tmp_path) -> None:
    env = _env(fresh_database, redis_url, f"{redis_prefix}shape1", tmp_path, ATOUT_PORT=str(free_port()))
    migrate = subprocess.run([sys.executable, "-m", "services.cli", "migrate"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
    assert migrate.returncode == 0, migrate.stderr
    with processes(env, tmp_path, ["serve"], ["worker", "--pool", "solo"]) as logs:
        base = f"http://127.0.0.1:{env['ATOUT_PORT']}"
        _wait_ready(base, logs)
        times = _answer_times(base, logs)
    assert len(times) == 3 and max(times) < ANSWER_WITHIN, times


def test_with_a_projector_whose_batches_wait_seconds_bots_still_answer_at_once(fresh_database, redis_url,
                                                                                redis_prefix, tmp_path) -> None:
    env = _env(fresh_database, redis_url, f"{redis_prefix}shape2", tmp_path, ATOUT_PORT=str(free_port()),
               ATOUT_PROJECTOR_DELAY=PROJECTOR_DELAY)
    migrate = subprocess.run([sys.executable, "-m", "services.cli", "migrate"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
    assert migrate.returncode == 0, migrate.stderr
    with processes(env, tmp_path, ["serve"], ["projector"], ["worker", "--pool", "solo"]) as logs:
        base = f"http://127.0.0.1:{env['ATOUT_PORT']}"
        _wait_ready(base, logs)
        times = _answer_times(base, logs)
    assert len(times) == 3 and max(times) < ANSWER_WITHIN, times
