"""Tournaments over HTTP: an organiser creates, registers house-bot entries and starts; a
non-organiser is refused; players register themselves; a manual pairing is all or nothing;
results and standings are exported as JSON and CSV once the round has closed."""

from __future__ import annotations

import random

import pytest

from infra.store import PostgresEventStore
from infra.vault import Vault
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from tests.api.conftest import register
from tests.contract.match_support import play_out

pytestmark = [pytest.mark.db, pytest.mark.redis]


async def organiser(client, pool):
    player = await register(client, "organiser")
    await pool.execute("UPDATE players SET role = 'organiser' WHERE player_id = $1", player.player_id)
    return player


BODY = {"name": "Friday Swiss", "game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 1}}


async def test_a_non_organiser_is_refused(client, pool) -> None:
    player = await register(client)
    refused = await client.post("/v1/tournaments", json=BODY, headers=player.headers)
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    owner, other = await organiser(client, pool), await organiser(client, pool)
    created = await client.post("/v1/tournaments", json=BODY, headers=owner.headers)
    assert created.status_code == 201, created.text
    tid = created.json()["tournament_id"]
    for path in ("start", "pairings"):
        body = {"round": 1, "tables": []} if path == "pairings" else None
        answer = await client.post(f"/v1/tournaments/{tid}/{path}", json=body, headers=other.headers)
        assert answer.status_code == 403, answer.text
        answer = await client.post(f"/v1/tournaments/{tid}/{path}", json=body, headers=player.headers)
        assert answer.status_code == 403, answer.text
    bots = await client.post(f"/v1/tournaments/{tid}/entries", json={"players": ["bot:random", "bot:random"]},
                             headers=player.headers)
    assert bots.status_code == 403
    unknown = await client.get("/v1/tournaments/nope", headers=player.headers)
    assert unknown.status_code == 404


async def test_organiser_runs_a_tournament_over_http(client, pool) -> None:
    owner, alice, bob = await organiser(client, pool), await register(client), await register(client)
    tid = (await client.post("/v1/tournaments", json=BODY, headers=owner.headers)).json()["tournament_id"]
    mine = await client.post(f"/v1/tournaments/{tid}/entries", json={"players": [alice.player_id, bob.player_id],
                                                                      "name": "A&B"}, headers=alice.headers)
    assert mine.status_code == 201, mine.text
    twice = await client.post(f"/v1/tournaments/{tid}/entries", json={"players": [bob.player_id]},
                              headers=bob.headers)
    assert twice.status_code == 409 and twice.json()["code"] == "already_registered"
    gone = await client.delete(f"/v1/tournaments/{tid}/entries/{mine.json()['entry_id']}", headers=bob.headers)
    assert gone.status_code == 200, gone.text
    entries = []
    for _ in range(4):
        answer = await client.post(f"/v1/tournaments/{tid}/entries", json={"players": ["bot:random", "bot:random"]},
                                   headers=owner.headers)
        entries.append(answer.json()["entry_id"])
    bad = await client.post(f"/v1/tournaments/{tid}/pairings", headers=owner.headers,
                            json={"round": 1, "tables": [[entries[0], entries[1]]]})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_pairing" and "left out" in bad.json()["message"]
    good = await client.post(f"/v1/tournaments/{tid}/pairings", headers=owner.headers,
                             json={"round": 1, "tables": [[entries[0], entries[3]], [entries[1], entries[2]]]})
    assert good.status_code == 200, good.text
    started = await client.post(f"/v1/tournaments/{tid}/start", headers=owner.headers)
    assert started.status_code == 200, started.text
    rnd = started.json()["rounds"][0]
    assert rnd["manual"] and [(t["ns"], t["ew"]) for t in rnd["tables"]] == [(entries[0], entries[3]),
                                                                             (entries[1], entries[2])]
    assert started.json()["commitment"]
    store = PostgresEventStore(pool)
    svc = TournamentService(store, MatchService(store, Vault(pool)))
    first = rnd["tables"][0]["match_id"]
    await play_out(svc.matches, first, random.Random(4))
    await svc.advance(tid)
    seen = (await client.get(f"/v1/tournaments/{tid}", headers=alice.headers)).json()["rounds"][0]
    assert all(t["result"] is None for t in seen["tables"]) and seen["seeds"] == {}   # hidden: table 2 still plays
    assert (await client.get(f"/v1/tournaments/{tid}/results", headers=alice.headers)).json() == []
    organiser_view = (await client.get(f"/v1/tournaments/{tid}/results", headers=owner.headers)).json()
    assert len(organiser_view) == 1
    await play_out(svc.matches, rnd["tables"][1]["match_id"], random.Random(5))
    await svc.advance(tid)
    seen = (await client.get(f"/v1/tournaments/{tid}", headers=alice.headers)).json()
    assert seen["status"] == "closed" and set(seen["rounds"][0]["seeds"]) == {"1"}
    standings = (await client.get(f"/v1/tournaments/{tid}/standings", headers=alice.headers)).json()
    assert len(standings["overall"]) == 5 and standings["by_round"]["1"] == standings["overall"]
    exported = await client.get(f"/v1/tournaments/{tid}/export?format=csv", headers=alice.headers)
    assert exported.status_code == 200 and exported.headers["content-type"] == "text/csv; charset=utf-8"
    assert exported.text.splitlines()[0].startswith("place,entry,name,points")
    as_json = (await client.get(f"/v1/tournaments/{tid}/export", headers=alice.headers)).json()
    assert as_json["standings"] == standings["overall"]
    spec = (await client.get("/schema/openapi.json")).json()
    assert "/v1/tournaments/{tournament_id}/standings" in spec["paths"]


async def test_the_no_show_grace_has_a_default_and_bounds(client, pool) -> None:
    owner = await organiser(client, pool)
    default = await client.post("/v1/tournaments", json=BODY, headers=owner.headers)
    assert default.status_code == 201 and default.json()["no_show_grace"] == 600
    chosen = await client.post("/v1/tournaments", json={**BODY, "no_show_grace": 0}, headers=owner.headers)
    assert chosen.status_code == 201 and chosen.json()["no_show_grace"] == 0
    bad = await client.post("/v1/tournaments", json={**BODY, "no_show_grace": -1}, headers=owner.headers)
    assert bad.status_code == 400 and {"code", "message", "details"} <= set(bad.json())


async def test_the_bots_are_a_typed_choice(client, pool) -> None:
    owner = await organiser(client, pool)
    chosen = await client.post("/v1/tournaments", json={**BODY, "bots": {"level": "expert", "standin": "master"}},
                               headers=owner.headers)
    assert chosen.status_code == 201, chosen.text
    assert chosen.json()["bots"] == {"level": "expert", "fill": True, "standin": "master"}
    for bots in ({"level": "grandmaster"}, {"standin": "human"}, {"levels": "basic"}, {"level": 3}):
        bad = await client.post("/v1/tournaments", json={**BODY, "bots": bots}, headers=owner.headers)
        assert bad.status_code == 400 and bad.json()["code"] == "invalid_field", (bots, bad.text)


async def test_boards_imported_as_a_match_record(client, pool) -> None:
    from tests.unit.tournaments.test_tournament_boards import record

    owner = await organiser(client, pool)
    rec = record(2)
    created = await client.post("/v1/tournaments", json={**BODY, "boards": rec}, headers=owner.headers)
    assert created.status_code == 201, created.text
    assert created.json()["boards"] == "record" and "deck" not in created.text
    rec["deals"][1]["deck"] = rec["deals"][1]["deck"][:-1]
    bad = await client.post("/v1/tournaments", json={**BODY, "boards": rec}, headers=owner.headers)
    assert bad.status_code == 400 and bad.json()["code"] == "bad_deck"
    assert bad.json()["details"]["field"] == "$.boards.deals[1]"
    other = await client.post("/v1/tournaments", json={**BODY, "boards": record(2, game="cinch")},
                              headers=owner.headers)
    assert other.status_code == 400 and other.json()["code"] == "bad_record"
    tid = created.json()["tournament_id"]
    short = await client.post("/v1/tournaments", json={**BODY, "rounds": 3, "boards": record(2)},
                              headers=owner.headers)
    for _ in range(2):
        await client.post(f"/v1/tournaments/{short.json()['tournament_id']}/entries",
                          json={"players": ["bot:random", "bot:random"]}, headers=owner.headers)
    refused = await client.post(f"/v1/tournaments/{short.json()['tournament_id']}/start", headers=owner.headers)
    assert refused.status_code == 422 and refused.json()["code"] == "not_enough_boards"
    assert tid


async def test_an_individual_tournament_takes_entries_of_one_player(client, pool) -> None:
    owner, alice, bob = await organiser(client, pool), await register(client), await register(client)
    body = {"name": "Cut-throat", "game": "cinch", "format": "swiss", "rounds": 1,
            "options": {"mode": "individual", "deals": 1}}
    created = await client.post("/v1/tournaments", json=body, headers=owner.headers)
    assert created.status_code == 201 and created.json()["individual"] is True
    tid = created.json()["tournament_id"]
    pair = await client.post(f"/v1/tournaments/{tid}/entries", json={"players": [alice.player_id, bob.player_id]},
                             headers=alice.headers)
    assert pair.status_code == 422 and pair.json()["code"] == "bad_entry"
    document = (await client.get("/schema/openapi.json")).json()
    assert "422" in document["paths"]["/v1/tournaments/{tournament_id}/entries"]["post"]["responses"]   # as answered
    alone = await client.post(f"/v1/tournaments/{tid}/entries", json={"players": [alice.player_id]},
                              headers=alice.headers)
    assert alone.status_code == 201
    for _ in range(3):
        await client.post(f"/v1/tournaments/{tid}/entries", json={"players": ["bot:random"]}, headers=owner.headers)
    started = await client.post(f"/v1/tournaments/{tid}/start", headers=owner.headers)
    assert started.status_code == 200, started.text
    table = started.json()["rounds"][0]["tables"][0]
    assert table["ns"] is None and sorted(table["seats"]) == ["E", "N", "S", "W"]
    standings = (await client.get(f"/v1/tournaments/{tid}/standings", headers=alice.headers)).json()
    assert standings["tie_breaks"] == ["points", "diff"]
    robin = await client.post("/v1/tournaments", json={**body, "format": "round_robin"}, headers=owner.headers)
    assert robin.status_code == 422 and robin.json()["code"] == "bad_format"
