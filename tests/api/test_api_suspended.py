"""Suspended matches over HTTP: the view says so with `details.reason`, nobody can act, and
an admin lists them and resumes, voids or abandons them through the documented routes."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from infra.projections import ProjectionRunner
from infra.store import PostgresEventStore, create_pool
from infra.vault import Vault
from services.matches import suspensions
from services.bootstrap import projections
from services.matches.service import MatchService
from tests.api.conftest import act, register, seated_match, view

pytestmark = [pytest.mark.db, pytest.mark.redis]


@pytest.fixture(scope="module")
async def svc(client, database_url: str):
    """The game service on the test's own pool (the app's lives on the client's loop)."""
    pool = await create_pool(database_url, max_size=2)
    yield MatchService(PostgresEventStore(pool), Vault(pool))
    await pool.close()


async def admin_of(client, svc) -> object:
    player = await register(client, "admin")
    await svc.store.pool.execute("UPDATE players SET role = 'admin' WHERE player_id = $1", player.player_id)
    return player


async def suspended_match(client, svc) -> tuple[str, dict]:
    match_id, players = await seated_match(client, "cinch", {"deals": 1})
    state = await svc.load(match_id)
    try:
        raise ValueError("the next deal cannot be made")
    except ValueError as error:
        assert await suspensions.suspend(svc, match_id, state.version, "bots.play_turn", error)
    return match_id, players


async def listed(client, svc, admin) -> list[str]:
    runner = ProjectionRunner(svc.store)
    for projection in projections():
        await runner.ensure(projection)
        await runner.catch_up(projection)
    answer = await client.get("/v1/admin/matches/suspended", headers=admin.headers)
    assert answer.status_code == 200, answer.text
    return [row["match_id"] for row in answer.json()]


async def test_a_suspended_match_is_visible_refuses_actions_and_an_admin_resumes_it(client, svc) -> None:
    match_id, players = await suspended_match(client, svc)
    north = await view(client, match_id, players["N"])
    assert north["status"] == "suspended" and north["details"]["reason"] == "task_failed"
    assert "ValueError" in north["details"]["message"]
    assert north["to_act"] == []                                    # nobody is expected to act
    state = await svc.load(match_id)
    seat = [str(state.game.status(state.game_state).to_act[0])]
    table = await view(client, match_id, players[seat[0]])
    refused = await act(client, match_id, players[seat[0]], table["version"], **table["table"]["legal"][0])
    assert (refused.status_code, refused.json()["code"]) == (422, "match_suspended"), refused.text
    assert refused.json()["details"]["reason"] == "task_failed"

    admin = await admin_of(client, svc)
    for _ in range(50):                     # the summaries follow the log below the xmin horizon
        if match_id in await listed(client, svc, admin):
            break
        await asyncio.sleep(0.1)
    assert match_id in await listed(client, svc, admin)
    body = {"reason": "the cause was fixed", "command_id": str(uuid.uuid4())}
    assert (await client.post(f"/v1/admin/matches/{match_id}/resume", json=body,
                              headers=players["N"].headers)).status_code == 403
    resumed = await client.post(f"/v1/admin/matches/{match_id}/resume", json=body, headers=admin.headers)
    assert resumed.status_code == 200, resumed.text
    assert resumed.json()["status"] == "playing"
    again = await client.post(f"/v1/admin/matches/{match_id}/resume", json=body, headers=admin.headers)
    assert again.json() == resumed.json()                           # a retried command: its first answer
    other = await client.post(f"/v1/admin/matches/{match_id}/resume", json={"reason": "twice"},
                              headers=admin.headers)
    assert (other.status_code, other.json()["code"]) == (422, "match_not_suspended")
    table = await view(client, match_id, players[seat[0]])
    assert table["status"] == "playing" and table["details"] is None
    played = await act(client, match_id, players[seat[0]], table["version"], **table["table"]["legal"][0])
    assert played.status_code == 200, played.text
    assert match_id not in await listed(client, svc, admin)


@pytest.mark.parametrize("action,status", [("void", "void"), ("abandon", "abandoned")])
async def test_an_admin_voids_or_abandons_a_suspended_match(client, svc, action, status) -> None:
    match_id, players = await suspended_match(client, svc)
    admin = await admin_of(client, svc)
    for body in ({}, {"reason": "a\x00b"}, {"reason": "   "}):
        refused = await client.post(f"/v1/admin/matches/{match_id}/{action}", json=body, headers=admin.headers)
        assert refused.status_code == 400 and refused.json()["details"]["field"] == "$.reason", refused.text
    done = await client.post(f"/v1/admin/matches/{match_id}/{action}", json={"reason": "a bot kept failing"},
                             headers=admin.headers)
    assert done.status_code == 200, done.text
    assert done.json()["status"] == status
    table = await view(client, match_id, players["N"])
    assert table["status"] == status
    state = await svc.load(match_id)
    seat = str(state.game.status(state.game_state).to_act[0])
    mine = await view(client, match_id, players[seat])
    over = await act(client, match_id, players[seat], mine["version"], **mine["table"]["legal"][0])
    assert (over.status_code, over.json()["code"]) == (422, "match_over")
    resumed = await client.post(f"/v1/admin/matches/{match_id}/resume", json={"reason": "late"},
                                headers=admin.headers)
    assert (resumed.status_code, resumed.json()["code"]) == (422, "match_not_suspended")
    unknown = await client.post(f"/v1/admin/matches/{uuid.uuid4()}/{action}", json={"reason": "x"},
                                headers=admin.headers)
    assert unknown.status_code == 404


async def test_a_deal_that_cannot_end_suspends_the_match_instead_of_a_500(client, svc) -> None:
    import random

    from domain.playout import concrete

    match_id, players = await seated_match(client, "cinch", {"deals": 2})
    # The vault no longer fits the match: the end of deal 0 cannot reveal its seed.
    await svc.store.pool.execute("UPDATE match_secrets SET chain_length = 0 WHERE match_id = $1", match_id)
    rng = random.Random(2)
    for _ in range(400):
        table = await view(client, match_id, players["N"])
        if table["status"] != "playing":
            break
        seat = rng.choice(table["to_act"])
        mine = await view(client, match_id, players[seat])
        action = {k: v for k, v in concrete(rng.choice(mine["table"]["legal"]), rng).items() if k != "seat"}
        response = await act(client, match_id, players[seat], mine["version"], **action)
        assert response.status_code in (200, 422), response.text
        if response.status_code == 422:
            assert response.json()["code"] == "match_suspended"
            assert response.json()["details"]["reason"] == "deal_failed"
    table = await view(client, match_id, players["N"])
    assert table["status"] == "suspended" and table["details"]["reason"] == "deal_failed"
    await svc.store.pool.execute("UPDATE match_secrets SET chain_length = 1000 WHERE match_id = $1", match_id)
    admin = await admin_of(client, svc)
    resumed = await client.post(f"/v1/admin/matches/{match_id}/resume", json={"reason": "vault repaired"},
                                headers=admin.headers)
    assert resumed.json()["status"] == "playing"
    state = await svc.load(match_id)
    seat = str(state.game.status(state.game_state).to_act[0])
    mine = await view(client, match_id, players[seat])
    action = {k: v for k, v in concrete(mine["table"]["legal"][0], rng).items() if k != "seat"}
    played = await act(client, match_id, players[seat], mine["version"], **action)
    assert played.status_code == 200, played.text                 # the deal ends, the next is dealt
    assert any(e["event"] and e["event"]["type"] == "deal_finished" for e in played.json()["events"])
