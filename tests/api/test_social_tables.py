"""Private tables, invitations, follow and block through the real API (in process) on real
Postgres and Redis. The read models are caught up by hand, as the projector would (no
projector runs beside this test client); the account stream's part is
tests/e2e/test_social_system.py.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest

from infra.projections import Lobby, MatchSummaries, ProjectionRunner
from infra.projections.invitations import Invitations
from infra.projections.social import SocialTies
from infra.store import PostgresEventStore
from services.social import circle
from services.social import invitations as invitation_service
from tests.api.conftest import finish, register

pytestmark = [pytest.mark.db, pytest.mark.redis]
OPEN = {"N": "me", "E": "open", "S": "open", "W": "open"}


async def caught_up(pool) -> None:
    store = PostgresEventStore(pool)
    runner = ProjectionRunner(store)
    projections = (Lobby(), MatchSummaries(), Invitations(), SocialTies())
    for projection in projections:
        await runner.ensure(projection)
    await store.settle()
    for projection in projections:
        await runner.catch_up(projection)


async def create(client, host, **extra):
    answer = await client.post("/v1/matches", headers=host.headers,
                               json={"game": "belote", "options": {"deals": 1}, "seats": OPEN, **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


async def ids(client, path: str, player) -> set[str]:
    answer = await client.get(path, headers=player.headers)
    assert answer.status_code == 200, answer.text
    return {row["match_id"] for row in answer.json()}


async def invite(client, host, match_id: str, player_id: str, **extra):
    return await client.post(f"/v1/matches/{match_id}/invitations", headers=host.headers,
                             json={"player_id": player_id, **extra})


async def test_a_private_table_is_in_no_public_list_and_unknown_to_strangers(client, pool) -> None:
    host, friend, stranger, coder = [await register(client, n) for n in ("Host", "Friend", "Stranger", "Coder")]
    rated = await client.post("/v1/matches", headers=host.headers, json={
        "game": "belote", "seats": OPEN, "visibility": "private", "rated": True})
    assert rated.status_code == 400 and rated.json()["code"] == "not_rateable", rated.text
    assert rated.json()["details"] == {"field": "$.rated", "reason": "private"}

    made = await create(client, host, visibility="private")
    match_id, code = made["match_id"], made["invitation_code"]
    assert len(code) == 16
    public = await create(client, host)
    assert "invitation_code" not in public
    follows = await client.post("/v1/players/me/following", headers=stranger.headers,
                                json={"player_id": host.player_id})
    assert follows.status_code == 200 and follows.json()["following"] is True, follows.text
    await caught_up(pool)

    for path in ("/v1/matches", "/v1/matches?status=open&game=belote", "/v1/players/me/following/tables"):
        seen = await ids(client, path, stranger)
        assert public["match_id"] in seen and match_id not in seen, path
    assert match_id in await ids(client, "/v1/matches/mine", host)
    for path in ("", "/events", "/record", "/stream"):
        answer = await client.get(f"/v1/matches/{match_id}{path}", headers=stranger.headers)
        assert answer.status_code == 404 and answer.json()["code"] == "unknown_match", (path, answer.text)
    for body in ({}, {"code": "WRONGWRONGWRONG1"}):
        taken = await client.post(f"/v1/matches/{match_id}/seats/E", headers=stranger.headers, json=body)
        assert taken.status_code == 404 and taken.json()["code"] == "unknown_match", taken.text
    assert (await invite(client, stranger, match_id, friend.player_id)).json()["code"] == "unknown_match"

    # the code seats whoever brings it; an invitation seats the invitee, who may watch before
    assert (await client.post(f"/v1/matches/{match_id}/seats/E", headers=coder.headers,
                              json={"code": code.lower()})).status_code == 200
    sent = await invite(client, host, match_id, friend.player_id, seat="S")
    assert sent.status_code == 201, sent.text
    await caught_up(pool)
    assert (await client.get(f"/v1/matches/{match_id}", headers=friend.headers)).status_code == 200
    accepted = await client.post(f"/v1/invitations/{sent.json()['invitation_id']}/accept", headers=friend.headers)
    assert accepted.status_code == 200 and accepted.json()["invitation"]["status"] == "accepted", accepted.text
    last = await client.post(f"/v1/matches/{match_id}/seats/W", headers=stranger.headers, json={"code": code})
    assert last.status_code == 200, last.text
    await caught_up(pool)
    assert (await client.get(f"/v1/matches/{match_id}", headers=stranger.headers)).json()["status"] == "playing"
    for path in ("/v1/matches?status=playing", "/v1/players/me/following/tables?status=playing"):
        assert match_id not in await ids(client, path, await register(client, "Passer-by")), path

    # a rematch of a private table is private, with the same people
    players = {"N": host, "E": coder, "S": friend, "W": stranger}
    await finish(client, match_id, players)
    again = await client.post(f"/v1/matches/{match_id}/rematch", headers=friend.headers, json={})
    assert again.status_code == 201, again.text
    rematch = again.json()
    assert "invitation_code" not in rematch     # the host's, not the asker's
    assert {s: (h or {}).get("player_id") for s, h in rematch["seats"].items()} == {
        s: p.player_id for s, p in players.items()}
    outsider = await register(client, "Outsider")
    answer = await client.get(f"/v1/matches/{rematch['match_id']}", headers=outsider.headers)
    assert answer.status_code == 404, answer.text


async def test_invitations_answer_expired_started_full_declined_and_wrong_player(client, pool, monkeypatch) -> None:
    host, a, b, c, d = [await register(client, n) for n in ("H", "A", "B", "C", "D")]
    match_id = (await create(client, host, visibility="private"))["match_id"]
    command = str(uuid.uuid4())
    first = await invite(client, host, match_id, a.player_id, seat="E", command_id=command)
    assert first.status_code == 201 and first.json()["status"] == "pending", first.text
    again = await invite(client, host, match_id, a.player_id, seat="E", command_id=command)
    assert again.status_code == 201 and again.json()["invitation_id"] == first.json()["invitation_id"]
    conflict = await invite(client, host, match_id, b.player_id, seat="E", command_id=command)
    assert conflict.status_code == 409 and conflict.json()["code"] == "command_conflict", conflict.text
    invitation = first.json()["invitation_id"]

    wrong = await client.post(f"/v1/invitations/{invitation}/accept", headers=b.headers)
    assert wrong.status_code == 403 and wrong.json()["code"] == "not_your_invitation", wrong.text
    assert (await client.get(f"/v1/invitations/{invitation}", headers=b.headers)).status_code == 404
    unknown = await client.post(f"/v1/invitations/{uuid.uuid4()}/accept", headers=a.headers)
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_invitation"
    assert (await invite(client, host, match_id, host.player_id)).json()["code"] == "cannot_invite_yourself"
    assert (await invite(client, host, match_id, str(uuid.uuid4()))).json()["code"] == "unknown_player"

    real = invitation_service._now()
    monkeypatch.setattr(invitation_service, "_now", lambda: real + timedelta(days=2))
    expired = await client.post(f"/v1/invitations/{invitation}/accept", headers=a.headers)
    assert expired.status_code == 422 and expired.json()["code"] == "invitation_expired", expired.text
    assert (await client.get(f"/v1/invitations/{invitation}", headers=a.headers)).json()["status"] == "expired"
    monkeypatch.undo()

    to_b = (await invite(client, host, match_id, b.player_id, seat="S")).json()["invitation_id"]
    declined = await client.post(f"/v1/invitations/{to_b}/decline", headers=b.headers, json={})
    assert declined.status_code == 200 and declined.json()["status"] == "declined", declined.text
    late = await client.post(f"/v1/invitations/{to_b}/accept", headers=b.headers)
    assert late.status_code == 422 and late.json()["code"] == "invitation_declined", late.text

    to_c = (await invite(client, host, match_id, c.player_id, seat="W")).json()["invitation_id"]
    to_d = (await invite(client, host, match_id, d.player_id, seat="W")).json()["invitation_id"]
    assert (await client.post(f"/v1/invitations/{to_c}/accept", headers=c.headers)).status_code == 200
    taken = await client.post(f"/v1/invitations/{to_d}/accept", headers=d.headers)
    assert taken.status_code == 422 and taken.json()["code"] == "seat_taken", taken.text
    challenge = await client.post(f"/v1/matches/{match_id}/challenges", headers=host.headers,
                                  json={"players": [a.player_id, b.player_id]})
    assert challenge.status_code == 422 and challenge.json()["code"] == "match_full", challenge.text

    # A and B fill the last seats through a fresh invitation each: the match starts
    for player, seat in ((a, "E"), (b, "S")):
        sent = (await invite(client, host, match_id, player.player_id, seat=seat)).json()["invitation_id"]
        assert (await client.post(f"/v1/invitations/{sent}/accept", headers=player.headers)).status_code == 200
    full = await invite(client, host, match_id, d.player_id)
    assert full.status_code == 422 and full.json()["code"] == "match_not_open", full.text
    started = await client.post(f"/v1/invitations/{to_d}/accept", headers=d.headers)
    assert started.status_code == 422 and started.json()["code"] == "match_not_open", started.text

    await caught_up(pool)
    received = (await client.get("/v1/invitations", headers=b.headers)).json()
    assert [i["status"] for i in received] == ["accepted", "declined"]
    sent = (await client.get("/v1/invitations?role=sent&status=pending&limit=1", headers=host.headers))
    assert [i["invitation_id"] for i in sent.json()] == [to_d] and "link" in sent.headers


async def test_a_blocked_player_can_neither_invite_me_nor_sit_at_my_table(client, pool) -> None:
    me, pest, friend = [await register(client, n) for n in ("Me", "Pest", "Friend")]
    blocked = await client.post("/v1/players/me/blocks", headers=me.headers, json={"player_id": pest.player_id})
    assert blocked.status_code == 200 and blocked.json() == {"player_id": pest.player_id, "following": False,
                                                             "blocked": True, "changed": True}
    twice = await client.post("/v1/players/me/blocks", headers=me.headers, json={"player_id": pest.player_id})
    assert twice.json()["changed"] is False
    await caught_up(pool)
    reader = SimpleNamespace(pool=pool)           # what the chat asks: `is_blocked(runtime, blocker, blocked)`
    assert await circle.is_blocked(reader, me.player_id, pest.player_id)
    assert not await circle.is_blocked(reader, pest.player_id, me.player_id)

    theirs = (await create(client, pest))["match_id"]
    refused = await invite(client, pest, theirs, me.player_id)
    assert refused.status_code == 403 and refused.json()["code"] == "blocked", refused.text
    mine = (await create(client, me))["match_id"]
    sat = await client.post(f"/v1/matches/{mine}/seats/E", headers=pest.headers, json={})
    assert sat.status_code == 403 and sat.json()["code"] == "blocked", sat.text
    # nor where I sit at someone else's table
    other = (await create(client, friend))["match_id"]
    assert (await client.post(f"/v1/matches/{other}/seats/S", headers=me.headers, json={})).status_code == 200
    await caught_up(pool)
    assert (await client.post(f"/v1/matches/{other}/seats/E", headers=pest.headers, json={})).json()["code"] == \
        "blocked"
    listed = (await client.get("/v1/players/me/blocks", headers=me.headers)).json()
    assert [row["player_id"] for row in listed] == [pest.player_id] and listed[0]["name"] == "Pest"

    assert (await client.delete(f"/v1/players/me/blocks/{pest.player_id}", headers=me.headers)).json()[
        "blocked"] is False
    await caught_up(pool)
    assert (await client.post(f"/v1/matches/{mine}/seats/E", headers=pest.headers, json={})).status_code == 200
    self_block = await client.post("/v1/players/me/blocks", headers=me.headers, json={"player_id": me.player_id})
    assert self_block.status_code == 422 and self_block.json()["code"] == "cannot_block_yourself"


async def test_following_shows_the_followed_players_open_tables(client, pool) -> None:
    fan, star, other = [await register(client, n) for n in ("Fan", "Star", "Other")]
    assert (await client.post("/v1/players/me/following", headers=fan.headers,
                              json={"player_id": star.player_id})).json()["changed"] is True
    tables = [(await create(client, star))["match_id"], (await create(client, star))["match_id"]]
    hidden = (await create(client, star, visibility="private"))["match_id"]
    unrelated = (await create(client, other))["match_id"]
    await caught_up(pool)
    page = await client.get("/v1/players/me/following/tables?limit=1", headers=fan.headers)
    assert [t["match_id"] for t in page.json()] == [tables[1]] and "link" in page.headers
    seen = await ids(client, "/v1/players/me/following/tables", fan)
    assert set(tables) <= seen and hidden not in seen and unrelated not in seen
    assert [p["player_id"] for p in (await client.get("/v1/players/me/following", headers=fan.headers)).json()] == [
        star.player_id]
    yourself = await client.post("/v1/players/me/following", headers=fan.headers, json={"player_id": fan.player_id})
    assert yourself.status_code == 422 and yourself.json()["code"] == "cannot_follow_yourself"

    assert (await client.delete(f"/v1/players/me/following/{star.player_id}", headers=fan.headers)).json()[
        "following"] is False
    await caught_up(pool)
    assert not set(tables) & await ids(client, "/v1/players/me/following/tables", fan)
