"""`atout migrate`: in order, once, recorded, safe to run twice or two at a time."""

from __future__ import annotations

import asyncio
import json
import secrets
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from infra.store.migrate import MIGRATIONS_DIR, MigrationError, load_migrations, migrate

pytestmark = [pytest.mark.db]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def fresh_url(database_url: str):
    """An empty database of its own: these tests watch migrations from nothing."""
    name = f"atout_migrate_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(database_url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(urlsplit(database_url)._replace(path="/" + name))
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def test_migrate_applies_everything_once(fresh_url: str) -> None:
    conn = await asyncpg.connect(fresh_url)
    try:
        names = [f"{m.version:04d}_{m.name}" for m in load_migrations()]
        assert await migrate(conn) == names
        assert await migrate(conn) == []
        rows = await conn.fetch("SELECT version, name FROM schema_migrations ORDER BY version")
        assert [f"{r['version']:04d}_{r['name']}" for r in rows] == names
        assert await conn.fetchval("SELECT to_regclass('events') IS NOT NULL")
    finally:
        await conn.close()


async def test_two_migrators_at_once_apply_each_file_once(fresh_url: str) -> None:
    conns = [await asyncpg.connect(fresh_url) for _ in range(3)]
    try:
        results = await asyncio.gather(*(migrate(c) for c in conns))
        assert sorted(len(r) for r in results) == [0, 0, len(load_migrations())]
    finally:
        for conn in conns:
            await conn.close()


async def test_an_edited_migration_is_refused(fresh_url: str, tmp_path: Path) -> None:
    directory = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, directory)
    conn = await asyncpg.connect(fresh_url)
    try:
        await migrate(conn, directory)
        first = sorted(directory.glob("*.sql"))[0]
        first.write_text(first.read_text() + "\n-- edited\n")
        with pytest.raises(MigrationError):
            await migrate(conn, directory)
    finally:
        await conn.close()


async def test_a_failing_migration_leaves_no_trace(fresh_url: str, tmp_path: Path) -> None:
    directory = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, directory)
    (directory / "9999_broken.sql").write_text("CREATE TABLE half_done (id int); SELECT 1/0;")
    conn = await asyncpg.connect(fresh_url)
    try:
        with pytest.raises(asyncpg.DivisionByZeroError):
            await migrate(conn, directory)
        assert not await conn.fetchval("SELECT to_regclass('half_done') IS NOT NULL")
        assert await conn.fetchval("SELECT count(*) FROM schema_migrations WHERE version = 9999") == 0
        assert await conn.fetchval("SELECT pg_try_advisory_lock(1)")  # the session is usable
    finally:
        await conn.close()


def test_badly_named_files_are_refused(tmp_path: Path) -> None:
    (tmp_path / "1_first.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError):
        load_migrations(tmp_path)


def test_atout_migrate_command_is_idempotent(fresh_url: str) -> None:
    def run() -> dict:
        out = subprocess.run(
            [sys.executable, "-m", "services.cli", "migrate", "--database-url", fresh_url],
            cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
        )
        return json.loads(out.stdout)

    first, second = run(), run()
    assert first["ok"] and len(first["applied"]) == first["known"] >= 2
    assert second == {"ok": True, "applied": [], "known": first["known"]}


async def test_commands_recorded_before_0040_are_still_answered(fresh_url: str, tmp_path: Path) -> None:
    """Migration 0040 moves each command's record onto its first event: a retry of a command
    handled before the upgrade must still get its first answer, and a reuse be refused."""
    from infra.store import CommandConflictError, NewEvent, PostgresEventStore, create_pool

    for path in MIGRATIONS_DIR.glob("*.sql"):
        if int(path.name[:4]) < 40:
            shutil.copy(path, tmp_path / path.name)
    conn = await asyncpg.connect(fresh_url)
    command = "5a1d2c3e-0000-4000-8000-000000000001"
    try:
        await migrate(conn, tmp_path)
        await conn.execute(
            "INSERT INTO events (stream_id, stream_version, event_id, type, data) VALUES "
            "('old', 1, gen_random_uuid(), 'a', '{}'), ('old', 2, gen_random_uuid(), 'b', '{}')"
        )
        await conn.execute(
            "INSERT INTO commands (stream_id, command_id, request_hash, first_version, last_version)"
            " VALUES ('old', $1, '\\x01', 1, 2)", command,
        )
        applied = await migrate(conn)   # 0040, then whatever later migrations there are, in order
        assert applied[0] == "0040_commands_in_events" and applied == sorted(applied)
    finally:
        await conn.close()
    pool = await create_pool(fresh_url, max_size=2)
    try:
        store = PostgresEventStore(pool)
        again = await store.append("old", 0, [NewEvent("a", b"{}")], command_id=uuid.UUID(command),
                                   request_hash=b"\x01")
        assert again.replayed and (again.first_version, again.last_version) == (1, 2)
        with pytest.raises(CommandConflictError):
            await store.append("old", 2, [NewEvent("c", b"{}")], command_id=uuid.UUID(command),
                               request_hash=b"\x02")
    finally:
        await pool.close()
