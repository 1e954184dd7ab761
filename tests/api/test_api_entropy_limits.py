"""One entropy limit on every input (creation, seat, the entropy route, rematch), checked
before anything is written, and the bounds of a new match's `deals` and `target`."""

from __future__ import annotations

import uuid

import pytest

from infra.store import create_pool
from infra.vault import Vault
from tests.api.conftest import finish, register, seated_match

pytestmark = [pytest.mark.db, pytest.mark.redis]
OPEN = {"N": "me", "E": "open", "S": "open", "W": "open"}
TOO_LONG = "é" * 513          # 513 characters, 1026 bytes in UTF-8
LONGEST = "é" * 512           # 1024 bytes


@pytest.fixture(scope="module")
async def kept(client, database_url: str):
    """The vault, read on the test's own pool (the app's runs on the client's loop)."""
    pool = await create_pool(database_url, max_size=2)
    yield Vault(pool)
    await pool.close()


async def test_entropy_over_1024_bytes_is_refused_at_creation_and_1024_plays(client) -> None:
    creator = await register(client)
    refused = await client.post("/v1/matches", headers=creator.headers,
                                json={"game": "belote", "seats": OPEN, "entropy": TOO_LONG})
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_entropy"), refused.text
    assert refused.json()["details"]["field"] == "$.entropy"
    created = await client.post("/v1/matches", headers=creator.headers,
                                json={"game": "belote", "options": {"deals": 1}, "entropy": LONGEST,
                                      "seats": {"N": "me", "E": "bot:random", "S": "bot:random", "W": "open"}})
    assert created.status_code == 201, created.text
    last = await register(client)
    match_id = created.json()["match_id"]
    taken = await client.post(f"/v1/matches/{match_id}/seats/W", headers=last.headers, json={})
    assert taken.status_code == 200, taken.text          # the last seat starts the match: it deals
    assert (await client.get(f"/v1/matches/{match_id}", headers=last.headers)).json()["status"] == "playing"


@pytest.mark.parametrize("entropy,code", [(TOO_LONG, "bad_entropy"), ("a\x00b", "bad_entropy"), (7, "invalid_field")])
async def test_a_seat_gets_the_same_limit_in_bytes(client, kept, entropy, code) -> None:
    creator, joiner = await register(client), await register(client)
    created = await client.post("/v1/matches", headers=creator.headers, json={"game": "cinch", "seats": OPEN})
    match_id = created.json()["match_id"]
    refused = await client.post(f"/v1/matches/{match_id}/seats/E", headers=joiner.headers, json={"entropy": entropy})
    assert (refused.status_code, refused.json()["code"]) == (400, code), refused.text
    assert refused.json()["details"]["field"] == "$.entropy"
    assert (await client.get(f"/v1/matches/{match_id}", headers=joiner.headers)).json()["seats"]["E"] is None
    # 300 characters are 300 bytes: within the one limit (a count of 256 characters refused them).
    taken = await client.post(f"/v1/matches/{match_id}/seats/E", headers=joiner.headers, json={"entropy": "x" * 300})
    assert taken.status_code == 200, taken.text
    assert (await kept.entropy(match_id))["E"] == "x" * 300


async def test_the_empty_string_is_entropy_and_differs_from_none(client, kept) -> None:
    creator = await register(client)
    created = await client.post("/v1/matches", headers=creator.headers,
                                json={"game": "belote", "seats": OPEN, "entropy": ""})
    assert created.status_code == 201, created.text
    assert await kept.entropy(created.json()["match_id"]) == {"N": ""}
    joiner = await register(client)
    match_id = created.json()["match_id"]
    assert (await client.post(f"/v1/matches/{match_id}/seats/E", headers=joiner.headers,
                              json={"entropy": ""})).status_code == 200
    assert await kept.entropy(match_id) == {"N": "", "E": ""}


async def test_a_creator_without_a_seat_who_sends_entropy_gets_a_400(client) -> None:
    creator = await register(client)
    response = await client.post("/v1/matches", headers=creator.headers,
                                 json={"game": "belote", "entropy": "mine",
                                       "seats": {"N": "open", "E": "open", "S": "open", "W": "open"}})
    assert (response.status_code, response.json()["code"]) == (400, "bad_entropy"), response.text
    assert response.json()["details"]["field"] == "$.entropy"


