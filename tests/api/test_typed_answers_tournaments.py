"""The tournament routes answer what the served document says, field for field: every answer
of a tournament's life (created, entries in and out, paired by hand, started, a table's result
seen by its organiser only, the round closed, standings and the JSON export), an individual
tournament's tables of four seats and a duplicate's standings without tie-break, validated
against the document's schema for the route and status; and the probes. The examples the
document shows for these routes hold to the same schemas."""

from __future__ import annotations

import random

import pytest

from infra.store import PostgresEventStore
from infra.vault import Vault
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from tests.api.conftest import register
from tests.api.typed_answers import read_projected, served
from tests.contract.match_support import play_out
from tests.typed_contract import untyped_bodies

pytestmark = [pytest.mark.db, pytest.mark.redis]

T = "/v1/tournaments"
ONE = f"{T}/{{tournament_id}}"
ROUTES = {("get", T), ("get", f"{T}/mine"), ("post", T), ("get", ONE), ("post", f"{ONE}/entries"),
          ("delete", f"{ONE}/entries/{{entry_id}}"), ("post", f"{ONE}/start"), ("post", f"{ONE}/pairings"),
          ("get", f"{ONE}/results"), ("get", f"{ONE}/standings"), ("get", f"{ONE}/export"),
          ("get", f"{T}/formats"), ("get", "/v1/games"), ("post", f"{ONE}/cancel"), ("post", f"{ONE}/finish"), ("get", "/healthz"), ("get", "/readyz")}
BODY = {"name": "Typed Swiss", "game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 1},
        "bots": {"level": "basic"}, "schedule": "2030-12-04T20:00:00Z", "no_show_grace": 600}


async def organiser(client, pool):
    player = await register(client, "organiser")
    await pool.execute("UPDATE players SET role = 'organiser' WHERE player_id = $1", player.player_id)
    return player


async def test_the_documents_tournament_answers_are_typed_and_their_examples_hold(client) -> None:
    contract = await served(client)
    untyped = {k: v for k, v in untyped_bodies(contract.document).items()
               if any(k == f"{m.upper()} {p} {s}" for m, p in ROUTES for s in ("200", "201"))}
    assert untyped == {}
    assert contract.example_errors(ROUTES) == {}


