"""`chat_publisher`: each committed chat message onto Redis, once for the seats, once for the rest.

A projection, as the match publisher is, so a message is published committed, in log order
and at least once (clients dedupe by version). Each event of a `chat-<match id>` stream is
published whole on `<prefix>:chat:<match id>`; what one reader may receive of it is not this
module's to say: each API process's chat session asks the visibility policy
(`services.visibility.chat_shown`) and sends a seat a placeholder (`"event": null`, its
version kept) for what it may not read. The sender's name is looked up when published: an
erased player has none. Old messages (`max_age`) are not published: a client that missed
them reads the store.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import redis.asyncio as aioredis

from infra import streams
from infra.projections.base import Change, Projection
from infra.store.postgres import Connection

_encode = msgspec.json.Encoder().encode


def chat_channel(prefix: str, match_id: str) -> str:
    return f"{prefix}:chat:{match_id}"


def chat_event(data: Mapping[str, Any], at: dt.datetime, name: str | None) -> dict[str, Any]:
    """The `event` of a live chat message (the history's row without its version)."""
    return {"type": "chat_message", "message_id": data["message_id"], "channel": data["channel"],
            "player_id": data["player_id"], "name": name, "seat": data.get("seat"), "preset": data.get("preset"),
            "text": data.get("text"), "phase": data["phase"], "match_version": data["match_version"],
            "at": at.isoformat()}


def event_message(version: int, event: dict[str, Any] | None) -> bytes:
    return _encode({"type": "event", "version": version, "event": event})


class ChatPublisher(Projection):
    name = "chat_publisher"
    version = 1
    tables = ()
    event_types = frozenset({"chat_message"})

    def __init__(self, *, redis_url: str | None, prefix: str, max_age: float = 60.0) -> None:
        self.redis_url, self.prefix = redis_url, prefix
        self.max_age = dt.timedelta(seconds=max_age)
        self._client: aioredis.Redis | None = None
        self.published = 0

    def create(self, names: Mapping[str, str]) -> list[str]:
        return []

    async def apply(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> None:
        oldest = dt.datetime.now(dt.UTC) - self.max_age
        fresh = [(r, d) for r, d in changes if r.stream_id.startswith(streams.CHAT) and r.recorded_at >= oldest]
        if not fresh or not self.redis_url:
            return
        ids = sorted({d["player_id"] for _, d in fresh})
        known = {r[0]: r[1] for r in await conn.fetch(
            "SELECT player_id, display_name FROM player_names WHERE player_id = ANY($1::text[])", ids)}
        if self._client is None:
            self._client = aioredis.from_url(self.redis_url)
        async with self._client.pipeline(transaction=False) as pipe:
            for recorded, data in fresh:
                match_id = recorded.stream_id[len(streams.CHAT):]
                event = chat_event(data, recorded.recorded_at, known.get(data["player_id"]))
                pipe.publish(chat_channel(self.prefix, match_id), event_message(recorded.stream_version, event))
            await pipe.execute()
        self.published += len(fresh)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
