"""Fixtures of the API tests: the real app (services.http.app.create_app) on the session's
real Postgres and Redis, driven in-process through Litestar's AsyncTestClient, and
registered players with their bearer headers."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from infra.settings import Settings
from infra.store import create_pool
from services.http.app import create_app
from infra.ratelimit import RateLimit


class Player(msgspec.Struct):
    player_id: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@pytest.fixture(scope="session")
def api_settings(migrated_database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory) -> Settings:
    """Settings on the session's migrated database: a test that makes its own app with them
    must not depend on another test having migrated first. The data folder (where the
    record-signing key is made, with no ATOUT_RECORD_KEY) is the session's own."""
    return Settings(database_url=migrated_database_url, redis_url=redis_url, redis_prefix=redis_prefix,
                    data_dir=str(tmp_path_factory.mktemp("data")))


@pytest.fixture(scope="module")
async def client(api_settings: Settings) -> AsyncIterator[AsyncTestClient]:
    app = create_app(api_settings, apply_migrations=True, rate_limit=RateLimit(requests=0))
    async with AsyncTestClient(app=app) as test_client:
        yield test_client


@pytest.fixture(scope="module")
async def pool(client, database_url: str):
    """A small pool of the test's own on the session's database (beside the app's), for
    reading read models and the store directly; opened after the module's app."""
    pool = await create_pool(database_url, max_size=3)
    yield pool
    await pool.close()


async def register(client: AsyncTestClient, name: str | None = None) -> Player:
    response = await client.post("/v1/players", json={"name": name or f"p-{uuid.uuid4().hex[:6]}"})
    assert response.status_code == 201, response.text
    return msgspec.convert(response.json(), Player)


async def seated_match(client: AsyncTestClient, game: str, options: dict[str, Any]) -> tuple[str, dict[str, Player]]:
    """A started match with a fresh player in each seat: N creates, E, S, W join."""
    players = {seat: await register(client, f"{game}-{seat}") for seat in "NESW"}
    created = await client.post("/v1/matches", headers=players["N"].headers,
                                json={"game": game, "options": options, "entropy": "north",
                                      "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    for seat in "ESW":
        taken = await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=players[seat].headers,
                                  json={"entropy": f"{seat} entropy"})
        assert taken.status_code == 200, taken.text
    return match_id, players


async def view(client: AsyncTestClient, match_id: str, player: Player) -> dict[str, Any]:
    response = await client.get(f"/v1/matches/{match_id}", headers=player.headers)
    assert response.status_code == 200, response.text
    return response.json()


async def act(client: AsyncTestClient, match_id: str, player: Player, expected_version: int,
              command_id: str | None = None, **action: Any):
    body = {"command_id": command_id or str(uuid.uuid4()), "expected_version": expected_version, **action}
    return await client.post(f"/v1/matches/{match_id}/actions", json=body, headers=player.headers)


async def finish(client: AsyncTestClient, match_id: str, players: dict[str, Player], seed: int = 1,
                 limit: int = 2000) -> dict[str, Any]:
    """Play random legal actions until the match is over, asking only the seats to act."""
    import random

    from domain.playout import concrete

    rng = random.Random(seed)
    for _ in range(limit):
        table = await view(client, match_id, players["N"])
        if table["status"] == "finished":
            return table
        seat = rng.choice(table["to_act"])
        mine = table if seat == "N" else await view(client, match_id, players[seat])
        action = {k: v for k, v in concrete(rng.choice(mine["table"]["legal"]), rng).items() if k != "seat"}
        response = await act(client, match_id, players[seat], mine["version"], **action)
        assert response.status_code == 200, response.text
    raise AssertionError("the match did not finish")


async def alice_against_bots(client: AsyncTestClient, owner: Player, alice: Player,
                             body: dict[str, Any]) -> tuple[str, list[str]]:
    """`owner`'s tournament `body`, started: Alice's entry against bots at table 1, bots
    against bots at table 2. The tournament's id and the two tables' match ids."""
    tid = (await client.post("/v1/tournaments", json=body, headers=owner.headers)).json()["tournament_id"]
    mine = await client.post(f"/v1/tournaments/{tid}/entries", json={"players": [alice.player_id]},
                             headers=alice.headers)
    assert mine.status_code == 201, mine.text
    bots = [(await client.post(f"/v1/tournaments/{tid}/entries", json={"players": ["bot:random", "bot:random"]},
                               headers=owner.headers)).json()["entry_id"] for _ in range(3)]
    pairing = {"round": 1, "tables": [[mine.json()["entry_id"], bots[0]], [bots[1], bots[2]]]}
    assert (await client.post(f"/v1/tournaments/{tid}/pairings", json=pairing, headers=owner.headers)).status_code == 200
    started = (await client.post(f"/v1/tournaments/{tid}/start", headers=owner.headers)).json()
    return tid, [t["match_id"] for t in started["rounds"][0]["tables"]]
