"""Hints over HTTP (`GET /v1/matches/{id}/hint`): the expert's choice for the caller's seat.

The hint is for the seat to act and is one of its legal actions; two matches whose deals
differ only in cards the seat cannot see give the same hint; asking twice for one decision
answers the same hint, counted once; past the seat's allowance it is a 429; a tournament
table refuses (422), a caller without a seat too (403). Each hint is recorded in the
`hints-<id>` stream, the match stream's version does not move, and every seat's view
shows how many hints each seat used, never what they said.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from domain import match as rules
from domain.bots.hints import REASONS
from domain.cards import Seat
from domain.games import load
from infra.store import PostgresEventStore
from infra.vault import Vault
from services.http.app import create_app
from infra.ratelimit import RateLimit
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from tests.api.conftest import Player, act, register, seated_match, view

pytestmark = [pytest.mark.db, pytest.mark.redis]


@pytest.fixture(scope="module")
def truth(pool) -> MatchService:
    """A game service of its own, to read the true state and the hint stream from the store."""
    return MatchService(PostgresEventStore(pool), Vault(pool))


async def hint(client: AsyncTestClient, match_id: str, player: Player):
    return await client.get(f"/v1/matches/{match_id}/hint", headers=player.headers)


async def seat_to_act(client, match_id: str, players: dict[str, Player]) -> tuple[str, dict[str, Any]]:
    seen = await view(client, match_id, players["N"])
    seat = seen["to_act"][0]
    return seat, await view(client, match_id, players[seat])


def legal(table_view: dict[str, Any], action: dict[str, Any]) -> bool:
    """Whether `action` (without its seat) is one of the view's legal actions."""
    for spec in table_view["table"]["legal"]:
        choose = next((k for k, v in spec.items() if isinstance(v, dict) and "choose" in v), None)
        if choose is None and spec == action:
            return True
        if choose is not None and action.get("action") == spec["action"]:
            picked = action[choose]
            return len(picked) == spec[choose]["choose"] and set(picked) <= set(spec[choose]["from"])
    return False


async def test_a_hint_for_the_seat_to_act_is_legal_and_counted_once(client, truth) -> None:
    match_id, players = await seated_match(client, "belote", {"deals": 1})
    seat, mine = await seat_to_act(client, match_id, players)
    waiting = next(s for s in "NESW" if s not in mine["to_act"])
    refused = await hint(client, match_id, players[waiting])
    assert refused.status_code == 422 and refused.json()["code"] == "not_your_turn", refused.text

    given = await hint(client, match_id, players[seat])
    assert given.status_code == 200, given.text
    body = given.json()
    assert body["seat"] == seat and body["version"] == mine["version"] and not body["replayed"]
    assert body["used"] == 1 and body["limit"] == 10
    assert legal(mine, body["action"]), body
    assert body["reason"]["code"] in REASONS and body["reason"]["words"]

    # The same decision again: the same hint, not counted again.
    again = (await hint(client, match_id, players[seat])).json()
    assert again == {**body, "replayed": True}

    # Recorded in its own stream; the match stream did not move.
    recorded = await truth.store.read_stream(f"hints-{match_id}")
    assert [(e.type, msgspec.json.decode(e.data)["seat"], msgspec.json.decode(e.data)["version"])
            for e in recorded] == [("hint_given", seat, mine["version"])]
    assert msgspec.json.decode(recorded[0].data)["action"] == body["action"]
    assert (await truth.load(match_id)).version == mine["version"]

    # Every seat sees the counts, none sees what the hint said.
    for other in "NESW":
        seen = await client.get(f"/v1/matches/{match_id}", headers=players[other].headers)
        assert seen.json()["hints_used"] == {s: int(s == seat) for s in "NESW"}
        assert seen.json()["hints_limit"] == 10
        assert body["reason"]["words"] not in seen.text
    outsider = await register(client)
    watched = (await client.get(f"/v1/matches/{match_id}", headers=outsider.headers)).json()
    assert watched["hints_used"][seat] == 1

    # The hinted action is accepted as it is.
    acted = await act(client, match_id, players[seat], body["version"], **body["action"])
    assert acted.status_code == 200, acted.text


