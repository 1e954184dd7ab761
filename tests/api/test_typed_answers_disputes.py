"""The dispute routes and the suspended matches' admin routes answer what the served document
says, field for field: a dispute filed and ruled, the queue (a row sealed for an admin who plays
in the match), a deal verified once over and pending before, the export of a match and of one
deal, the admin replay as the table and as one seat (of a finished deal and of one being
played), the audit; a suspended match listed, resumed, voided, abandoned. The examples the
document shows for these routes hold to the same schemas."""

from __future__ import annotations

import pytest

from domain.cards import DECK_32
from infra.projections.disputes import DisputesQueue
from infra.store import PostgresEventStore
from infra.vault import Vault
from services.matches import suspensions
from services.matches.service import MatchService
from tests.api.conftest import finish, register, seated_match
from tests.api.typed_answers import read_projected, served
from tests.typed_contract import untyped_bodies

pytestmark = [pytest.mark.db, pytest.mark.redis]

M = "/v1/matches/{match_id}"
QUEUE, MINE, AUDIT = "/v1/admin/disputes", "/v1/disputes/mine", "/v1/admin/audit"
REPLAY, VERIFY, EXPORT = "/v1/admin/matches/{match_id}/deals/{deal}/replay", f"{M}/deals/{{deal}}/verify", f"{M}/export"
RULINGS, FILE = "/v1/admin/disputes/{dispute_id}/rulings", f"{M}/disputes"
SUSPENDED, ACT = "/v1/admin/matches/suspended", "/v1/admin/matches/{match_id}/"
ROUTES = {("post", FILE), ("get", MINE), ("get", VERIFY), ("get", EXPORT), ("get", QUEUE), ("get", AUDIT),
          ("get", REPLAY), ("post", RULINGS), ("get", SUSPENDED),
          *(("post", ACT + action) for action in ("resume", "void", "abandon"))}


async def with_role(client, pool, role: str):
    player = await register(client, role)
    await pool.execute("UPDATE players SET role = $2 WHERE player_id = $1", player.player_id, role)
    return player


async def test_the_documents_dispute_answers_are_typed_and_their_examples_hold(client) -> None:
    contract = await served(client)
    untyped = {k: v for k, v in untyped_bodies(contract.document).items()
               if any(k == f"{m.upper()} {p} {s}" for m, p in ROUTES for s in ("200", "201"))}
    assert untyped == {}
    assert contract.example_errors(ROUTES) == {}


async def test_a_dispute_answers_as_documented_from_filing_to_ruling(client, pool) -> None:
    contract = await served(client)
    match_id, players = await seated_match(client, "belote", {"variant": "classic", "deals": 2})
    await finish(client, match_id, players, seed=3)
    south, admin = players["S"], await with_role(client, pool, "admin")
    body = {"deal": 0, "reason": "W did not follow suit", "position": {"trick": 2, "card": "10h"}}
    filed = contract.check(await client.post(f"/v1/matches/{match_id}/disputes", json=body, headers=south.headers),
                           "post", FILE)
    bare = await client.post(f"/v1/matches/{match_id}/disputes", json={"deal": 1, "reason": "misdeal"},
                             headers=south.headers)
    assert contract.check(bare, "post", FILE)["position"] is None

    for deal in (0, 1):
        verified = contract.check(await client.get(f"/v1/matches/{match_id}/deals/{deal}/verify",
                                                   headers=south.headers), "get", VERIFY)
        assert verified["status"] == "verified"
    path = f"/v1/admin/matches/{match_id}/deals/0/replay"
    table = contract.check(await client.get(path, params={"dispute": filed["dispute_id"]}, headers=admin.headers),
                           "get", REPLAY)
    assert table["steps"] and "hands" in table["steps"][0] and table["verification"]["status"] == "verified"
    seat = contract.check(await client.get(path, params={"seat": "S"}, headers=admin.headers), "get", REPLAY)
    assert "deck" not in seat and all("hands" not in step for step in seat["steps"])

    queue = await read_projected(client, pool, QUEUE, admin,
                                 lambda rows: any(r["dispute_id"] == filed["dispute_id"] for r in rows), DisputesQueue())
    contract.check(queue, "get", QUEUE)
    ruled = await client.post(f"/v1/admin/disputes/{filed['dispute_id']}/rulings", headers=admin.headers,
                              json={"ruling": "void", "reason": "a revoke went unnoticed"})
    assert contract.check(ruled, "post", RULINGS)["ruling"]["ruling"] == "void"
    adjusted = await client.post(f"/v1/admin/disputes/{bare.json()['dispute_id']}/rulings", headers=admin.headers,
                                 json={"ruling": "reject", "reason": "nothing wrong"})
    assert contract.check(adjusted, "post", RULINGS)["ruling"]["match_version"] is None
    after = contract.check(await client.get(path, headers=admin.headers), "get", REPLAY)
    assert after["rulings"] and after["rulings"][0]["type"] == "ruling_applied"

    mine = await read_projected(client, pool, MINE, south,
                                lambda rows: {r["status"] for r in rows} == {"resolved", "rejected"}, DisputesQueue())
    rows = contract.check(mine, "get", MINE)
    assert {r["status"] for r in rows} == {"resolved", "rejected"} and all(r["ruling"] for r in rows)
    contract.check(await client.get(QUEUE, params={"status": "all"}, headers=admin.headers), "get", QUEUE)
    record = contract.check(await client.get(f"/v1/matches/{match_id}/export", headers=south.headers), "get", EXPORT)
    assert record["rulings"] and record["signature"] and "match_score" in record["result"]
    one = contract.check(await client.get(f"/v1/matches/{match_id}/export", params={"deal": 1},
                                          headers=south.headers), "get", EXPORT)
    assert one["first_deal"] == 1 and "deal" in one["result"]
    log = contract.check(await client.get(AUDIT, params={"match_id": match_id}, headers=admin.headers), "get", AUDIT)
    assert {e["action"] for e in log} == {"replay", "ruling"}


