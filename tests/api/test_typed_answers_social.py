"""The social routes answer what the served OpenAPI document says: every body of the
leaderboards, ratings, stats, invitations, follows, blocks and followed tables, taken for
real through their branches (an erased player's null name, a ratio with nothing to divide,
an invitation to any seat, a table being played and one sealed from the reader), is valid by
its route's response schema, and so is every example the document gives for them."""

from __future__ import annotations

import pytest

from infra.projections import Lobby, MatchSummaries, ProjectionRunner
from infra.projections.invitations import Invitations
from infra.projections.ratings import Ratings
from infra.projections.social import SocialTies
from infra.store import PostgresEventStore
from tests.api.typed_answers import check, check_examples, served
from tests.api.conftest import alice_against_bots, finish, register

pytestmark = [pytest.mark.db, pytest.mark.redis]
OPEN = {"N": "me", "E": "open", "S": "open", "W": "open"}
ROUTES = [("get", "/v1/leaderboards/{pool}", 200), ("get", "/v1/players/{player_id}/ratings", 200),
          ("get", "/v1/players/{player_id}/stats", 200), ("get", "/v1/invitations", 200),
          ("get", "/v1/invitations/{invitation_id}", 200), ("post", "/v1/matches/{match_id}/invitations", 201),
          ("post", "/v1/matches/{match_id}/challenges", 201), ("post", "/v1/invitations/{invitation_id}/decline", 200),
          ("post", "/v1/invitations/{invitation_id}/cancel", 200), ("get", "/v1/players/me/following", 200),
          ("get", "/v1/players/me/following/tables", 200), ("get", "/v1/players/me/blocks", 200)]


@pytest.fixture(scope="module")
async def doc(client):
    return await served(client)


async def caught_up(pool) -> None:
    """The read models these routes read, caught up by hand (no projector runs here)."""
    store = PostgresEventStore(pool)
    runner = ProjectionRunner(store)
    projections = (Lobby(), MatchSummaries(), Invitations(), SocialTies(), Ratings())
    for projection in projections:
        await runner.ensure(projection)
    await store.settle()
    for projection in projections:
        await runner.catch_up(projection)


async def erase(client, player) -> None:
    assert (await client.delete(f"/v1/players/{player.player_id}", headers=player.headers)).status_code == 204


async def test_the_documents_examples_are_valid_by_their_schemas(doc) -> None:
    assert check_examples(doc, ROUTES) >= len(ROUTES)


async def test_leaderboard_ratings_and_stats(client, pool, doc) -> None:
    players = {seat: await register(client, f"typed-{seat}") for seat in "NESW"}
    made = await client.post("/v1/matches", headers=players["N"].headers,
                             json={"game": "cinch", "options": {"deals": 1}, "seats": OPEN, "rated": True})
    assert made.status_code == 201, made.text
    match_id = made.json()["match_id"]
    for seat in "ESW":
        assert (await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=players[seat].headers,
                                  json={})).status_code == 200
    await finish(client, match_id, players)
    await erase(client, players["W"])
    await caught_up(pool)
    me = players["N"]

    def get(url: str):
        return client.get(url, headers=me.headers)

    board = check(doc, "get", "/v1/leaderboards/{pool}",
                  await get("/v1/leaderboards/cinch_partnership?limit=200"), 200)
    erased = [e for e in board["entries"] if e["player_id"] == players["W"].player_id]
    assert erased and erased[0]["name"] is None
    beyond = check(doc, "get", "/v1/leaderboards/{pool}",
                   await get(f"/v1/leaderboards/cinch_partnership?offset={board['total']}"), 200)
    assert beyond["entries"] == []
    check(doc, "get", "/v1/leaderboards/{pool}", await get("/v1/leaderboards/belote_sans_atout?limit=1"), 200)

    ratios = []
    for player in players.values():
        rated = check(doc, "get", "/v1/players/{player_id}/ratings",
                      await get(f"/v1/players/{player.player_id}/ratings"), 200)
        assert [h["match_id"] for h in rated["pools"][0]["history"]] == [match_id]
        stats = check(doc, "get", "/v1/players/{player_id}/stats",
                      await get(f"/v1/players/{player.player_id}/stats"), 200)
        ratios.append(stats["pools"][0]["made_percent"])
    assert rated["name"] is None                # W, erased
    assert None in ratios and any(r is not None for r in ratios), ratios   # took no contract / took one
    newcomer = await register(client)
    assert check(doc, "get", "/v1/players/{player_id}/ratings",
                 await get(f"/v1/players/{newcomer.player_id}/ratings"), 200)["pools"] == []
    assert check(doc, "get", "/v1/players/{player_id}/stats",
                 await get(f"/v1/players/{newcomer.player_id}/stats"), 200)["pools"] == []