async def test_a_tournament_answers_as_documented_through_its_life(client, pool) -> None:
    contract = await served(client)
    owner, alice, bob = await organiser(client, pool), await register(client, "Alice"), await register(client, "Bob")
    formats = contract.check(await client.get(f"{T}/formats", headers=alice.headers), "get", f"{T}/formats")
    assert "swiss" in [f["format"] for f in formats]
    described = contract.check(await client.get("/v1/games", headers=alice.headers), "get", "/v1/games")
    assert "belote" in [g["game"] for g in described]
    tid = contract.check(await client.post(T, json=BODY, headers=owner.headers), "post", T)["tournament_id"]
    contract.check(await client.get(f"{T}/{tid}", headers=alice.headers), "get", ONE)
    listed = await read_projected(client, pool, f"{T}/mine", owner, lambda rows: rows)
    rows = contract.check(listed, "get", f"{T}/mine")
    assert [r["tournament_id"] for r in rows] == [tid] and rows[0]["schedule"]
    contract.check(await client.get(T, headers=alice.headers, params={"limit": 3}), "get", T)
    mine = await client.post(f"{T}/{tid}/entries", json={"players": [alice.player_id, bob.player_id], "name": "A&B"},
                             headers=alice.headers)
    entry = contract.check(mine, "post", f"{ONE}/entries")["entry_id"]
    named = contract.check(await client.get(f"{T}/{tid}", headers=owner.headers), "get", ONE)["player_names"]
    assert named == {alice.player_id: "Alice", bob.player_id: "Bob"}             # who plays, by name
    gone = await client.delete(f"{T}/{tid}/entries/{entry}", headers=bob.headers)
    assert contract.check(gone, "delete", f"{ONE}/entries/{{entry_id}}") == {"entry_id": entry, "withdrawn": True}
    entries = []
    for _ in range(4):
        answer = await client.post(f"{T}/{tid}/entries", json={"players": ["bot:random", "bot:random"]},
                                   headers=owner.headers)
        entries.append(contract.check(answer, "post", f"{ONE}/entries")["entry_id"])
    paired = await client.post(f"{T}/{tid}/pairings", headers=owner.headers,
                               json={"round": 1, "tables": [[entries[0], entries[3]], [entries[1], entries[2]]]})
    contract.check(paired, "post", f"{ONE}/pairings")
    started = contract.check(await client.post(f"{T}/{tid}/start", headers=owner.headers), "post", f"{ONE}/start")
    assert contract.check(await client.get(f"{T}/{tid}/results", headers=owner.headers), "get",
                          f"{ONE}/results") == []
    store = PostgresEventStore(pool)
    svc = TournamentService(store, MatchService(store, Vault(pool)))
    tables = started["rounds"][0]["tables"]
    await play_out(svc.matches, tables[0]["match_id"], random.Random(4))
    await svc.advance(tid)
    shown = contract.check(await client.get(f"{T}/{tid}", headers=owner.headers), "get", ONE)
    assert shown["rounds"][0]["tables"][0]["result"]["type"] == "result_recorded"     # the organiser sees it
    hidden = contract.check(await client.get(f"{T}/{tid}", headers=alice.headers), "get", ONE)
    assert hidden["rounds"][0]["tables"][0]["result"] is None
    assert len(contract.check(await client.get(f"{T}/{tid}/results", headers=owner.headers), "get",
                              f"{ONE}/results")) == 1
    await play_out(svc.matches, tables[1]["match_id"], random.Random(5))
    await svc.advance(tid)
    closed = contract.check(await client.get(f"{T}/{tid}", headers=alice.headers), "get", ONE)
    assert closed["status"] == "closed" and closed["closed_reason"] == "completed" and closed["rounds"][0]["seeds"]
    assert len(contract.check(await client.get(f"{T}/{tid}/results", headers=alice.headers), "get",
                              f"{ONE}/results")) == 2
    standings = contract.check(await client.get(f"{T}/{tid}/standings", headers=alice.headers), "get",
                               f"{ONE}/standings")
    assert standings["by_round"]["1"] == standings["overall"]
    exported = contract.check(await client.get(f"{T}/{tid}/export", headers=alice.headers), "get", f"{ONE}/export")
    assert exported["standings"] == standings["overall"]
    rows = contract.check(await read_projected(client, pool, f"{T}/mine", owner,
                                                lambda rows: rows[0]["status"] == "closed"),
                          "get", f"{T}/mine")
    assert [(r["status"], r["entries"]) for r in rows] == [("closed", 4)]
    assert (await client.post(f"{T}/{tid}/cancel", headers=owner.headers)).status_code == 409   # it ran
    dropped = contract.check(await client.post(T, json=BODY, headers=owner.headers), "post", T)["tournament_id"]
    assert (await client.post(f"{T}/{dropped}/cancel", headers=alice.headers)).status_code == 403
    cancelled = contract.check(await client.post(f"{T}/{dropped}/cancel", headers=owner.headers), "post", f"{ONE}/cancel")
    assert (cancelled["status"], cancelled["closed_reason"]) == ("closed", "cancelled")
    again = await client.post(f"{T}/{dropped}/cancel", headers=owner.headers)
    assert (again.status_code, again.json()["code"]) == (409, "tournament_closed")


