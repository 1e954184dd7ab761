"""A throw-away database on the session's Postgres server, for the tests whose processes must
not see (or act on) what the rest of the suite leaves in the session's database."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg


@contextlib.asynccontextmanager
async def own_database(server_url: str, prefix: str, *, migrated: bool = True) -> AsyncIterator[str]:
    """The URL of a new database `<prefix>_<random>` on `server_url`'s server (migrated unless
    `migrated` is False), dropped on exit."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    url = urlunsplit(urlsplit(server_url)._replace(path="/" + name))
    try:
        if migrated:
            from infra.store import migrate

            conn = await asyncpg.connect(url)
            try:
                await migrate(conn)
            finally:
                await conn.close()
        yield url
    finally:
        admin = await asyncpg.connect(server_url)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()
