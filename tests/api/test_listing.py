"""Lists page: `limit` rows newest first, the next page in a `Link` header, the bodies arrays.

Tournaments are listed (all, by status, mine: organised or played in) and the match lists page
the same way; a cursor names the last row's key, so following `Link` to the end gives every
row once, in order. The read models are caught up by hand (no projector runs beside this
test client).
"""

from __future__ import annotations

import asyncio
import re
import pytest

from infra.projections import MatchSummaries, ProjectionRunner
from infra.projections.standings import TournamentStandings
from infra.store import PostgresEventStore
from tests.api.conftest import register

pytestmark = [pytest.mark.db, pytest.mark.redis]

BODY = {"game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 1}}


async def caught_up(pool, *projections) -> None:
    store = PostgresEventStore(pool)
    runner = ProjectionRunner(store)
    for projection in projections:
        await runner.ensure(projection)
    await store.settle()
    for projection in projections:
        await runner.catch_up(projection)


async def pages(client, path: str, headers) -> list[list[dict]]:
    """Every page of a list, following `Link: <…>; rel="next"` until there is none."""
    out = []
    while path:
        answer = await client.get(path, headers=headers)
        assert answer.status_code == 200, answer.text
        assert isinstance(answer.json(), list)
        out.append(answer.json())
        link = answer.headers.get("link")
        found = re.fullmatch(r'<([^>]+)>; rel="next"', link) if link else None
        assert link is None or found, link
        path = found.group(1) if found else None
    return out


async def test_tournaments_are_listed_newest_first_in_pages(client, pool) -> None:
    owner, alice = await register(client, "Owner"), await register(client, "Alice")
    await pool.execute("UPDATE players SET role = 'organiser' WHERE player_id = $1", owner.player_id)
    await asyncio.sleep(2.1)                      # the app's token cache
    made = []
    for n in range(5):
        answer = await client.post("/v1/tournaments", json={**BODY, "name": f"Cup {n}"}, headers=owner.headers)
        assert answer.status_code == 201, answer.text
        made.append(answer.json()["tournament_id"])
    entry = await client.post(f"/v1/tournaments/{made[1]}/entries", json={"players": [alice.player_id]},
                              headers=alice.headers)
    assert entry.status_code == 201, entry.text
    await caught_up(pool, TournamentStandings())

    mine = await pages(client, "/v1/tournaments/mine?limit=2", owner.headers)
    assert [len(p) for p in mine] == [2, 2, 1]
    assert [t["tournament_id"] for p in mine for t in p] == made[::-1]
    first = mine[0][0]
    assert first["name"] == "Cup 4" and first["status"] == "registering" and first["organiser"] == owner.player_id
    assert (await pages(client, "/v1/tournaments/mine", alice.headers))[0][0]["tournament_id"] == made[1]
    assert mine[-1][0]["entries"] == 0 and [t for p in mine for t in p if t["tournament_id"] == made[1]][0][
        "entries"] == 1

    everyone = [t["tournament_id"] for p in await pages(client, "/v1/tournaments?limit=3", alice.headers) for t in p]
    assert len(everyone) == len(set(everyone)) and [t for t in everyone if t in made] == made[::-1]
    registering = (await client.get("/v1/tournaments?status=registering&limit=200", headers=alice.headers)).json()
    closed = (await client.get("/v1/tournaments?status=closed&limit=200", headers=alice.headers)).json()
    assert set(made) <= {t["tournament_id"] for t in registering}
    assert not set(made) & {t["tournament_id"] for t in closed}


async def test_my_matches_page_with_a_cursor(client, pool) -> None:
    me = await register(client, "Pager")
    made = []
    for _ in range(3):
        answer = await client.post("/v1/matches", headers=me.headers, json={
            "game": "cinch", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
        assert answer.status_code == 201, answer.text
        made.append(answer.json()["match_id"])
    await caught_up(pool, MatchSummaries())
    mine = await pages(client, "/v1/matches/mine?limit=2", me.headers)
    assert [len(p) for p in mine] == [2, 1]
    assert [m["match_id"] for p in mine for m in p] == made[::-1]


async def test_a_cursor_that_is_not_ours_is_a_400(client) -> None:
    me = await register(client)
    for path in ("/v1/tournaments", "/v1/tournaments/mine", "/v1/matches", "/v1/matches/mine"):
        for cursor in ("not-a-cursor", "W10", "x" * 201):
            answer = await client.get(f"{path}?cursor={cursor}", headers=me.headers)
            assert answer.status_code == 400, (path, cursor, answer.text)
            assert answer.json()["details"]["field"] == "cursor"
