"""Connections for the store, and finding the database a command-line tool should use."""

from __future__ import annotations

import contextlib
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


class NoDataFolder(RuntimeError):
    """A command on the embedded default was run where no data folder is."""


@contextlib.contextmanager
def database_url_for_cli(explicit: str | None, *, create: bool = False) -> Iterator[str]:
    """The database a CLI command works on: `--database-url`, else the settings' URL, else
    the embedded default's — the servers a running `atout serve` (or `make run`) announced in
    its data folder, or, when none runs, the folder's own database started for the duration of
    the command. Where there is no data folder at all a command that reads would make an empty
    database and fail on it: NoDataFolder says so instead, unless the command is one that
    `create`s what it needs (`atout migrate`, `atout projector`)."""
    if explicit:
        yield explicit
        return
    from infra.embedded import has_data, running_servers, start_embedded
    from infra.settings import load_settings

    settings = load_settings()
    if settings.database_url:
        yield settings.database_url
        return
    running = running_servers(settings.data_path)
    if running is not None and running.get("database_url"):
        yield running["database_url"]
        return
    if not create and not has_data(settings.data_path):
        raise NoDataFolder(f"no Atout data folder at {settings.data_path}: run this where `make run` (atout serve) "
                           "keeps its data, or set ATOUT_DATA_DIR, ATOUT_DATABASE_URL or --database-url")
    with start_embedded(settings.data_path, redis=False) as servers:
        assert servers.database_url is not None
        yield servers.database_url