async def test_an_organiser_ends_a_swiss_with_the_round_in_play(client, pool) -> None:
    contract = await served(client)
    owner, alice = await organiser(client, pool), await register(client, "Alice")
    tid = contract.check(await client.post(T, json={**BODY, "rounds": 3}, headers=owner.headers), "post",
                         T)["tournament_id"]
    early = await client.post(f"{T}/{tid}/finish", headers=owner.headers)
    assert (early.status_code, early.json()["code"]) == (409, "not_started")
    for _ in range(4):
        await client.post(f"{T}/{tid}/entries", json={"players": ["bot:random", "bot:random"]}, headers=owner.headers)
    started = contract.check(await client.post(f"{T}/{tid}/start", headers=owner.headers), "post", f"{ONE}/start")
    assert (await client.post(f"{T}/{tid}/finish", headers=alice.headers)).status_code == 403
    ending = contract.check(await client.post(f"{T}/{tid}/finish", headers=owner.headers), "post", f"{ONE}/finish")
    assert (ending["status"], ending["rounds_planned"]) == ("running", 1)
    again = contract.check(await client.post(f"{T}/{tid}/finish", headers=owner.headers), "post", f"{ONE}/finish")
    assert again["rounds_planned"] == 1
    store = PostgresEventStore(pool)
    svc = TournamentService(store, MatchService(store, Vault(pool)))
    for seed, table in enumerate(started["rounds"][0]["tables"]):
        await play_out(svc.matches, table["match_id"], random.Random(seed))
    await svc.advance(tid)
    closed = contract.check(await client.get(f"{T}/{tid}", headers=alice.headers), "get", ONE)
    assert (closed["status"], closed["closed_reason"], len(closed["rounds"])) == ("closed", "finished_early", 1)
    standings = contract.check(await client.get(f"{T}/{tid}/standings", headers=alice.headers), "get",
                               f"{ONE}/standings")
    assert list(standings["by_round"]) == ["1"]
    late = await client.post(f"{T}/{tid}/finish", headers=owner.headers)
    assert (late.status_code, late.json()["code"]) == (409, "tournament_closed")


async def test_individual_and_duplicate_tournaments_answer_as_documented(client, pool) -> None:
    contract = await served(client)
    owner, alice = await organiser(client, pool), await register(client)
    body = {"name": "Cut-throat", "game": "cinch", "format": "swiss", "rounds": 1,
            "options": {"mode": "individual", "deals": 1}}
    tid = contract.check(await client.post(T, json=body, headers=owner.headers), "post", T)["tournament_id"]
    contract.check(await client.post(f"{T}/{tid}/entries", json={"players": [alice.player_id]},
                                     headers=alice.headers), "post", f"{ONE}/entries")
    for _ in range(3):
        await client.post(f"{T}/{tid}/entries", json={"players": ["bot:random"]}, headers=owner.headers)
    started = contract.check(await client.post(f"{T}/{tid}/start", headers=owner.headers), "post", f"{ONE}/start")
    assert started["rounds"][0]["tables"][0]["ns"] is None and started["rounds"][0]["tables"][0]["seats"]
    contract.check(await client.get(f"{T}/{tid}/standings", headers=alice.headers), "get", f"{ONE}/standings")

    duplicate = {"name": "Duplicate night", "game": "belote", "format": "duplicate", "rounds": 1,
                 "options": {"variant": "coinche", "deals": 1}}
    tid = contract.check(await client.post(T, json=duplicate, headers=owner.headers), "post", T)["tournament_id"]
    for _ in range(4):
        await client.post(f"{T}/{tid}/entries", json={"players": ["bot:random", "bot:random"]}, headers=owner.headers)
    started = contract.check(await client.post(f"{T}/{tid}/start", headers=owner.headers), "post", f"{ONE}/start")
    store = PostgresEventStore(pool)
    svc = TournamentService(store, MatchService(store, Vault(pool)))
    for seed, table in enumerate(started["rounds"][0]["tables"]):
        await play_out(svc.matches, table["match_id"], random.Random(seed))
    await svc.advance(tid)
    standings = contract.check(await client.get(f"{T}/{tid}/standings", headers=alice.headers), "get",
                               f"{ONE}/standings")
    assert standings["overall"] and all(line["tiebreak"] is None for line in standings["overall"])
    contract.check(await client.get(f"{T}/{tid}/results", headers=alice.headers), "get", f"{ONE}/results")
    contract.check(await client.get(f"{T}/{tid}/export", headers=alice.headers), "get", f"{ONE}/export")


async def test_the_probes_answer_as_documented(client) -> None:
    contract = await served(client)
    assert contract.check(await client.get("/healthz"), "get", "/healthz") == {"status": "ok"}
    ready = contract.check(await client.get("/readyz"), "get", "/readyz")
    assert ready["status"] == "ok" and set(ready["checks"]) == {"postgres", "redis"}
