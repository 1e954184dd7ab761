"""One reader's live chat: a snapshot, the messages after `after=`, then live ones.

As a match's live session: `open` subscribes to the match's chat channel first
(`infra.projections.chat_publisher`) and reads the store second, so nothing committed in
between is lost; live messages at or below the last version sent are skipped, a hole in
live versions is filled from the store. Every message, stored or live, goes through the
visibility policy for this reader (`services.chat.service.shown`): what he may not read becomes a
placeholder with its version (`"event": null`), so his sequence stays gap-free.

A reader who held no seat when the match was still waiting may have sat down since (seats
change only then); at the first message sent during play his seat is looked up again, and if
he now holds one his stream ends with `resync` (reason `seated`): he reconnects as the seat,
whose stream never carries the spectators' words during play.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec

from domain import chat
from domain import match as rules
from infra import streams
from infra.fanout import Client, Dropped, Fanout
from infra.projections.chat_publisher import chat_channel, chat_event, event_message
from services.chat.service import ChatService, Reader, shown, view

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(dict).decode
BLOCKS_TTL = 5.0      # seconds a stream trusts the reader's block list before reading it again


class ChatSession:
    """See the module docstring. `seated_now()` says whether the reader holds a seat now;
    `blocked_among(senders)` which of them he blocks now."""

    def __init__(self, fanout: Fanout, service: ChatService, state: rules.MatchState, reader: Reader,
                 after: int | None, seated_now: Callable[[], Awaitable[bool]],
                 blocked_among: Callable[[list[str]], Awaitable[frozenset[str]]]) -> None:
        self.fanout, self.service, self.state, self.reader, self.after = fanout, service, state, reader, after
        self.seated_now, self.blocked_among = seated_now, blocked_among
        self.match_id = state.match_id
        self.client: Client | None = None
        self.last = 0
        self._first: list[bytes] = []
        self._may_sit = not reader.seated and chat.phase_of(state.status) == "waiting"
        self._checked: dict[str, float] = {}    # sender -> when his block was last read

    async def open(self) -> None:
        self.client = await self.fanout.subscribe_channel(chat_channel(self.fanout.prefix, self.match_id))
        try:
            store = self.service.store
            stream = streams.chat_stream(self.match_id)
            head = await store.stream_version(stream)
            backlog = []
            if self.after is not None and self.after < head:
                backlog = await self._stored(self.after, head, chat.phase_of(self.state.status))
            self._first = [_encode({"type": "snapshot", "version": head,
                                    "view": view(self.state, self.reader, head)}), *backlog]
            self.last = head
        except BaseException:
            await self.close()
            raise

    async def _stored(self, after: int, upto: int, phase_now: str | None) -> list[bytes]:
        """The stored messages `after < version <= upto`, as this reader may see them; `phase_now`
        None reads each as it was live (in the phase it was sent in)."""
        recorded = await self.service.store.read_stream(streams.chat_stream(self.match_id), after, upto)
        datas = [_decode(r.data) for r in recorded]
        names = await self.service.runtime.players.names(sorted({d["player_id"] for d in datas}))
        await self._blocks([d["player_id"] for d in datas])
        out = []
        for r, d in zip(recorded, datas):
            if phase_now is None:
                await self._recheck(d)
            out.append(event_message(r.stream_version, chat_event(d, r.recorded_at, names.get(d["player_id"]))
                                     if shown(self.reader, d, phase_now or d["phase"]) else None))
        return out

    async def _blocks(self, senders: list[str]) -> None:
        """Read again whether the reader blocks these senders, for those not read within
        `BLOCKS_TTL` seconds (a block made while the stream is open takes effect within it)."""
        now = time.monotonic()
        stale = sorted({s for s in senders if now - self._checked.get(s, -BLOCKS_TTL) >= BLOCKS_TTL})
        if not stale:
            return
        blocked = await self.blocked_among(stale)
        self._checked.update((s, now) for s in stale)
        self.reader = msgspec.structs.replace(self.reader, blocked=(self.reader.blocked - set(stale)) | blocked)

    async def _recheck(self, event: dict[str, Any]) -> None:
        """Before a live message: has the reader sat down since (Dropped `seated`), and does
        he block its sender."""
        if self._may_sit and event.get("phase") == "playing":
            self._may_sit = False
            if await self.seated_now():
                raise Dropped("seated")
        await self._blocks([event["player_id"]])

    async def _redacted(self, version: int, data: bytes) -> bytes:
        event = _decode(data).get("event")
        if not isinstance(event, dict):
            return data
        await self._recheck(event)
        return data if shown(self.reader, event, event["phase"]) else event_message(version, None)

    async def messages(self, keepalive: float | None = None) -> AsyncIterator[bytes | None]:
        """The messages in order, never ending by themselves (the chat outlives the match);
        None is a keep-alive tick. Raises Dropped when the client fell behind."""
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
                for message in await self._stored(self.last, version - 1, None):
                    yield message
                self.last = version - 1
            message = await self._redacted(version, data)   # may end the stream: `last` is what was sent
            self.last = version
            yield message

    async def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            await self.fanout.unsubscribe(client)

