"""The account stream's `after=` past keeping: with `ATOUT_ACCOUNT_RETENTION=2`, a resume from
a notice older than that gets `resync` (`details.reason: "expired"`), a recent one still resumes.
Its own module: one system (one projector) on the shared database at a time.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
from system_support import running_system
from test_account_stream import auth, follow, register

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture(scope="module")
def short_memory(migrated_database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory):
    with running_system(tmp_path_factory.mktemp("account-short"), migrated_database_url, redis_url,
                        f"{redis_prefix}acs", worker_args=("--pool", "solo", "--queues", "bots,clock"), ATOUT_ACCOUNT_RETENTION="2") as running:
        yield running


async def test_an_after_older_than_kept_gets_resync_and_a_recent_one_resumes(short_memory) -> None:
    base = short_memory.base
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        ann, bob = await register(http, "short ann"), await register(http, "short bob")
        stream = await follow(base, ann["token"])

        async def table() -> None:
            created = await http.post("/v1/matches", headers=auth(ann), json={
                "game": "belote", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open",
                                                                     "W": "open"}})
            taken = await http.post(f"/v1/matches/{created.json()['match_id']}/seats/E", headers=auth(bob), json={})
            assert taken.status_code == 200, taken.text

        await table()
        await stream.until(lambda f: len(f.of("seat_taken")) == 1)
        kept = await follow(base, ann["token"], after=0)              # still kept: resumes
        await kept.until(lambda f: len(f.events) == 1)
        assert kept.events == stream.events
        await asyncio.sleep(2.5)
        deadline = time.monotonic() + 20
        while True:
            await table()            # a later batch of the projection deletes what is past keeping
            await stream.until(lambda f: len(f.of("seat_taken")) >= 2)
            resumed = await follow_once(base, ann["token"], after=0)
            if resumed[0]["type"] == "error":
                break
            assert time.monotonic() < deadline, resumed
            await asyncio.sleep(0.5)
        assert resumed[0]["code"] == "resync" and resumed[0]["details"] == {"reason": "expired", "after": 0}
        assert resumed[0]["version"] == 0 and len(resumed) == 1
        head = stream.events[-1]["version"]
        recent = await follow(base, ann["token"], after=head - 1)       # the last one is still kept
        await recent.until(lambda f: len(f.events) == 1)
        assert recent.events == [stream.events[-1]]
        for follower in (stream, kept, recent):
            await follower.stop()


async def follow_once(base: str, token: str, after: int) -> list[dict[str, Any]]:
    """The first messages of an NDJSON account stream (all of them when it ends by itself)."""
    out: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=base, timeout=10) as client, \
            client.stream("GET", f"/v1/stream/me?after={after}",
                          headers={"Authorization": f"Bearer {token}"}) as response:
        assert response.status_code == 200
        async for line in response.aiter_lines():
            if line:
                out.append(json.loads(line))
                if out[0]["type"] == "snapshot":
                    break
    return out
