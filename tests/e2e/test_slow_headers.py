"""A request's head has `ATOUT_HEADER_TIMEOUT` seconds to arrive against a real `atout serve`:
250 connections that send half a request (or nothing, or drip a byte a second) are answered
408 and closed within the timeout plus a margin, while honest clients — a kept-alive
connection between two requests, a WebSocket quiet for longer than the timeout — are served."""

from __future__ import annotations

import asyncio
import json
import time
import uuid

import pytest
from websockets.asyncio.client import connect as ws_connect

from tests.e2e.system_support import serving

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

TIMEOUT = 2.0
MARGIN = 3.0      # the timer is exact; the margin is for a loaded two-core machine


async def _held(host: str, port: int, sent: bytes, drip: bool = False) -> tuple[float, bytes]:
    """Open, send `sent` (a byte a second when `drip`), and read until the server closes:
    (seconds it held the connection, what it said)."""
    # Timed from before the connect: the server's clock starts when it accepts, which a loaded
    # client may learn of late, so a clock started after the connect could read short.
    opened = time.monotonic()
    reader, writer = await asyncio.open_connection(host, port)

    async def dribble() -> None:
        for byte in sent:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(1.0)

    dripping = asyncio.create_task(dribble()) if drip else None
    if not drip:
        writer.write(sent)
        await writer.drain()
    try:
        said = await asyncio.wait_for(reader.read(), TIMEOUT + MARGIN + 5)
    finally:
        if dripping is not None:
            dripping.cancel()
        writer.close()
    return time.monotonic() - opened, said


async def test_half_sent_requests_are_closed_within_the_header_timeout(tmp_path, migrated_database_url, redis_url,
                                                                         redis_prefix) -> None:
    with serving(tmp_path, migrated_database_url, redis_url, f"{redis_prefix}:slow",
                 ATOUT_HEADER_TIMEOUT=str(TIMEOUT)) as base:
        host, port = base.removeprefix("http://").split(":")
        half = b"GET /healthz HTTP/1.1\r\nHost: atout\r\nX-Slow: "
        attackers = [_held(host, int(port), half) for _ in range(240)]
        attackers += [_held(host, int(port), b"") for _ in range(5)]
        attackers += [_held(host, int(port), half + b"a" * 20, drip=True) for _ in range(5)]
        held = asyncio.gather(*attackers)

        await asyncio.sleep(0.5)
        # an honest client meanwhile: two requests on one kept-alive connection, a pause between
        reader, writer = await asyncio.open_connection(host, int(port))
        for _ in range(2):
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: atout\r\n\r\n")
            await writer.drain()
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            assert head.startswith(b"HTTP/1.1 200"), head
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))
            await reader.readexactly(length)
            await asyncio.sleep(TIMEOUT / 2)
        writer.close()
        # a WebSocket whose first message comes after the timeout: its head was whole, it stays
        async with ws_connect(f"ws://{host}:{port}/v1/matches/{uuid.uuid4()}/ws") as ws:
            await asyncio.sleep(TIMEOUT + 1)
            await ws.send(json.dumps({"type": "auth", "token": "nope"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == "unauthorized"

        results = await held
        longest = max(seconds for seconds, _ in results)
        assert longest < TIMEOUT + MARGIN, sorted(seconds for seconds, _ in results)[-5:]
        assert all(seconds >= TIMEOUT - 0.2 for seconds, _ in results), min(seconds for seconds, _ in results)
        answered = [said for _, said in results]
        assert all(said.startswith(b"HTTP/1.1 408") for said in answered), {said[:40] for said in answered}
        body = json.loads(answered[0].split(b"\r\n\r\n", 1)[1])
        assert body["code"] == "request_timeout" and body["details"] == {"header_timeout": TIMEOUT}