async def test_two_requests_at_once_for_one_decision_record_one_hint(client, truth) -> None:
    import asyncio

    match_id, players = await seated_match(client, "five_hundred", {"deals": 1})
    seat, mine = await seat_to_act(client, match_id, players)
    first, second = await asyncio.gather(hint(client, match_id, players[seat]), hint(client, match_id, players[seat]))
    assert first.status_code == second.status_code == 200, (first.text, second.text)
    strip = lambda body: {k: v for k, v in body.items() if k != "replayed"}  # noqa: E731
    assert strip(first.json()) == strip(second.json()) and first.json()["used"] == 1
    assert len(await truth.store.read_stream(f"hints-{match_id}")) == 1
    assert (await view(client, match_id, players["N"]))["hints_used"][seat] == 1


async def test_no_seat_is_a_403_and_an_unknown_match_a_404(client) -> None:
    match_id, _ = await seated_match(client, "cinch", {"deals": 1})
    outsider = await register(client)
    refused = await hint(client, match_id, outsider)
    assert refused.status_code == 403 and refused.json()["code"] == "no_seat", refused.text
    assert set(refused.json()) == {"code", "message", "details"}
    missing = await hint(client, str(uuid.uuid4()), outsider)
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_match"
    anonymous = await client.get(f"/v1/matches/{match_id}/hint")
    assert anonymous.status_code == 401


async def test_past_the_allowance_a_hint_is_a_429(api_settings, truth) -> None:
    settings = msgspec.structs.replace(api_settings, hints_per_match=2)
    app = create_app(settings, rate_limit=RateLimit(requests=0))
    async with AsyncTestClient(app=app) as client:
        match_id, players = await seated_match(client, "five_hundred", {"deals": 1})
        rng = random.Random(3)
        hinted = 0
        for _ in range(200):
            seat, mine = await seat_to_act(client, match_id, players)
            if seat != "N":
                action = rng.choice(mine["table"]["legal"])
                from domain.playout import concrete
                done = await act(client, match_id, players[seat], mine["version"],
                                 **{k: v for k, v in concrete(action, rng).items() if k != "seat"})
                assert done.status_code == 200, done.text
                continue
            answer = await hint(client, match_id, players["N"])
            if hinted == 2:
                assert answer.status_code == 429, answer.text
                assert answer.json() == {"code": "hint_limit", "message": answer.json()["message"],
                                         "details": {"limit": 2, "used": 2}}
                break
            assert answer.status_code == 200, answer.text
            hinted += 1
            if hinted == 2:             # the last one, asked again: still answered, not refused
                replay = await hint(client, match_id, players["N"])
                assert replay.status_code == 200 and replay.json()["replayed"] and replay.json()["used"] == 2
            done = await act(client, match_id, players["N"], answer.json()["version"], **answer.json()["action"])
            assert done.status_code == 200, done.text
        else:
            raise AssertionError("north never had a third decision")
        assert (await view(client, match_id, players["E"]))["hints_used"] == {"N": 2, "E": 0, "S": 0, "W": 0}
        assert len(await truth.store.read_stream(f"hints-{match_id}")) == 2


