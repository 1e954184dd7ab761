"""A bare RESP2 pub/sub client: the fan-out's one Redis connection per API process.

redis-py's PubSub spends ~60 µs of Python per message; with every seat of every table on a
socket that is the fan-out's largest cost, so `Subscriber` reads whole socket chunks and
`read_frame` parses every complete frame in them at once (~10 µs per message).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


class Subscriber:
    """A bare RESP2 pub/sub connection: SUBSCRIBE/UNSUBSCRIBE out, push frames in.

    redis-py's PubSub spends ~60 µs of Python per message; with every seat of every table
    on a socket that is the fan-out's largest cost, so this reads whole socket chunks and
    parses every complete frame in them at once (~10 µs per message)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self._buffer = bytearray()

    async def connect(self) -> None:
        from redis.asyncio.connection import SSLConnection, parse_url

        options = parse_url(self.url)
        if "path" in options:
            self.reader, self.writer = await asyncio.open_unix_connection(options["path"])
        else:
            tls = options.get("connection_class") is SSLConnection
            self.reader, self.writer = await asyncio.open_connection(options["host"], options.get("port", 6379),
                                                                     ssl=True if tls else None)
        if options.get("password"):
            self.send("AUTH", *([options["username"]] if options.get("username") else []), options["password"])
            reply = await self.reader.readline()
            if not reply.startswith(b"+"):
                raise ConnectionError(f"Redis refused AUTH: {reply.decode(errors='replace').strip()}")

    def send(self, *words: str) -> None:
        assert self.writer is not None
        parts = [b"*%d\r\n" % len(words)]
        for word in words:
            data = word.encode()
            parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
        self.writer.write(b"".join(parts))

    async def frames(self) -> list[list[bytes | int]]:
        """The next complete frames; raises ConnectionError when the connection is gone."""
        assert self.reader is not None
        while True:
            chunk = await self.reader.read(1 << 16)
            if not chunk:
                raise ConnectionError("Redis closed the pub/sub connection")
            self._buffer += chunk
            frames, used = [], 0
            while (parsed := read_frame(self._buffer, used)) is not None:
                frame, used = parsed
                frames.append(frame)
            del self._buffer[:used]
            if frames:
                return frames

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
            self.writer = self.reader = None

def read_frame(buf: bytearray, pos: int) -> tuple[Any, int] | None:
    """One RESP2 value at `pos` and the position after it, or None while incomplete."""
    end = buf.find(b"\r\n", pos)
    if end < 0:
        return None
    kind, head = buf[pos], bytes(buf[pos + 1:end])
    if kind == 0x2A:  # '*' array
        items, at = [], end + 2
        for _ in range(int(head)):
            parsed = read_frame(buf, at)
            if parsed is None:
                return None
            item, at = parsed
            items.append(item)
        return items, at
    if kind == 0x24:  # '$' bulk string
        start = end + 2
        stop = start + int(head)
        return (bytes(buf[start:stop]), stop + 2) if len(buf) >= stop + 2 else None
    if kind == 0x3A:  # ':' integer
        return int(head), end + 2
    if kind == 0x2D:  # '-' error
        raise ConnectionError(f"Redis error: {head.decode(errors='replace')}")
    return head, end + 2  # '+' simple string
