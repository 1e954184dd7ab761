"""Abuse limits that hold against a real `atout serve` process on the session's Postgres and
Redis: forwarded addresses are believed only from trusted proxies; an open stream follows its
caller's token (revoked, erased, demoted); a client that stops reading is dropped and cut.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import re
import secrets
import socket
import time

import httpx
import pytest
import redis
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from infra.projections.publisher import match_channel
from tests.e2e.system_support import serving

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]



def register(base: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.post(f"{base}/v1/players", json={"name": "someone"}, headers=headers or {}, timeout=10)


def player(base: str) -> tuple[str, str]:
    answer = register(base)
    assert answer.status_code == 201, answer.text
    return answer.json()["player_id"], answer.json()["token"]


def open_match(base: str, token: str) -> str:
    created = httpx.post(f"{base}/v1/matches", headers={"Authorization": f"Bearer {token}"}, timeout=10,
                         json={"game": "belote", "options": {"deals": 1},
                               "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
    assert created.status_code == 201, created.text
    return created.json()["match_id"]


def metric(base: str, name: str, labels: str) -> float:
    text = httpx.get(f"{base}/metrics", timeout=10).text
    found = re.search(rf"^{name}{{{labels}}} ([0-9.e+]+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


# --- forwarded addresses ---------------------------------------------------------------------------

def test_a_client_cannot_reset_the_registration_limit_with_x_forwarded_for(
        tmp_path, migrated_database_url, redis_url, redis_prefix) -> None:
    """Registration is limited per client address; a header any client can write must not
    give it a new address per request (uvicorn believed it from 127.0.0.1, every local client)."""
    with serving(tmp_path, migrated_database_url, redis_url, f"{redis_prefix}:xff1",
                 ATOUT_RATE_LIMIT_REQUESTS="3", ATOUT_RATE_LIMIT_WINDOW="3600") as base:
        answers = [register(base, {"X-Forwarded-For": f"203.0.113.{i}"}).status_code for i in range(5)]
    assert answers[:3] == [201, 201, 201] and answers[3:] == [429, 429], answers


def test_a_trusted_proxy_names_the_client(tmp_path, migrated_database_url, redis_url, redis_prefix) -> None:
    """Behind a proxy named in ATOUT_TRUSTED_PROXIES the limit follows the address it forwards."""
    with serving(tmp_path, migrated_database_url, redis_url, f"{redis_prefix}:xff2",
                 ATOUT_RATE_LIMIT_REQUESTS="2", ATOUT_RATE_LIMIT_WINDOW="3600", ATOUT_TRUSTED_PROXIES="127.0.0.0/8, ::1") as base:
        others = [register(base, {"X-Forwarded-For": f"203.0.113.{i}"}).status_code for i in range(4)]
        same = [register(base, {"X-Forwarded-For": "198.51.100.7"}).status_code for _ in range(3)]
    assert others == [201] * 4 and same == [201, 201, 429], (others, same)


def test_one_address_registers_at_most_the_hourly_number_of_players(
        tmp_path, migrated_database_url, redis_url, redis_prefix) -> None:
    """ATOUT_REGISTRATIONS_PER_HOUR per address, under the general limit (300 a minute): the
    fourth registration of three an hour is refused with its own code and Retry-After; with
    rate limiting off (ATOUT_RATE_LIMIT_REQUESTS=0) it is not counted."""
    with serving(tmp_path, migrated_database_url, redis_url, f"{redis_prefix}:reg1",
                 ATOUT_REGISTRATIONS_PER_HOUR="3") as base:
        answers = [register(base) for _ in range(4)]
        other = register(base, {"X-Forwarded-For": "203.0.113.9"})      # not believed: the same address
    assert [a.status_code for a in answers] == [201, 201, 201, 429], [a.text for a in answers]
    refused = answers[3].json()
    assert refused["code"] == "registration_limited" and refused["details"]["limit"] == 3
    assert 1 <= int(answers[3].headers["Retry-After"]) == refused["details"]["retry_after"] <= 3600
    assert other.status_code == 429
    with serving(tmp_path, migrated_database_url, redis_url, f"{redis_prefix}:reg2",
                 ATOUT_REGISTRATIONS_PER_HOUR="3", ATOUT_RATE_LIMIT_REQUESTS="0") as base:
        assert [register(base).status_code for _ in range(5)] == [201] * 5


# --- streams follow their caller ------------------------------------------------------------------

async def ws_messages(url: str, token: str, until: float) -> tuple[list[dict], int | None, float]:
    """Messages of a WebSocket until it closes (or `until` seconds): (messages, close code, seconds)."""
    started, out = time.monotonic(), []
    async with ws_connect(url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        try:
            async with asyncio.timeout(until):
                async for text in ws:
                    out.append(json.loads(text))
        except (ConnectionClosed, TimeoutError):
            pass
        return out, ws.close_code, time.monotonic() - started


async def test_a_revoked_token_or_an_erased_player_loses_its_open_streams(
        tmp_path, migrated_database_url, redis_url, redis_prefix) -> None:
    with serving(tmp_path, migrated_database_url, redis_url, f"{redis_prefix}:revoke") as base:
        ws = base.replace("http", "ws", 1)
        _, revoked = player(base)
        match = open_match(base, revoked)
        erased_id, erased = player(base)
        watching = [asyncio.create_task(ws_messages(f"{ws}/v1/matches/{match}/ws?after=0", token, 20))
                    for token in (revoked, erased)]

        async def ndjson() -> list[dict]:
            out = []
            async with httpx.AsyncClient(base_url=base, timeout=20) as http:
                async with http.stream("GET", f"/v1/matches/{match}/stream?after=0",
                                       headers={"Authorization": f"Bearer {revoked}",
                                                "Accept": "application/x-ndjson"}) as answer:
                    async for line in answer.aiter_lines():
                        if line.strip():
                            out.append(json.loads(line))
            return out

        streaming = asyncio.create_task(ndjson())
        await asyncio.sleep(1.0)                                  # every stream has its snapshot
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            cut = time.monotonic()
            assert (await http.delete("/v1/players/me/token",
                                      headers={"Authorization": f"Bearer {revoked}"})).status_code == 204
            assert (await http.delete(f"/v1/players/{erased_id}",
                                      headers={"Authorization": f"Bearer {erased}"})).status_code == 204
        (revoked_msgs, revoked_code, _), (erased_msgs, erased_code, _) = await asyncio.gather(*watching)
        lines = await asyncio.wait_for(streaming, 10)
        took = time.monotonic() - cut
    for messages, code in ((revoked_msgs, revoked_code), (erased_msgs, erased_code)):
        assert messages[0]["type"] == "snapshot"
        assert messages[-1]["type"] == "error" and messages[-1]["code"] == "unauthorized"
        assert messages[-1]["details"]["reason"] == "token_revoked" and code == 4401
        assert messages[-1]["version"] == messages[-1]["details"]["after"] == messages[0]["version"]
    assert lines[0]["type"] == "snapshot" and lines[-1]["code"] == "unauthorized"
    assert took < 2.0 + 2.5, f"the streams followed the revocation after {took:.1f} s"


async def test_a_demoted_admin_stops_watching_a_sealed_table(
        tmp_path, migrated_database_url, redis_url, redis_prefix) -> None:
    """An admin may watch a tournament table whose round is open; demoted, he may not, and his
    open WebSocket follows within the principal cache's lifetime."""
    with serving(tmp_path, migrated_database_url, redis_url, f"{redis_prefix}:demote") as base:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            root_id, root = player(base)
            owner_id, owner = player(base)
            admin_id, admin = player(base)
            alice_id, alice = player(base)
            import asyncpg

            conn = await asyncpg.connect(migrated_database_url)
            try:
                await conn.execute("UPDATE players SET role = 'admin' WHERE player_id = ANY($1::text[])",
                                   [root_id, admin_id])
                await conn.execute("UPDATE players SET role = 'organiser' WHERE player_id = $1", owner_id)
            finally:
                await conn.close()
            await asyncio.sleep(2.1)                               # the server's principal cache
            h = {"Authorization": f"Bearer {owner}"}
            body = {"name": "Sealed", "game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 1},
                    "no_show_grace": 0}
            tid = (await http.post("/v1/tournaments", json=body, headers=h)).json()["tournament_id"]
            mine = (await http.post(f"/v1/tournaments/{tid}/entries", json={"players": [alice_id]},
                                    headers={"Authorization": f"Bearer {alice}"})).json()["entry_id"]
            bots = [(await http.post(f"/v1/tournaments/{tid}/entries", json={"players": ["bot:random"] * 2},
                                     headers=h)).json()["entry_id"] for _ in range(3)]
            paired = await http.post(f"/v1/tournaments/{tid}/pairings", headers=h,
                                     json={"round": 1, "tables": [[mine, bots[0]], [bots[1], bots[2]]]})
            assert paired.status_code == 200, paired.text
            started = await http.post(f"/v1/tournaments/{tid}/start", headers=h)
            assert started.status_code == 200, started.text
            bots_table = started.json()["rounds"][0]["tables"][1]["match_id"]
            ws = base.replace("http", "ws", 1) + f"/v1/matches/{bots_table}/ws?after=0"
            watching = asyncio.create_task(ws_messages(ws, admin, 20))
            await asyncio.sleep(1.0)
            demoted = await http.put(f"/v1/players/{admin_id}/role", json={"role": "player"},
                                     headers={"Authorization": f"Bearer {root}"})
            assert demoted.status_code == 200, demoted.text
            cut = time.monotonic()
            messages, code, _ = await watching
            took = time.monotonic() - cut
    assert messages[0]["type"] == "snapshot"
    assert messages[-1]["code"] == "board_sealed" and messages[-1]["details"]["reason"] == "not_watchable"
    assert code == 4403 and took < 4.5, (code, took)


