"""Graceful shutdown of `atout serve`: a real server process on the session's
Postgres and Redis, in the middle of a match, gets SIGTERM while an action is in flight.

The action is held in flight deterministically: the test holds an EXCLUSIVE lock on the
`events` table (reads go on, the append waits). Then: new connections are refused, the
WebSocket is closed with 1012 (service restart), the NDJSON stream ends with a resync
message whose reason is service_restart, the held action is answered 200 once the lock
goes, the process exits 0, and every action answered 200 is in the store."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import asyncpg
import httpx
import pytest
import websockets

from domain.playout import concrete
from infra.store import PostgresEventStore, create_pool
from tests.api.conftest import Player, register

pytestmark = [pytest.mark.slow, pytest.mark.db, pytest.mark.redis]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATOUT_", "PROMETHEUS_"))}
    env.update(ATOUT_DATA_DIR=str(tmp_path / "data"), ATOUT_RATE_LIMIT_REQUESTS="0", **extra)
    return env


async def _ready(proc: subprocess.Popen, base: str, log: Path, timeout: float = 60.0) -> None:
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=base, timeout=2) as client:
        while time.monotonic() - started < timeout:
            assert proc.poll() is None, f"atout serve exited {proc.returncode}:\n{log.read_text()}"
            try:
                if (await client.get("/readyz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    pytest.fail(f"not ready in {timeout}s:\n{log.read_text()}")


async def _next_action(client: httpx.AsyncClient, match_id: str, players: dict[str, Player],
                       rng: random.Random) -> tuple[Player, dict]:
    table = (await client.get(f"/v1/matches/{match_id}", headers=players["N"].headers)).json()
    assert table["status"] != "finished", "the match must still be running"
    seat = rng.choice(table["to_act"])
    mine = (await client.get(f"/v1/matches/{match_id}", headers=players[seat].headers)).json()
    action = {k: v for k, v in concrete(rng.choice(mine["table"]["legal"]), rng).items() if k != "seat"}
    return players[seat], {"command_id": str(uuid.uuid4()), "expected_version": mine["version"], **action}


async def _read_ndjson(client: httpx.AsyncClient, url: str, player: Player, opened: asyncio.Event) -> list[dict]:
    messages = []
    async with client.stream("GET", url, headers={**player.headers, "Accept": "application/x-ndjson"}) as response:
        assert response.status_code == 200
        async for line in response.aiter_lines():
            if line.strip():
                messages.append(json.loads(line))
                opened.set()
    return messages


async def _waiting_on_lock(conn: asyncpg.Connection, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await conn.fetchval("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                               "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"):
            return
        await asyncio.sleep(0.05)
    pytest.fail("the action never reached the database")


async def test_sigterm_mid_match_loses_no_accepted_action(tmp_path: Path, database_url: str, redis_url: str,
                                                          redis_prefix: str) -> None:
    migrate = subprocess.run([sys.executable, "-m", "services.cli", "migrate", "--database-url", database_url],
                             env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert migrate.returncode == 0, migrate.stderr
    port = _free_port()
    base, log = f"http://127.0.0.1:{port}", tmp_path / "serve.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "serve", "--projector"],
        env=_env(tmp_path, ATOUT_PORT=str(port), ATOUT_DATABASE_URL=database_url, ATOUT_REDIS_URL=redis_url,
                 ATOUT_REDIS_PREFIX=redis_prefix),
        cwd=tmp_path, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    lock = await asyncpg.connect(database_url)
    try:
        await _ready(proc, base, log)
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            players = {seat: await register(client, f"shutdown-{seat}") for seat in "NESW"}
            created = await client.post("/v1/matches", headers=players["N"].headers, json={
                "game": "belote", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
            assert created.status_code == 201, created.text
            match_id = created.json()["match_id"]
            for seat in "ESW":
                taken = await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=players[seat].headers)
                assert taken.status_code == 200, taken.text

            rng, accepted = random.Random(7), []
            for _ in range(6):  # mid-match: the auction is under way
                player, body = await _next_action(client, match_id, players, rng)
                response = await client.post(f"/v1/matches/{match_id}/actions", json=body, headers=player.headers)
                assert response.status_code == 200, response.text
                accepted.append(response.json())

            ws = await websockets.connect(f"ws://127.0.0.1:{port}/v1/matches/{match_id}/ws",
                                          additional_headers=players["N"].headers)
            assert json.loads(await ws.recv())["type"] == "snapshot"
            opened = asyncio.Event()
            stream = asyncio.create_task(_read_ndjson(client, f"/v1/matches/{match_id}/stream", players["E"], opened))
            await asyncio.wait_for(opened.wait(), 10)

            player, body = await _next_action(client, match_id, players, rng)
            await lock.execute("BEGIN; LOCK TABLE events IN EXCLUSIVE MODE")
            in_flight = asyncio.create_task(
                client.post(f"/v1/matches/{match_id}/actions", json=body, headers=player.headers))
            await _waiting_on_lock(lock)

            proc.send_signal(signal.SIGTERM)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012, closed.value
            messages = await asyncio.wait_for(stream, 10)
            assert messages[-1]["type"] == "error" and messages[-1]["code"] == "resync", messages[-1]
            assert messages[-1]["details"]["reason"] == "service_restart"
            async with httpx.AsyncClient(base_url=base) as fresh:
                with pytest.raises(httpx.ConnectError):  # no longer accepting
                    await fresh.get("/healthz")
            await asyncio.sleep(0.5)
            assert proc.poll() is None and not in_flight.done(), "still finishing the action in flight"

            await lock.execute("COMMIT")
            response = await asyncio.wait_for(in_flight, 20)
            assert response.status_code == 200, response.text
            accepted.append(response.json())
        assert proc.wait(30) == 0, log.read_text()
        assert "Traceback" not in log.read_text(), log.read_text()  # the projector beside it stopped cleanly
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        await lock.close()

    pool = await create_pool(database_url, max_size=1)
    try:
        stored = [r.stream_version for r in await PostgresEventStore(pool).read_stream(f"match-{match_id}")]
    finally:
        await pool.close()
    assert stored == list(range(1, len(stored) + 1))
    for answer in accepted:  # (a seat sees some events redacted: compare versions)
        assert answer["events"] and {e["version"] for e in answer["events"]} <= set(stored), answer
    assert stored[-1] == accepted[-1]["version"], "the action answered during shutdown is the last one stored"


def _wait_for_line(log: Path, text: str, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in log.read_text():
            return
        assert proc.poll() is None, f"exited {proc.returncode}:\n{log.read_text()}"
        time.sleep(0.05)
    pytest.fail(f"no {text!r} in {timeout}s:\n{log.read_text()}")


async def test_projector_stand_by_takes_over_after_sigterm(tmp_path: Path, database_url: str, redis_url: str,
                                                           redis_prefix: str) -> None:
    """What k8s/base/projector.yaml relies on: a second `atout projector` waits on the
    advisory lock; SIGTERM stops the active one between batches (exit 0) and the stand-by
    takes over."""
    env = _env(tmp_path, ATOUT_DATABASE_URL=database_url, ATOUT_REDIS_URL=redis_url,
               ATOUT_REDIS_PREFIX=redis_prefix)
    migrate = subprocess.run([sys.executable, "-m", "services.cli", "migrate"], env=env, capture_output=True,
                             text=True, timeout=120)
    assert migrate.returncode == 0, migrate.stderr
    logs = [tmp_path / "active.log", tmp_path / "standby.log"]
    procs: list[subprocess.Popen] = []
    try:
        for log in logs:
            procs.append(subprocess.Popen([sys.executable, "-m", "services.cli", "projector"], env=env,
                                          cwd=tmp_path, stdout=log.open("wb"), stderr=subprocess.STDOUT))
            _wait_for_line(log, "projector waiting for the projector lock", procs[-1])
            if len(procs) == 1:
                _wait_for_line(log, "projector running", procs[0])
        time.sleep(0.5)
        assert "projector running" not in logs[1].read_text(), "the stand-by must wait"
        procs[0].send_signal(signal.SIGTERM)
        assert procs[0].wait(20) == 0, logs[0].read_text()
        _wait_for_line(logs[1], "projector running", procs[1], timeout=20)
        procs[1].send_signal(signal.SIGTERM)
        assert procs[1].wait(20) == 0, logs[1].read_text()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()
