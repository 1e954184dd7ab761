"""One door to a seat: a ban and a block hold on every path that sits a player, or sits him
by someone else's hand — accepting an invitation, entering a tournament, a rematch — and a
banned player sends no invitation or challenge. A rematch is its own players' to ask for:
an organiser is no player of a stranger's private table (404, as every match route answers
it) nor of a sealed tournament table (403). Through the real API (in process) on real
Postgres and Redis; the block lists' read model is caught up by hand, as the projector
would."""

from __future__ import annotations

import random

import pytest

from infra.store import PostgresEventStore
from infra.vault import Vault
from services.matches.service import MatchService
from tests.api.conftest import alice_against_bots, finish, register, seated_match
from tests.api.test_social_tables import caught_up, create, invite
from tests.contract.match_support import play_out

pytestmark = [pytest.mark.db, pytest.mark.redis]
BOTS = {"N": "me", "E": "bot:random", "S": "bot:random", "W": "bot:random"}
TOURNAMENT = {"name": "Door cup", "game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 1}}


async def with_role(client, pool, role: str, name: str = ""):  # noqa: F811
    player = await register(client, name or role)
    await pool.execute("UPDATE players SET role = $2 WHERE player_id = $1", player.player_id, role)
    return player


async def ban(client, pool, player, reason: str = "cheating") -> None:  # noqa: F811
    admin = await with_role(client, pool, "admin")
    banned = await client.post(f"/v1/admin/players/{player.player_id}/ban", headers=admin.headers,
                               json={"reason": reason})
    assert banned.status_code == 200 and banned.json()["banned"] is True, banned.text


def refused(answer, status: int, code: str) -> dict:
    assert (answer.status_code, answer.json().get("code")) == (status, code), answer.text
    return answer.json()


async def test_a_banned_player_accepts_no_invitation(client, pool) -> None:  # noqa: F811
    host, guest = await register(client, "Host"), await register(client, "Guest")
    match_id = (await create(client, host))["match_id"]
    sent = await invite(client, host, match_id, guest.player_id, seat="E")
    assert sent.status_code == 201, sent.text
    await ban(client, pool, guest, "bots everywhere")
    answer = await client.post(f"/v1/invitations/{sent.json()['invitation_id']}/accept", headers=guest.headers,
                               json={})
    assert refused(answer, 403, "player_banned")["details"] == {"reason": "bots everywhere"}
    seats = (await client.get(f"/v1/matches/{match_id}", headers=host.headers)).json()["seats"]
    assert seats["E"] is None
    mine = await client.get(f"/v1/invitations/{sent.json()['invitation_id']}", headers=guest.headers)
    assert mine.json()["status"] == "pending"


async def test_a_banned_player_enters_no_tournament(client, pool) -> None:  # noqa: F811
    owner, cheat, partner = await with_role(client, pool, "organiser"), await register(client), await register(client)
    tid = (await client.post("/v1/tournaments", json=TOURNAMENT, headers=owner.headers)).json()["tournament_id"]
    await ban(client, pool, cheat)
    url = f"/v1/tournaments/{tid}/entries"
    refused(await client.post(url, json={"players": [cheat.player_id]}, headers=cheat.headers), 403, "player_banned")
    # nor entered by his partner, nor by the organiser
    for by in (partner, owner):
        answer = await client.post(url, json={"players": [partner.player_id, cheat.player_id]}, headers=by.headers)
        assert refused(answer, 403, "player_banned")["details"] == {"player_id": cheat.player_id}
    assert (await client.get(f"/v1/tournaments/{tid}", headers=owner.headers)).json()["entries"] == []
    alone = await client.post(url, json={"players": [partner.player_id]}, headers=partner.headers)
    assert alone.status_code == 201, alone.text


async def test_a_banned_player_is_seated_by_no_rematch(client, pool) -> None:  # noqa: F811
    match_id, players = await seated_match(client, "cinch", {"deals": 1})
    await finish(client, match_id, players)
    await ban(client, pool, players["E"], "abuse")
    answer = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["N"].headers, json={})
    assert refused(answer, 403, "player_banned")["details"] == {}      # another's ban reason is not shown
    answer = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["E"].headers, json={})
    assert refused(answer, 403, "player_banned")["details"] == {"reason": "abuse"}


