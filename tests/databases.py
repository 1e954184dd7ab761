"""A throw-away database on the session's Postgres server, for the tests whose processes must
not see (or act on) what the rest of the suite leaves in the session's database."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import threading
from collections.abc import AsyncIterator, Iterator
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


@contextlib.contextmanager
def held_horizon(server_url: str) -> Iterator[None]:
    """With `ATOUT_TEST_HOLD_HORIZON=SECONDS`, transactions of that length, each holding a
    transaction id, one after another on `server_url`'s server while the block runs.

    Every reader of the log waits behind such a transaction (see `infra/store/sql.py`), as it
    would behind a slow statement anywhere on a shared server: a test that reads a read model
    once after a write, instead of until it has caught up, fails under it at once rather than
    once in a hundred runs. Off unless the variable is set."""
    seconds = float(os.environ.get("ATOUT_TEST_HOLD_HORIZON") or 0)
    if seconds <= 0:
        yield
        return
    stop = threading.Event()

    async def hold() -> None:
        conn = await asyncpg.connect(server_url)
        try:
            while not stop.is_set():
                async with conn.transaction():
                    await conn.execute("SELECT pg_current_xact_id()")
                    await asyncio.sleep(seconds)
        finally:
            await conn.close()

    holder = threading.Thread(target=asyncio.run, args=(hold(),), name="held-horizon", daemon=True)
    holder.start()
    try:
        yield
    finally:
        stop.set()
        holder.join(seconds + 10)
