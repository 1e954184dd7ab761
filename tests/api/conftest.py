"""Fixtures of the API tests: the real app (services.api.app.create_app) on the session's
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
from services.api.app import create_app
from services.api.ratelimit import RateLimit


class Player(msgspec.Struct):
    player_id: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@pytest.fixture(scope="session")
def api_settings(database_url: str, redis_url: str, redis_prefix: str) -> Settings:
    return Settings(database_url=database_url, redis_url=redis_url, redis_prefix=redis_prefix)


@pytest.fixture(scope="module")
async def client(api_settings: Settings) -> AsyncIterator[AsyncTestClient]:
    app = create_app(api_settings, apply_migrations=True, rate_limit=RateLimit(requests=0))
    async with AsyncTestClient(app=app) as test_client:
        yield test_client


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