async def test_the_entropy_route_and_the_rematch_take_the_same_limit(client, kept) -> None:
    match_id, players = await seated_match(client, "cinch", {"deals": 1})
    url = f"/v1/matches/{match_id}/seats/E/entropy"
    given = await client.put(url, headers=players["E"].headers, json={"entropy": "fresh"})
    assert given.status_code == 200, given.text
    assert given.json() == {"match_id": match_id, "seat": "E", "chain": 1}
    assert (await kept.entropy(match_id))["E"] == "fresh"
    too_long = await client.put(url, headers=players["E"].headers, json={"entropy": TOO_LONG})
    assert (too_long.status_code, too_long.json()["code"]) == (400, "bad_entropy")
    not_mine = await client.put(url, headers=players["N"].headers, json={"entropy": "x"})
    assert (not_mine.status_code, not_mine.json()["code"]) == (422, "not_your_seat")
    await finish(client, match_id, players)
    over = await client.put(url, headers=players["E"].headers, json={"entropy": "late"})
    assert (over.status_code, over.json()["code"]) == (422, "match_over")
    refused = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["N"].headers,
                                json={"entropy": TOO_LONG})
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_entropy")
    made = await client.post(f"/v1/matches/{match_id}/rematch", headers=players["N"].headers,
                             json={"entropy": "again"})
    assert made.status_code == 201, made.text
    assert (await kept.entropy(made.json()["match_id"]))["N"] == "again"


@pytest.mark.parametrize("game,options,field", [
    ("belote", {"deals": 1001}, "$.options.deals"),
    ("cinch", {"deals": 10**9}, "$.options.deals"),
    ("belote", {"target": 10_001}, "$.options.target"),
    ("cinch", {"target": 501}, "$.options.target"),
    ("five_hundred", {"target": 5_001}, "$.options.target"),
])
async def test_deals_and_target_are_bounded_at_creation(client, game, options, field) -> None:
    player = await register(client)
    response = await client.post("/v1/matches", headers=player.headers,
                                 json={"game": game, "options": options, "seats": OPEN})
    assert (response.status_code, response.json()["code"]) == (400, "bad_option"), response.text
    assert response.json()["details"]["field"] == field


async def test_the_bounds_themselves_are_accepted(client) -> None:
    player = await register(client)
    for game, options in (("belote", {"deals": 1000}), ("belote", {"target": 10_000}), ("cinch", {"target": 500}),
                          ("five_hundred", {"target": 5_000})):
        response = await client.post("/v1/matches", headers=player.headers,
                                     json={"game": game, "options": options, "seats": OPEN,
                                           "command_id": str(uuid.uuid4())})
        assert response.status_code == 201, (game, response.text)


async def test_the_last_seat_is_answered_for_what_it_did_when_the_start_fails(client, kept) -> None:
    creator, last = await register(client), await register(client)
    created = await client.post("/v1/matches", headers=creator.headers,
                                json={"game": "cinch", "options": {"deals": 1},
                                      "seats": {"N": "me", "E": "bot:basic", "S": "bot:basic", "W": "open"}})
    match_id = created.json()["match_id"]
    # A vault that no longer fits the match: its first deal cannot be dealt.
    await kept.pool.execute("UPDATE match_secrets SET chain_length = 0 WHERE match_id = $1", match_id)
    taken = await client.post(f"/v1/matches/{match_id}/seats/W", headers=last.headers, json={})
    assert taken.status_code == 200, taken.text                  # the seat was taken: not a 500
    assert [e["event"]["type"] for e in taken.json()["events"]] == ["seat_taken"]
    table = await client.get(f"/v1/matches/{match_id}", headers=last.headers)
    assert table.json()["status"] == "open" and table.json()["seats"]["W"]["player_id"] == last.player_id
    await kept.pool.execute("UPDATE match_secrets SET chain_length = 1000 WHERE match_id = $1", match_id)
    started = await client.post(f"/v1/matches/{match_id}/start", headers=last.headers)
    assert started.status_code == 200, started.text
