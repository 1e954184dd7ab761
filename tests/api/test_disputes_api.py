"""Disputes over HTTP, end to end: a match played by four players, a dispute filed on a
deal, the admin replay as the table and as one seat, the deal verified, the deal voided,
the match score changed in the view, in the `match_summaries` read model and after its
rebuild; who may reach what (players, organisers of their own tournament's matches,
admins); the audit log of every admin read and ruling; the export replayed by
`record play` to the same result."""

from __future__ import annotations

import asyncio

import pytest

from domain.record import play_record
from infra.projections import MatchSummaries, ProjectionRunner, rebuild
from infra.projections.disputes import DisputesQueue
from infra.store import PostgresEventStore, create_pool
from tests.api.conftest import finish, register, seated_match, view
from tests.eventually import projected

pytestmark = [pytest.mark.db, pytest.mark.redis]


def READ_MODELS():   # what the projector would run beside the app
    return (MatchSummaries(), DisputesQueue())


@pytest.fixture(scope="module")
async def runner(client, database_url: str):
    pool = await create_pool(database_url, max_size=2)
    yield ProjectionRunner(PostgresEventStore(pool))
    await pool.close()


async def with_role(client, runner: ProjectionRunner, role: str):
    """A new player with `role` (the app's pool lives on its own loop: ours writes it)."""
    player = await register(client, role)
    await runner.store.pool.execute("UPDATE players SET role = $2 WHERE player_id = $1", player.player_id, role)
    return player


async def test_dispute_replay_verify_void_audit_and_export(client, runner) -> None:
    match_id, players = await seated_match(client, "belote", {"variant": "classic", "deals": 2})
    await finish(client, match_id, players, seed=3)
    south, admin, outsider = players["S"], await with_role(client, runner, "admin"), await register(client)
    exported = (await client.get(f"/v1/matches/{match_id}/export", headers=south.headers)).json()
    deal_scores = [d["score"] for d in play_record(exported)["deals"]]

    body = {"deal": 0, "reason": "W did not follow suit", "position": {"trick": 2, "card": "10h"}}
    assert (await client.post(f"/v1/matches/{match_id}/disputes", json=body,
                              headers=outsider.headers)).status_code == 403
    filed = await client.post(f"/v1/matches/{match_id}/disputes", json=body, headers=south.headers)
    assert filed.status_code == 201, filed.text
    dispute = filed.json()
    assert (dispute["status"], dispute["role"], dispute["position"]) == ("open", "player",
                                                                          {"deal": 0, "trick": 2, "card": "TH"})
    bad = await client.post(f"/v1/matches/{match_id}/disputes", json={**body, "deal": 7}, headers=south.headers)
    assert (bad.status_code, bad.json()["code"]) == (422, "unknown_deal")

    # The replay is for admins: a player gets 403, whatever seat he held.
    path = f"/v1/admin/matches/{match_id}/deals/0/replay"
    assert (await client.get(path, headers=south.headers)).status_code == 403
    table = await client.get(path, params={"dispute": dispute["dispute_id"]}, headers=admin.headers)
    assert table.status_code == 200, table.text
    table = table.json()
    assert table["verification"]["status"] == "verified" and table["illegal"] == [] and len(table["deck"]) == 32
    steps = table["steps"]
    assert steps[0]["type"] == "deal_dealt" and steps[-1]["type"] == "deal_finished"
    assert all(step["at"] and step["view"]["hand"] is None for step in steps)  # the table sees no hand
    assert all(len(hand) == 5 for hand in steps[1]["hands"].values())
    seat = (await client.get(path, params={"seat": "S"}, headers=admin.headers)).json()
    assert "deck" not in seat and [s["version"] for s in seat["steps"]] == [s["version"] for s in steps]
    for mine, full in zip(seat["steps"], steps):  # south sees south's cards and nobody else's
        assert mine["view"]["hand"] == full["hands"]["S"] and "hands" not in mine
    assert (await client.get(path, params={"seat": "Q"}, headers=admin.headers)).status_code == 400

    # Verification: south for his own deal, anyone now that the match is over.
    for who in (south, outsider):
        checked = (await client.get(f"/v1/matches/{match_id}/deals/0/verify", headers=who.headers)).json()
        assert checked["status"] == "verified" and all(checked["checks"].values())

    queue = await projected(runner, READ_MODELS, lambda: _json(client.get("/v1/admin/disputes", headers=admin.headers)),
                             lambda rows: any(r["dispute_id"] == dispute["dispute_id"] and r["status"] == "in_review"
                                              for r in rows))
    assert next(r for r in queue if r["dispute_id"] == dispute["dispute_id"])["status"] == "in_review"
    assert (await client.get("/v1/admin/disputes", headers=south.headers)).status_code == 403

    # Void the deal: the match score is deal 1's alone, in the view, the read model and a rebuild.
    rulings = f"/v1/admin/disputes/{dispute['dispute_id']}/rulings"
    void = {"ruling": "void", "reason": "a revoke went unnoticed"}
    assert (await client.post(rulings, json=void, headers=south.headers)).status_code == 403
    ruled = await client.post(rulings, json=void, headers=admin.headers)
    assert ruled.status_code == 200, ruled.text
    assert ruled.json()["status"] == "resolved" and ruled.json()["ruling"]["admin"] == admin.player_id
    assert (await client.post(rulings, json=void, headers=admin.headers)).status_code == 200  # a retry: same answer
    again = await client.post(rulings, json={"ruling": "reject", "reason": "changed my mind"}, headers=admin.headers)
    assert (again.status_code, again.json()["code"]) == (409, "dispute_closed")
    now = await view(client, match_id, south)
    assert now["table"]["match_score"] == deal_scores[1] and now["status"] == "finished"

    def summary(rows):
        return next((r for r in rows if r["match_id"] == match_id), None)

    mine = lambda: _json(client.get("/v1/matches/mine", params={"status": "finished"}, headers=south.headers))
    row = summary(await projected(runner, READ_MODELS, mine, lambda rows: (summary(rows) or {}).get("score") == deal_scores[1]))
    assert row["score"] == deal_scores[1]
    await rebuild(runner, MatchSummaries())
    assert summary(await mine())["score"] == deal_scores[1]
    mine_disputes = await projected(runner, READ_MODELS, lambda: _json(client.get("/v1/disputes/mine", headers=south.headers)),
                                     lambda rows: rows and rows[0]["status"] == "resolved")
    assert mine_disputes[0]["ruling"]["ruling"] == "void"

    # A replay ruling needs a deal to come: this match is over.
    other = (await client.post(f"/v1/matches/{match_id}/disputes", json={"deal": 1, "reason": "misdeal"},
                               headers=south.headers)).json()
    refused = await client.post(f"/v1/admin/disputes/{other['dispute_id']}/rulings",
                                json={"ruling": "replay", "reason": "redeal"}, headers=admin.headers)
    assert (refused.status_code, refused.json()["code"]) == (422, "match_over")

    # The audit: both reads and the ruling, by the admin; not for players.
    log = (await client.get("/v1/admin/audit", params={"match_id": match_id}, headers=admin.headers)).json()
    assert [(e["action"], e["seat"], e["actor"]) for e in log] == [
        ("replay", None, admin.player_id), ("replay", "S", admin.player_id), ("ruling", None, admin.player_id)]
    assert log[2]["detail"]["ruling"] == "void" and log[0]["dispute_id"] == dispute["dispute_id"]
    assert (await client.get("/v1/admin/audit", headers=south.headers)).status_code == 403

    # The export carries seeds, commitments and the ruling, and replays to the match's result.
    record = (await client.get(f"/v1/matches/{match_id}/export", headers=outsider.headers)).json()
    assert record["rulings"] == [{"deal": 0, "ruling": "void", "reason": void["reason"], "admin": admin.player_id}]
    assert all(d["fair"]["seed"] and d["fair"]["commitment"] for d in record["deals"])
    played = (await client.post("/v1/records/play", json=record, headers=outsider.headers)).json()
    assert played["ok"] and played["match_score"] == record["result"]["match_score"] == deal_scores[1]
    assert played["winner"] == record["result"]["winner"] == now["table"]["winner"]
    assert row["winner"] == now["table"]["winner"]