async def test_invitations_of_every_kind_and_status(client, pool, doc) -> None:
    host, a, b, c = [await register(client, n) for n in ("Typed host", "A", "B", "C")]
    made = await client.post("/v1/matches", headers=host.headers,
                             json={"game": "belote", "options": {"deals": 1}, "seats": OPEN})
    match_id = made.json()["match_id"]
    invitations = "/v1/matches/{match_id}/invitations"
    to_a = check(doc, "post", invitations, await client.post(
        f"/v1/matches/{match_id}/invitations", headers=host.headers, json={"player_id": a.player_id}), 201)
    assert to_a["invitees"] == {a.player_id: None}
    to_b = check(doc, "post", invitations, await client.post(
        f"/v1/matches/{match_id}/invitations", headers=host.headers, json={"player_id": b.player_id, "seat": "S"}),
        201)
    pair = check(doc, "post", "/v1/matches/{match_id}/challenges", await client.post(
        f"/v1/matches/{match_id}/challenges", headers=host.headers, json={"players": [b.player_id, c.player_id]}),
        201)
    accepted = await client.post(f"/v1/invitations/{to_a['invitation_id']}/accept", headers=a.headers)
    assert accepted.status_code == 200, accepted.text
    one = "/v1/invitations/{invitation_id}"
    check(doc, "post", one + "/decline", await client.post(f"/v1/invitations/{to_b['invitation_id']}/decline",
                                                           headers=b.headers, json={}), 200)
    assert (await client.post(f"/v1/invitations/{pair['invitation_id']}/accept", headers=c.headers)).status_code \
        == 200
    check(doc, "get", one, await client.get(f"/v1/invitations/{pair['invitation_id']}", headers=host.headers), 200)
    await caught_up(pool)
    for player, query in ((host, "?role=sent"), (b, ""), (c, "?status=pending"), (a, "?status=accepted"),
                          (host, "?role=sent&limit=1")):
        rows = check(doc, "get", "/v1/invitations", await client.get(f"/v1/invitations{query}",
                                                                     headers=player.headers), 200)
        assert rows, (player, query)
    half = [r for r in check(doc, "get", "/v1/invitations", await client.get(
        "/v1/invitations?role=sent", headers=host.headers), 200) if r["kind"] == "challenge"]
    assert half[0]["accepted"] == {c.player_id: half[0]["invitees"][c.player_id]}
    cancelled = check(doc, "post", one + "/cancel", await client.post(
        f"/v1/invitations/{pair['invitation_id']}/cancel", headers=host.headers, json={}), 200)
    assert cancelled["status"] == "cancelled"


async def test_follows_blocks_and_the_followed_tables(client, pool, doc) -> None:
    fan, star, gone, pest = [await register(client, n) for n in ("Typed fan", "Star", "Gone", "Pest")]
    for other in (star, gone):
        assert (await client.post("/v1/players/me/following", headers=fan.headers,
                                  json={"player_id": other.player_id})).status_code == 200
    assert (await client.post("/v1/players/me/blocks", headers=fan.headers,
                              json={"player_id": pest.player_id})).status_code == 200
    await erase(client, gone)
    open_table = await client.post("/v1/matches", headers=star.headers, json={
        "game": "belote", "options": {"deals": 1, "variant": "coinche"},
        "seats": {"N": "me", "E": "bot:basic", "S": "open", "W": "open"}})
    assert open_table.status_code == 201, open_table.text
    played = await client.post("/v1/matches", headers=star.headers, json={
        "game": "five_hundred", "options": {"deals": 2, "misere": False},
        "seats": {"N": "me", "E": "bot:random", "S": "bot:expert", "W": "bot:basic"}})
    assert played.status_code == 201, played.text
    # a tournament table the fan may not watch: another player's board of an open round
    owner, alice = await register(client, "Typed organiser"), await register(client, "Alice")
    await pool.execute("UPDATE players SET role = 'organiser' WHERE player_id = $1", owner.player_id)
    assert (await client.post("/v1/players/me/following", headers=fan.headers,
                              json={"player_id": alice.player_id})).status_code == 200
    await alice_against_bots(client, owner, alice, {"name": "Typed", "game": "belote", "format": "swiss",
                                                    "rounds": 1, "options": {"deals": 1}})
    await caught_up(pool)

    follows = check(doc, "get", "/v1/players/me/following", await client.get(
        "/v1/players/me/following", headers=fan.headers), 200)
    assert {r["player_id"]: r["name"] for r in follows}[gone.player_id] is None
    check(doc, "get", "/v1/players/me/following", await client.get(
        "/v1/players/me/following?limit=1", headers=fan.headers), 200)
    blocks = check(doc, "get", "/v1/players/me/blocks", await client.get(
        "/v1/players/me/blocks", headers=fan.headers), 200)
    assert [r["player_id"] for r in blocks] == [pest.player_id]

    tables = "/v1/players/me/following/tables"
    waiting = check(doc, "get", tables, await client.get(tables, headers=fan.headers), 200)
    assert [r["free_seats"] for r in waiting if r["match_id"] == open_table.json()["match_id"]] == [2]
    playing = check(doc, "get", tables, await client.get(f"{tables}?status=playing", headers=fan.headers), 200)
    shown = {r["match_id"]: r for r in playing}
    assert shown[played.json()["match_id"]]["version"] > 0 and "sealed" not in shown[played.json()["match_id"]]
    sealed = [r for r in playing if r.get("sealed")]
    assert sealed and sealed[0]["score"] is None and sealed[0]["version"] is None, playing
