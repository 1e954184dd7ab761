"""The per-process principal cache: a token is looked up once per TTL; a revocation, role
change or erasure made through this process takes effect at once, one made elsewhere within
the TTL."""

from __future__ import annotations

import asyncio

import pytest

from infra.players import PlayerStore
from infra.store import create_pool

pytestmark = [pytest.mark.db]


@pytest.fixture(scope="module")
async def pool(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=2)
    yield pool
    await pool.close()


async def test_local_changes_are_immediate_remote_ones_within_the_ttl(pool) -> None:
    here, elsewhere = PlayerStore(pool, principal_ttl=0.5), PlayerStore(pool, principal_ttl=0.5)
    player_id, token = await here.register("cached")
    assert (await here.principal(token)).player_id == player_id
    assert (await elsewhere.principal(token)).role == "player"

    await here.set_role(player_id, "organiser")
    assert (await here.principal(token)).role == "organiser"          # this process: at once
    assert (await elsewhere.principal(token)).role == "player"        # another: still cached ...
    await asyncio.sleep(0.6)
    assert (await elsewhere.principal(token)).role == "organiser"     # ... until the TTL runs out

    assert await here.revoke(token)
    assert await here.principal(token) is None
    await asyncio.sleep(0.6)
    assert await elsewhere.principal(token) is None


async def test_no_cache_with_a_zero_ttl(pool) -> None:
    here, elsewhere = PlayerStore(pool, principal_ttl=0), PlayerStore(pool, principal_ttl=0)
    player_id, token = await here.register("uncached")
    assert await elsewhere.principal(token) is not None
    await here.erase(player_id)
    assert await elsewhere.principal(token) is None