async def test_a_tournament_match_refuses_hints(client, pool) -> None:
    owner = await register(client, "organiser")
    await pool.execute("UPDATE players SET role = 'organiser' WHERE player_id = $1", owner.player_id)
    alice = await register(client)
    body = {"name": "Hintless", "game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 1}}
    tid = (await client.post("/v1/tournaments", json=body, headers=owner.headers)).json()["tournament_id"]
    mine = await client.post(f"/v1/tournaments/{tid}/entries", json={"players": [alice.player_id]},
                             headers=alice.headers)
    assert mine.status_code == 201, mine.text
    bot = (await client.post(f"/v1/tournaments/{tid}/entries", json={"players": ["bot:random", "bot:random"]},
                             headers=owner.headers)).json()["entry_id"]
    pairing = {"round": 1, "tables": [[mine.json()["entry_id"], bot]]}
    assert (await client.post(f"/v1/tournaments/{tid}/pairings", json=pairing, headers=owner.headers)).status_code == 200
    started = (await client.post(f"/v1/tournaments/{tid}/start", headers=owner.headers)).json()
    table = started["rounds"][0]["tables"][0]["match_id"]
    svc = TournamentService(PostgresEventStore(pool), MatchService(PostgresEventStore(pool), Vault(pool)))
    assert await svc.tournament_of(table) == tid
    refused = await hint(client, table, alice)
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "hints_off_tournament"
    seen = await view(client, table, alice)
    assert seen["hints_used"] == {s: 0 for s in "NESW"} and seen["hints_limit"] == 0


async def _recorded_match(client, deck: list[str], script: list[tuple[str, dict[str, Any]]] | None):
    """A classic belote deal from `deck`, four players; each step the seat to act plays the
    script's action, or (no script) its first legal one, until the card play starts.
    Returns the match, its players and the script played."""
    players = {seat: await register(client, f"hint-{seat}") for seat in "NESW"}
    created = await client.post("/v1/matches", headers=players["N"].headers, json={
        "game": "belote", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"},
        "record": {"game": "belote", "deals": [{"dealer": "W", "deck": deck}]}})
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    for seat in "ESW":
        taken = await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=players[seat].headers)
        assert taken.status_code == 200, taken.text
    played: list[tuple[str, dict[str, Any]]] = []
    for step in range(20):
        seat, mine = await seat_to_act(client, match_id, players)
        if mine["table"]["phase"] == "play":
            return match_id, players, played
        action = script[step][1] if script else next(a for a in mine["table"]["legal"] if a["action"] == "take")
        assert not script or script[step][0] == seat
        done = await act(client, match_id, players[seat], mine["version"], **action)
        assert done.status_code == 200, done.text
        played.append((seat, action))
    raise AssertionError("the card play never started")


async def test_a_hint_depends_on_the_seat_s_view_only(client, truth) -> None:
    """Two matches whose deals differ only in two cards swapped between two other hands:
    the seat to lead sees the same view in both and gets the same hint."""
    deck = list(load("belote").deck)
    random.Random(16).shuffle(deck)
    first, players, script = await _recorded_match(client, deck, None)
    leader, seen = await seat_to_act(client, first, players)
    state = await truth.load(first)
    hands = {s: set(msgspec.to_builtins(rules.view(state, Seat(s)).table)["hand"]) for s in "NESW"}
    public = {seen["table"]["turn_up"]}
    a, b = [s for s in "NESW" if s != leader][:2]
    x = next(c for c in sorted(hands[a]) if c not in public)
    y = next(c for c in sorted(hands[b]) if c not in public)
    other = [y if c == x else x if c == y else c for c in deck]

    second, players_b, _ = await _recorded_match(client, other, script)
    truth_b = await truth.load(second)
    assert x in msgspec.to_builtins(rules.view(truth_b, Seat(b)).table)["hand"]
    seen_b = await view(client, second, players_b[leader])
    assert seen_b["to_act"] == [leader] and seen_b["table"] == seen["table"]

    given = await hint(client, first, players[leader])
    given_b = await hint(client, second, players_b[leader])
    assert given.status_code == given_b.status_code == 200, (given.text, given_b.text)
    assert (given.json()["action"], given.json()["reason"]) == (given_b.json()["action"], given_b.json()["reason"])
    assert given.json()["action"]["action"] == "play"


async def test_the_openapi_document_describes_the_hint(client) -> None:
    spec = (await client.get("/schema/openapi.json")).json()
    operation = spec["paths"]["/v1/matches/{match_id}/hint"]["get"]
    for status in ("200", "401", "403", "404", "422", "429"):
        assert status in operation["responses"], status
    refusals = operation["responses"]["422"]["content"]["application/json"]["examples"]
    assert any(e["value"]["code"] == "hints_off_tournament" for e in refusals.values())
    views = spec["paths"]["/v1/matches/{match_id}"]["get"]["responses"]["200"]["content"]["application/json"]
    assert all("hints_used" in e["value"] for e in views["examples"].values())