# --- a client that stops reading ---------------------------------------------------------------------

def stalled_websocket(base: str, path: str, token: str) -> socket.socket:
    """A WebSocket client that completes the handshake and then never reads again; its receive
    buffer is made small so that what the server sends piles up on the server's side."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, int(port)))
    key = base64.b64encode(secrets.token_bytes(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                  f"Authorization: Bearer {token}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def test_a_client_that_stops_reading_is_dropped_and_cut(tmp_path, migrated_database_url, redis_url,
                                                          redis_prefix) -> None:
    prefix = f"{redis_prefix}:slow"
    with serving(tmp_path, migrated_database_url, redis_url, prefix, ATOUT_WRITE_TIMEOUT="2",
                 ATOUT_SEND_BUFFER="16384") as base:
        _, token = player(base)
        match = open_match(base, token)
        version = httpx.get(f"{base}/v1/matches/{match}", headers={"Authorization": f"Bearer {token}"}).json()["version"]
        before = metric(base, "atout_fanout_drops_total", 'transport="websocket"')
        sock = stalled_websocket(base, f"/v1/matches/{match}/ws", token)
        time.sleep(0.5)                                                 # subscribed
        publisher = redis.Redis.from_url(redis_url)
        padding = "x" * 1000
        for v in range(version + 1, version + 3001):                    # 3 MB for a client reading nothing
            publisher.publish(match_channel(prefix, match, "N"),
                              json.dumps({"type": "event", "version": v, "event": {"type": "note", "pad": padding}}))
        publisher.close()
        deadline = time.monotonic() + 15
        while metric(base, "atout_fanout_drops_total", 'transport="websocket"') == before:
            assert time.monotonic() < deadline, "a client that reads nothing was never dropped"
            time.sleep(0.2)
        # Its connection is cut by the server's kernel once its window stayed shut for the
        # write timeout: reading now finds at most what had reached its own small buffer,
        # not the server's backlog still waiting to be sent.
        time.sleep(2 + 3)
        sock.settimeout(10)
        got, outcome = 0, "open"
        try:
            while chunk := sock.recv(65536):
                got += len(chunk)
            outcome = "closed"
        except TimeoutError:
            outcome = "open"
        except OSError:
            outcome = "reset"
        sock.close()
        assert outcome != "open" and got < 32768, (outcome, got)
        assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
