"""A private table from creation to a started match against the whole system (`atout serve
--projector` and a worker): the host invites a friend and challenges a partnership; each
hears of it on his account stream, accepts, and the last seat taken starts the match, while
a stranger who follows the host never sees the table in any list or on his own stream.
"""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from system_support import running_system
from test_account_stream import auth, follow, register

from services.live.routes.account_messages import DECODER, AccountEvent

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]
OPEN = {"N": "me", "E": "open", "S": "open", "W": "open"}


@pytest.fixture(scope="module")
def system(migrated_database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory):
    with running_system(tmp_path_factory.mktemp("social"), migrated_database_url, redis_url,
                        f"{redis_prefix}social") as running:
        yield running


async def listed(http: httpx.AsyncClient, path: str, player: dict[str, str]) -> set[str]:
    answer = await http.get(path, headers=auth(player))
    assert answer.status_code == 200, answer.text
    return {row["match_id"] for row in answer.json()}


async def until_listed(http: httpx.AsyncClient, path: str, player: dict[str, str], match_id: str) -> set[str]:
    """The list once the projector has shown `match_id` in it: anything made before is in it too."""
    deadline = time.monotonic() + 15
    while match_id not in (seen := await listed(http, path, player)):
        assert time.monotonic() < deadline, path
        await asyncio.sleep(0.05)
    return seen


async def test_invitations_reach_the_stream_and_fill_a_private_table_nobody_else_sees(system) -> None:
    async with httpx.AsyncClient(base_url=system.base, timeout=30) as http:
        host, friend, east, west, stranger = [await register(http, n) for n in ("Host", "Friend", "East", "West",
                                                                                 "Stranger")]
        streams = {p["id"]: await follow(system.base, p["token"]) for p in (friend, east, west, stranger)}
        assert (await http.post("/v1/players/me/following", headers=auth(stranger),
                                json={"player_id": host["id"]})).status_code == 200
        made = await http.post("/v1/matches", headers=auth(host), json={
            "game": "belote", "options": {"deals": 1}, "seats": OPEN, "visibility": "private"})
        assert made.status_code == 201, made.text
        match_id = made.json()["match_id"]

        sent = await http.post(f"/v1/matches/{match_id}/invitations", headers=auth(host),
                               json={"player_id": friend["id"], "seat": "S"})
        challenge = await http.post(f"/v1/matches/{match_id}/challenges", headers=auth(host),
                                    json={"players": [east["id"], west["id"]], "seats": ["E", "W"]})
        assert sent.status_code == 201 and challenge.status_code == 201, (sent.text, challenge.text)
        assert challenge.json()["kind"] == "challenge"
        marker = await http.post("/v1/matches", headers=auth(host), json={
            "game": "belote", "options": {"deals": 1}, "seats": OPEN})
        marker_id = marker.json()["match_id"]

        for player, invitation, seat in ((friend, sent.json(), "S"), (east, challenge.json(), "E"),
                                         (west, challenge.json(), "W")):
            stream = streams[player["id"]]
            await stream.until(lambda f: f.of("invitation_received", invitation_id=invitation["invitation_id"]))
            [notice] = stream.of("invitation_received")
            assert notice == {**notice, "match_id": match_id, "by": host["id"], "seat": seat, "game": "belote"}
            assert match_id in await until_listed(http, "/v1/invitations", player, match_id)
            answer = await http.post(f"/v1/invitations/{invitation['invitation_id']}/accept", headers=auth(player),
                                     json={"entropy": f"{seat} words"})
            assert answer.status_code == 200, answer.text
        assert answer.json()["invitation"]["status"] == "accepted"
        shown = [(e["event"] or {}).get("type") for e in answer.json()["match"]["events"]]
        assert shown[:2] == ["seat_taken", "match_started"], shown

        for player in (friend, east, west):
            await streams[player["id"]].until(lambda f: f.of("match_started", match_id=match_id))
        view = await http.get(f"/v1/matches/{match_id}", headers=auth(friend))
        assert view.json()["status"] == "playing"

        # the stranger: not in the lobby, not among his followed player's tables, not his to watch
        assert match_id not in await until_listed(http, "/v1/matches", stranger, marker_id)
        assert match_id not in await until_listed(http, "/v1/players/me/following/tables", stranger, marker_id)
        assert match_id not in await listed(http, "/v1/matches?status=playing", stranger)
        assert match_id not in await listed(http, "/v1/players/me/following/tables?status=playing", stranger)
        gone = await http.get(f"/v1/matches/{match_id}/stream", headers=auth(stranger))
        assert gone.status_code == 404 and gone.json()["code"] == "unknown_match"
        await asyncio.sleep(0.3)
        lines = streams[stranger["id"]].raw
        assert not any(match_id in line for line in lines), lines
        for stream in streams.values():
            assert all(isinstance(DECODER.decode(line), AccountEvent) for line in stream.raw[1:])
            await stream.stop()
