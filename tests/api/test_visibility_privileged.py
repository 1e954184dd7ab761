"""Privileged roles are blind while they play, and a sealed board stays sealed to its own seats.

A tournament's organiser plays at table 1 of his own tournament with a partner, against an
admin partnered by a bot; table 2 (bots) plays the same two boards and finishes them first.
While the round is open neither of them may use a role to read beyond their seat — the admin
replay of their own deal in play or of the other table's same board, the other table's view,
events, record, export, verification — (403 `privileged_while_playing`, each refusal in the
audit), and the organiser reads his tournament as any entrant does. Their partner, whose table
finished board 1, gets 403 `board_sealed` for board 1's export. An admin outside the
tournament still reviews everything; once the round has closed everyone reads everything.
"""

from __future__ import annotations

import random
import uuid

import msgspec
import pytest

from domain import match as rules
from domain.cards import Seat
from domain.playout import concrete
from infra.store import PostgresEventStore
from infra.vault import Vault
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from tests.api.conftest import register
from tests.contract.match_support import play_out

pytestmark = [pytest.mark.db, pytest.mark.redis]
BODY = {"name": "Blind", "game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 2}}
PLAYING = "privileged_while_playing"


async def with_role(client, pool, role: str):
    player = await register(client, role)
    await pool.execute("UPDATE players SET role = $2 WHERE player_id = $1", player.player_id, role)
    return player


async def play_until(svc: MatchService, match_id: str, rng: random.Random, deal: int) -> rules.MatchState:
    """Random legal actions until deal `deal` has been dealt (earlier deals are then over)."""
    for _ in range(2000):
        state = await svc.load(match_id)
        if state.deal_index >= deal or state.status != "playing":
            return state
        choices = [(seat, a) for seat in Seat
                   for a in msgspec.to_builtins(rules.view(state, seat).table)["legal"]]
        seat, action = rng.choice(choices)
        await svc.act(match_id, {"seat": seat.value, **concrete(action, rng)},
                      player_id=state.seats[seat.value].player_id, expected_version=state.version,
                      command_id=uuid.uuid4())
    raise AssertionError("the deal never came")


async def code(client, path: str, reader) -> tuple[int, str | None]:
    answer = await client.get(path, headers=reader.headers)
    return answer.status_code, answer.json().get("code") if answer.status_code >= 400 else None


async def test_roles_that_play_read_only_their_seat_and_sealed_boards_stay_sealed(client, pool) -> None:
    owner, seated_admin = await with_role(client, pool, "organiser"), await with_role(client, pool, "admin")
    outside_admin, partner = await with_role(client, pool, "admin"), await register(client)
    tid = (await client.post("/v1/tournaments", json=BODY, headers=owner.headers)).json()["tournament_id"]
    ours = await client.post(f"/v1/tournaments/{tid}/entries", json={"players": [owner.player_id, partner.player_id]},
                             headers=owner.headers)
    theirs = await client.post(f"/v1/tournaments/{tid}/entries", json={"players": [seated_admin.player_id]},
                               headers=seated_admin.headers)
    assert ours.status_code == theirs.status_code == 201, (ours.text, theirs.text)
    bots = [(await client.post(f"/v1/tournaments/{tid}/entries", json={"players": ["bot:random", "bot:random"]},
                               headers=owner.headers)).json()["entry_id"] for _ in range(2)]
    pairing = {"round": 1, "tables": [[ours.json()["entry_id"], theirs.json()["entry_id"]], bots]}
    assert (await client.post(f"/v1/tournaments/{tid}/pairings", json=pairing, headers=owner.headers)).status_code == 200
    started = (await client.post(f"/v1/tournaments/{tid}/start", headers=owner.headers)).json()
    table, other = (t["match_id"] for t in started["rounds"][0]["tables"])
    store = PostgresEventStore(pool)
    svc = TournamentService(store, MatchService(store, Vault(pool)))

    # The other table plays both boards; ours finishes board 1 and is in board 2.
    await play_out(svc.matches, other, random.Random(5))
    await svc.advance(tid)
    await play_until(svc.matches, table, random.Random(6), deal=1)
    assert not (await svc.load(tid)).current.closed

    # A seat of a table that finished board 1 may not export it while the round is open.
    for path in (f"/v1/matches/{table}/export?deal=0", f"/v1/matches/{table}/export",
                 f"/v1/matches/{table}/deals/0/verify", f"/v1/matches/{table}/record"):
        assert await code(client, path, partner) == (403, "board_sealed"), path
    assert (await client.get(f"/v1/matches/{table}", headers=partner.headers)).status_code == 200

    # The organiser and the admin who play: no replay of their deal in play, of their own
    # finished board, of the other table's; nothing of the other table at all.
    refused = [f"/v1/admin/matches/{table}/deals/1/replay", f"/v1/admin/matches/{table}/deals/1/replay?seat=N",
               f"/v1/admin/matches/{table}/deals/0/replay", f"/v1/admin/matches/{other}/deals/0/replay",
               f"/v1/admin/matches/{other}/deals/1/replay", f"/v1/matches/{table}/export?deal=0",
               f"/v1/matches/{other}/export?deal=0", f"/v1/matches/{other}/deals/0/verify",
               f"/v1/matches/{other}", f"/v1/matches/{other}/events", f"/v1/matches/{other}/record",
               f"/v1/matches/{other}/stream"]
    for reader in (owner, seated_admin):
        for path in refused:
            assert await code(client, path, reader) == (403, PLAYING), (reader.player_id, path)
        assert (await client.get(f"/v1/matches/{table}", headers=reader.headers)).json()["seat"] is not None
    # The organiser reads his tournament as an entrant does: no result of a round still open.
    for reader in (owner, partner):
        seen = (await client.get(f"/v1/tournaments/{tid}", headers=reader.headers)).json()
        assert [t["result"] for t in seen["rounds"][0]["tables"]] == [None, None]
        assert (await client.get(f"/v1/tournaments/{tid}/results", headers=reader.headers)).json() == []
        exported = (await client.get(f"/v1/tournaments/{tid}/export", headers=reader.headers)).json()
        assert [t["result"] for t in exported["tournament"]["rounds"][0]["tables"]] == [None, None]
    # An admin outside the tournament reviews all of it, and the audit names every refusal.
    for path in refused[:5]:
        assert (await client.get(path, headers=outside_admin.headers)).status_code == 200, path
    full = (await client.get(f"/v1/tournaments/{tid}", headers=outside_admin.headers)).json()
    assert full["rounds"][0]["tables"][1]["result"] is not None
    audit = []
    for match_id in (table, other):
        audit += (await client.get("/v1/admin/audit", params={"match_id": match_id},
                                   headers=outside_admin.headers)).json()
    refusals = [(e["actor"], e["role"], e["detail"]["read"]) for e in audit if e["action"] == "refused"]
    for reader, role in ((owner, "organiser"), (seated_admin, "admin")):
        mine = [r for r in refusals if r[0] == reader.player_id]
        assert len(mine) == len(refused) and {r[1] for r in mine} == {role}, mine
        assert {r[2] for r in mine} == {"replay", "deals", "record", "view"}
    assert all(e["detail"]["code"] == PLAYING for e in audit if e["action"] == "refused")
    assert not [e for e in audit if e["action"] == "replay" and e["actor"] in (owner.player_id, seated_admin.player_id)]

    # The round closes at every table: what was hidden is public, to them too.
    await play_out(svc.matches, table, random.Random(7))
    assert (await svc.advance(tid)).status == "closed"
    for reader in (owner, seated_admin, partner):
        assert (await client.get(f"/v1/matches/{table}/export?deal=0", headers=reader.headers)).status_code == 200
        assert (await client.get(f"/v1/matches/{other}/record", headers=reader.headers)).status_code == 200
    for reader in (owner, seated_admin):
        replay = await client.get(f"/v1/admin/matches/{other}/deals/1/replay", headers=reader.headers)
        assert replay.status_code == 200 and len(replay.json()["deck"]) == 32


async def test_an_admin_seated_at_an_ordinary_match_replays_only_finished_deals(client, pool) -> None:
    admin = await with_role(client, pool, "admin")
    created = await client.post("/v1/matches", headers=admin.headers,
                                json={"game": "belote", "options": {"variant": "classic", "deals": 2},
                                      "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
    match_id = created.json()["match_id"]
    for seat in "ESW":
        joined = await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=(await register(client)).headers)
        assert joined.status_code == 200, joined.text
    store = PostgresEventStore(pool)
    await play_until(MatchService(store, Vault(pool)), match_id, random.Random(8), deal=1)
    assert await code(client, f"/v1/admin/matches/{match_id}/deals/1/replay", admin) == (403, PLAYING)
    assert await code(client, f"/v1/admin/matches/{match_id}/deals/2/replay", admin) == (403, PLAYING)
    # Deal 0 is over: every card of it is on his seat's record already.
    assert (await client.get(f"/v1/admin/matches/{match_id}/deals/0/replay", headers=admin.headers)).status_code == 200
    assert (await client.get(f"/v1/matches/{match_id}/record", headers=admin.headers)).status_code == 200
