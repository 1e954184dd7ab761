"""Connections for the store, and finding the database a command-line tool should use."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import asyncpg

from infra.store.pool import Pool


async def init_connection(conn: asyncpg.Connection) -> None:
    """Exchange jsonb as raw JSON bytes, in binary format.

    Payloads are msgspec JSON end to end: the default text codec would make asyncpg
    parse every payload into Python objects (and back), which the store never needs.
    The binary jsonb format is a version byte (1) followed by the JSON text.
    """
    await conn.set_type_codec(
        "jsonb",
        schema="pg_catalog",
        encoder=lambda data: b"\x01" + data,
        decoder=lambda data: data[1:],
        format="binary",
    )


async def create_pool(url: str, *, min_size: int = 1, max_size: int = 10, **kwargs: Any) -> Pool:
    """The store's pool (`infra.store.pool`): jsonb as bytes, generic plans.

    The append statement's custom plans (Postgres's default for the first executions,
    and for good whenever they look cheaper) cost a full planning per append, more than
    executing it; every statement of the store has one good generic plan.
    """
    settings = {"plan_cache_mode": "force_generic_plan", **kwargs.pop("server_settings", {})}
    pool = Pool(url, min_size=min_size, max_size=max_size, init=init_connection,
                server_settings=settings, **kwargs)
    return await pool.start()


async def connect(url: str, **kwargs: Any) -> asyncpg.Connection:
    """One connection, set up like the pool's."""
    conn = await asyncpg.connect(url, **kwargs)
    await init_connection(conn)
    return conn


@contextlib.contextmanager
def database_url_for_cli(explicit: str | None) -> Iterator[str]:
    """The database a CLI command works on: `--database-url`, else the settings.

    With no URL anywhere, the zero-config default applies: start the embedded server under
    the data dir for the duration of the command (it refuses if `atout serve` holds it).
    """
    if explicit:
        yield explicit
        return
    try:
        from infra.settings import load_settings
    except ImportError:  # pragma: no cover - settings are part of the project
        url = os.environ.get("ATOUT_DATABASE_URL") or None
        data_dir = os.environ.get("ATOUT_DATA_DIR", "./.atout")
    else:
        settings = load_settings()
        url, data_dir = settings.database_url, settings.data_dir
    if url:
        yield url
        return
    from infra.embedded import start_embedded

    with start_embedded(data_dir, redis=False) as servers:
        assert servers.database_url is not None
        yield servers.database_url
