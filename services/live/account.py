"""One player's account stream: a snapshot of what concerns him, then his notices, live.

The notices are numbered per player by the `account_events` projection
(`infra.projections.account_events`), which publishes each one on Redis
(`<prefix>:account:<player id>`). `AccountSession.open` subscribes to that channel first and
reads the snapshot (and the notices after `after=`) second, in one repeatable-read
transaction with the player's last number, so the snapshot and the backlog are those of one
moment and nothing committed in between is lost: live messages at or below the last number
sent are skipped, a hole in live numbers is filled from the table. A client too slow for its
bounded queue, or whose `after=` is past keeping, is told to resync (`Dropped`, `Expired`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import msgspec

from infra.fanout import Client, Dropped, Fanout
from infra.projections.account_events import (
    LIVE,
    AccountProducer,
    Expired,
    account_channel,
    head,
    since,
)

_encode = msgspec.json.Encoder().encode

__all__ = ["AccountSession", "Dropped", "Expired", "snapshot_message"]


def snapshot_message(version: int, parts: dict[str, Any]) -> bytes:
    return _encode({"type": "snapshot", "version": version, "matches": [], "tournaments": [], **parts})


class AccountSession:
    """See the module docstring. `producers` give the snapshot its parts (their tables)."""

    def __init__(self, fanout: Fanout, pool: Any, producers: Sequence[AccountProducer], player_id: str,
                 after: int | None) -> None:
        self.fanout, self.pool, self.producers = fanout, pool, producers
        self.player_id, self.after = player_id, after
        self.client: Client | None = None
        self.last = 0
        self._first: list[bytes] = []

    @property
    def names(self) -> dict[str, str]:
        return {**LIVE, **{t: t for p in self.producers for t in p.tables}}

    async def open(self) -> None:
        """Raises Expired when `after` can no longer be resumed from."""
        self.client = await self.fanout.subscribe_channel(account_channel(self.fanout.prefix, self.player_id))
        try:
            async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
                last = await head(conn, self.player_id)
                backlog = [] if self.after is None else await since(conn, self.player_id, self.after, last)
                parts: dict[str, Any] = {}
                for producer in self.producers:
                    parts.update(await self._part(producer, conn))
            self._first = [snapshot_message(last, parts), *backlog]
            self.last = last
        except BaseException:
            await self.close()
            raise

    async def _part(self, producer: AccountProducer, conn: Any) -> dict[str, Any]:
        import asyncpg

        try:
            async with conn.transaction():   # a savepoint: a producer's table not created yet is no part
                return await producer.snapshot(conn, self.player_id, self.names)
        except asyncpg.UndefinedTableError:
            return {}

    async def messages(self, keepalive: float | None = None) -> AsyncIterator[bytes | None]:
        """The messages in order; None is a keep-alive tick. Raises Dropped when the client
        fell behind (or a hole could not be filled)."""
        assert self.client is not None, "open() first"
        first, self._first = self._first, []
        for message in first:
            yield message
        client = self.client
        while True:
            got = await client.get_or_tick(keepalive)
            if got is None:
                yield None
                continue
            version, data = got
            if version <= self.last:
                continue
            if version > self.last + 1:
                try:
                    async with self.pool.acquire() as conn:
                        missing = await since(conn, self.player_id, self.last, version - 1)
                except Expired:
                    raise Dropped("hole") from None
                for message in missing:
                    yield message
            self.last = version
            yield data

    async def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            await self.fanout.unsubscribe(client)