async def test_an_organiser_reviews_only_his_own_tournaments_matches(client, runner, monkeypatch) -> None:
    """A stub ownership lookup stands in for the tournaments' (the runtime's Visibility.organiser_lookups)."""
    match_id, players = await seated_match(client, "cinch", {"deals": 1})
    owner, stranger = await with_role(client, runner, "organiser"), await with_role(client, runner, "organiser")
    outsider = await register(client)

    async def organiser_of(mid: str) -> str | None:
        return owner.player_id if mid == match_id else None

    monkeypatch.setattr(client.app.state.runtime.visibility, "organiser_lookups", (organiser_of,))
    path = f"/v1/admin/matches/{match_id}/deals/0/replay"
    assert (await client.get(path, headers=stranger.headers)).status_code == 403
    replay = await client.get(path, headers=owner.headers)
    assert replay.status_code == 200 and replay.json()["verification"]["status"] == "pending"
    filed = await client.post(f"/v1/matches/{match_id}/disputes", json={"deal": 0, "reason": "slow play"},
                              headers=owner.headers)
    assert filed.status_code == 201 and filed.json()["role"] == "organiser"
    # The match is under way: its deal is shown to its players only (pending until it ends).
    verify = f"/v1/matches/{match_id}/deals/0/verify"
    assert (await client.get(verify, headers=outsider.headers)).status_code == 403
    assert (await client.get(verify, headers=players["E"].headers)).json()["status"] == "pending"
    assert (await client.get("/v1/admin/audit", headers=owner.headers)).status_code == 403


async def _json(response):
    return (await response).json()