async def test_a_banned_player_sends_no_invitation_nor_challenge(client, pool) -> None:  # noqa: F811
    host, friend, other = [await register(client, n) for n in ("Banned host", "Friend", "Other")]
    match_id = (await create(client, host))["match_id"]
    await ban(client, pool, host)
    refused(await invite(client, host, match_id, friend.player_id), 403, "player_banned")
    challenge = await client.post(f"/v1/matches/{match_id}/challenges", headers=host.headers,
                                  json={"players": [friend.player_id, other.player_id]})
    refused(challenge, 403, "player_banned")
    await caught_up(pool)
    sent = await client.get("/v1/invitations?role=sent", headers=host.headers)
    assert sent.json() == []


async def test_a_rematch_never_seats_a_player_with_his_blocker(client, pool) -> None:  # noqa: F811
    match_id, players = await seated_match(client, "cinch", {"deals": 1})
    await finish(client, match_id, players)
    blocked = await client.post("/v1/players/me/blocks", headers=players["S"].headers,
                                json={"player_id": players["N"].player_id})
    assert blocked.status_code == 200, blocked.text
    await caught_up(pool)
    for asker in "NSE":        # the blocked, the blocker, and a third player: none may make it
        refused(await client.post(f"/v1/matches/{match_id}/rematch", headers=players[asker].headers, json={}),
                403, "blocked")
    unblocked = await client.delete(f"/v1/players/me/blocks/{players['N'].player_id}", headers=players["S"].headers)
    assert unblocked.status_code == 200
    await caught_up(pool)
    made = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["E"].headers, json={})
    assert made.status_code == 201, made.text


async def test_a_player_does_not_sit_with_someone_he_blocks(client, pool) -> None:  # noqa: F811
    host, grump = await register(client, "Host"), await register(client, "Grump")
    match_id = (await create(client, host))["match_id"]
    assert (await client.post("/v1/players/me/blocks", headers=grump.headers,
                              json={"player_id": host.player_id})).status_code == 200
    await caught_up(pool)
    answer = await client.post(f"/v1/matches/{match_id}/seats/E", headers=grump.headers, json={})
    refused(answer, 403, "blocked")


async def test_an_organiser_rematches_no_strangers_private_table(client, pool) -> None:  # noqa: F811
    host, owner = await register(client, "Private host"), await with_role(client, pool, "organiser")
    made = await create(client, host, visibility="private", seats=BOTS)
    match_id = made["match_id"]
    store = PostgresEventStore(pool)
    assert (await play_out(MatchService(store, Vault(pool)), match_id, random.Random(5))).status == "finished"
    answer = await client.post(f"/v1/matches/{match_id}/rematch", headers=owner.headers, json={})
    assert refused(answer, 404, "unknown_match")["details"] == {"match_id": match_id}
    assert host.player_id not in answer.text


async def test_only_a_tables_players_ask_for_its_rematch(client, pool) -> None:  # noqa: F811
    owner, alice = await with_role(client, pool, "organiser"), await register(client)
    _, (_, sealed_table) = await alice_against_bots(client, owner, alice, TOURNAMENT)
    store = PostgresEventStore(pool)
    await play_out(MatchService(store, Vault(pool)), sealed_table, random.Random(3))
    # the bots' table is over, its round is not: its organiser is no player of it
    answer = await client.post(f"/v1/matches/{sealed_table}/rematch", headers=owner.headers, json={})
    refused(answer, 403, "forbidden")
    # nor is an organiser of an ordinary finished match
    match_id, players = await seated_match(client, "cinch", {"deals": 1})
    await finish(client, match_id, players)
    refused(await client.post(f"/v1/matches/{match_id}/rematch", headers=owner.headers, json={}), 403, "forbidden")
