"""A tournament table is no one else's business until its round has closed at every table.

Every table of a round plays the same boards, so a player who could watch another table
(its spectator view, its events, its record, its live stream; the WebSocket is
checked against a real server in test_tournaments_live.py) would learn the cards he is
about to be dealt, or the result he is playing against. Here a human entry plays table 1
while table 2 (bots) has already finished: the human, and a player from outside, are refused
table 2 everywhere (403 `board_sealed`); the organiser and an admin are not; once the round
has closed everyone may look.
"""

from __future__ import annotations

import random

import pytest

from infra.projections import MatchSummaries, ProjectionRunner
from infra.store import PostgresEventStore
from infra.vault import Vault
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from tests.api.conftest import alice_against_bots, register
from tests.contract.match_support import play_out

pytestmark = [pytest.mark.db, pytest.mark.redis]

BODY = {"name": "Sealed", "game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 1}}


async def with_role(client, pool, role: str):
    player = await register(client, role)
    await pool.execute("UPDATE players SET role = $2 WHERE player_id = $1", player.player_id, role)
    return player


async def reads(client, match_id: str, player, stream: bool = False) -> dict[str, int]:
    """What each plain match route answers this reader: status codes by route (the live
    stream only where it is refused: an accepted one would not end before its match)."""
    out = {}
    routes = [("view", ""), ("events", "/events?after=0"), ("record", "/record"), ("export", "/export")]
    for name, path in routes + ([("stream", "/stream?after=0")] if stream else []):
        answer = await client.get(f"/v1/matches/{match_id}{path}", headers=player.headers)
        out[name] = answer.status_code
        if answer.status_code == 403:
            assert answer.json()["code"] in ("board_sealed", "forbidden"), answer.text
    return out


async def listed(client, pool, match_id: str, reader) -> dict:
    """The match as `GET /v1/matches?status=finished` shows it to `reader` (the summaries
    read model caught up first: no projector runs beside this test client)."""
    store, summaries = PostgresEventStore(pool), MatchSummaries()
    runner = ProjectionRunner(store)
    await runner.ensure(summaries)
    await store.settle()
    await runner.catch_up(summaries)
    rows = (await client.get("/v1/matches?status=finished&limit=200", headers=reader.headers)).json()
    return next(row for row in rows if row["match_id"] == match_id)


async def test_another_tables_board_is_sealed_until_the_round_closes(client, pool) -> None:
    owner, admin = await with_role(client, pool, "organiser"), await with_role(client, pool, "admin")
    alice, outsider = await register(client), await register(client)
    tid, (alices_table, other_table) = await alice_against_bots(client, owner, alice, BODY)
    store = PostgresEventStore(pool)
    svc = TournamentService(store, MatchService(store, Vault(pool)))

    # Table 2 is being played: the same board Alice holds at table 1.
    sealed = {"view": 403, "events": 403, "record": 403, "stream": 403, "export": 403}
    assert await reads(client, other_table, alice, stream=True) == sealed
    assert await reads(client, other_table, outsider, stream=True) == sealed
    # ...and still once it has finished there: Alice's table has not.
    await play_out(svc.matches, other_table, random.Random(3))
    await svc.advance(tid)
    assert not (await svc.load(tid)).current.closed
    assert await reads(client, other_table, alice, stream=True) == sealed
    assert await reads(client, other_table, outsider, stream=True) == sealed
    # The list of finished matches names the table but not its result...
    for reader in (alice, outsider):
        row = await listed(client, pool, other_table, reader)
        assert row["sealed"] and row["score"] is row["winner"] is row["deals"] is row["version"] is None, row
    # ...which its organiser sees.
    assert (await listed(client, pool, other_table, owner))["score"] is not None
    # Alice's own table is hers; the outsider may not watch it either.
    own = await reads(client, alices_table, alice)
    assert own["view"] == own["events"] == 200 and own["record"] == 403     # the record waits for the round
    assert (await reads(client, alices_table, outsider))["events"] == 403
    # The organiser and an admin review everything.
    for reviewer in (owner, admin):
        seen = await reads(client, other_table, reviewer)
        assert seen["view"] == seen["events"] == seen["export"] == 200, seen
    events = (await client.get(f"/v1/matches/{other_table}/events", headers=owner.headers)).json()["events"]
    assert any(e["event"] and e["event"].get("type") == "card_played" for e in events)

    # The round closes at every table: the boards are public.
    await play_out(svc.matches, alices_table, random.Random(4))
    assert (await svc.advance(tid)).status == "closed"
    for reader in (alice, outsider):
        seen = await reads(client, other_table, reader)
        assert seen["view"] == seen["events"] == seen["record"] == seen["export"] == 200, seen
        row = await listed(client, pool, other_table, reader)
        assert "sealed" not in row and row["score"] is not None and row["version"] > 0, row
    deals = (await client.get(f"/v1/matches/{other_table}/record", headers=outsider.headers)).json()["deals"]
    assert len(deals) == 1 and len(deals[0]["deck"]) == 32


async def test_an_ordinary_match_stays_open_to_spectators(client) -> None:
    from tests.api.conftest import seated_match

    match_id, _ = await seated_match(client, "belote", {"deals": 1})
    outsider = await register(client)
    seen = await reads(client, match_id, outsider)
    assert seen["view"] == seen["events"] == 200