async def test_a_deal_being_played_and_a_sealed_dispute_answer_as_documented(client, pool) -> None:
    contract = await served(client)
    admin, seated_admin = await with_role(client, pool, "admin"), await with_role(client, pool, "admin")
    players = {seat: await register(client, seat) for seat in "NES"} | {"W": seated_admin}
    created = await client.post("/v1/matches", headers=players["N"].headers, json={
        "game": "cinch", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
    match_id = created.json()["match_id"]
    for seat in "ESW":
        taken = await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=players[seat].headers, json={})
        assert taken.status_code == 200, taken.text
    pending = contract.check(await client.get(f"/v1/matches/{match_id}/deals/0/verify", headers=players["N"].headers),
                             "get", VERIFY)
    assert pending["status"] == "pending" and "seed" not in pending
    path = f"/v1/admin/matches/{match_id}/deals/0/replay"
    table = contract.check(await client.get(path, headers=admin.headers), "get", REPLAY)
    assert not table["finished"] and table["verification"]["status"] == "pending"
    seat = contract.check(await client.get(path, params={"seat": "N"}, headers=admin.headers), "get", REPLAY)
    assert "verification" not in seat
    filed = contract.check(await client.post(f"/v1/matches/{match_id}/disputes", headers=players["N"].headers,
                                             json={"deal": 0, "reason": "a card was shown"}), "post", FILE)
    queue = await read_projected(client, pool, QUEUE, seated_admin,
                                 lambda rows: any(r["dispute_id"] == filed["dispute_id"] for r in rows), DisputesQueue())
    assert queue.status_code == 200, queue.text
    rows = contract.check(queue, "get", QUEUE)
    row = next(r for r in rows if r["dispute_id"] == filed["dispute_id"])
    assert row["sealed"] is True and row["reason"] is None


async def test_suspended_matches_answer_as_documented(client, pool) -> None:
    contract = await served(client)
    admin = await with_role(client, pool, "admin")
    svc = MatchService(PostgresEventStore(pool), Vault(pool))
    acted = {}
    for action in ("resume", "void", "abandon"):
        match_id, _ = await seated_match(client, "cinch", {"deals": 1})
        state = await svc.load(match_id)
        try:
            raise ValueError("the next deal cannot be made")
        except ValueError as error:
            assert await suspensions.suspend(svc, match_id, state.version, "bots.play_turn", error)
        acted[action] = match_id
    answer = await read_projected(client, pool, SUSPENDED, admin,
                                  lambda rows: set(acted.values()) <= {row["match_id"] for row in rows},
                                  params={"limit": 200})
    listed = contract.check(answer, "get", SUSPENDED)
    assert set(acted.values()) <= {row["match_id"] for row in listed}
    for action, match_id in acted.items():
        answer = await client.post(f"/v1/admin/matches/{match_id}/{action}", headers=admin.headers,
                                   json={"reason": "checked by hand"})
        assert contract.check(answer, "post", ACT + action)["match_id"] == match_id


@pytest.mark.parametrize("game,options", [("belote", {"variant": "coinche", "deals": 1}), ("cinch", {"deals": 1}),
                                          ("five_hundred", {"deals": 1})])
async def test_every_games_replay_and_record_answer_as_documented(client, pool, game, options) -> None:
    """The game's own words (its view, its events, its actions and deal summary) fit the
    documented maps, whatever the game."""
    contract = await served(client)
    match_id, players = await seated_match(client, game, options)
    await finish(client, match_id, players, seed=7)
    admin = await with_role(client, pool, "admin")
    table = contract.check(await client.get(f"/v1/admin/matches/{match_id}/deals/0/replay", headers=admin.headers),
                           "get", REPLAY)
    assert table["recorded_result"] and table["steps"][-1]["view"]
    contract.check(await client.get(f"/v1/matches/{match_id}/export", headers=players["N"].headers), "get", EXPORT)


async def test_an_imported_deal_answers_as_documented(client, pool) -> None:
    """A deck from a match record: nothing was shuffled, so its verification is `predefined`
    and its record carries no shuffle inputs."""
    contract = await served(client)
    deck = list(reversed(DECK_32))
    north, admin = await register(client), await with_role(client, pool, "admin")
    created = await client.post("/v1/matches", headers=north.headers, json={
        "game": "belote", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"},
        "record": {"game": "belote", "deals": [{"dealer": "E", "deck": deck, "actions": []}]}})
    assert created.status_code == 201, created.text
    match_id, players = created.json()["match_id"], {"N": north}
    for seat in "ESW":
        players[seat] = await register(client)
        assert (await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=players[seat].headers)).is_success
    early = contract.check(await client.get(f"/v1/matches/{match_id}/deals/0/verify", headers=north.headers),
                           "get", VERIFY)
    assert early["status"] == "predefined"
    await finish(client, match_id, players, seed=3)
    record = contract.check(await client.get(f"/v1/matches/{match_id}/export", headers=north.headers), "get", EXPORT)
    assert "fair" not in record["deals"][0]
    replay = contract.check(await client.get(f"/v1/admin/matches/{match_id}/deals/0/replay", headers=admin.headers),
                            "get", REPLAY)
    assert replay["verification"]["status"] == "predefined"
