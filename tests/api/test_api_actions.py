"""Actions over HTTP: the contract's order of checks, idempotent retries, races, bad inputs.

Every bad input leaves the match's events exactly as they were (compared event by event),
and each answer has the status and code the contract gives.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest

from tests.api.conftest import act, finish, register, seated_match, view

pytestmark = [pytest.mark.db, pytest.mark.redis]


async def events_of(client, match_id: str, player) -> list[dict[str, Any]]:
    response = await client.get(f"/v1/matches/{match_id}/events", headers=player.headers)
    assert response.status_code == 200
    return response.json()["events"]


async def to_act(client, match_id: str, players) -> tuple[str, dict[str, Any]]:
    """The (first) seat to act and its own view."""
    seat = (await view(client, match_id, players["N"]))["to_act"][0]
    return seat, await view(client, match_id, players[seat])


async def test_a_retried_command_gets_its_first_answer_and_appends_nothing(client) -> None:
    match_id, players = await seated_match(client, "belote", {"deals": 1})
    seat, mine = await to_act(client, match_id, players)
    command_id = str(uuid.uuid4())
    first = await act(client, match_id, players[seat], mine["version"], command_id, **mine["table"]["legal"][0])
    assert first.status_code == 200 and "idempotent-replayed" not in first.headers
    assert first.headers["x-correlation-id"] == command_id  # the command id is the log correlation id
    before = await events_of(client, match_id, players["N"])

    again = await act(client, match_id, players[seat], mine["version"], command_id, **mine["table"]["legal"][0])
    assert again.status_code == 200 and again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert await events_of(client, match_id, players["N"]) == before

    # Still the first answer once the match has moved on.
    other, theirs = await to_act(client, match_id, players)
    assert (await act(client, match_id, players[other], theirs["version"], **theirs["table"]["legal"][0])).status_code == 200
    late = await act(client, match_id, players[seat], mine["version"], command_id, **mine["table"]["legal"][0])
    assert late.status_code == 200 and late.json() == first.json()


async def test_two_actions_at_once_exactly_one_is_accepted(client) -> None:
    match_id, players = await seated_match(client, "belote", {"deals": 1})
    seat, mine = await to_act(client, match_id, players)
    legal = mine["table"]["legal"]
    bodies = [legal[0], legal[-1]]  # two different decisions (or the same one twice) from one view
    answers = await asyncio.gather(*(act(client, match_id, players[seat], mine["version"], **b) for b in bodies))
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200, 409], [a.text for a in answers]
    accepted = next(a for a in answers if a.status_code == 200).json()
    refused = next(a for a in answers if a.status_code == 409).json()
    assert refused["code"] == "stale_version" and refused["details"]["current_version"] >= accepted["version"]
    events = await events_of(client, match_id, players[seat])  # a seat sees its own action_taken
    assert events[-1]["version"] == accepted["version"]
    assert sum(1 for e in events if e["event"] and e["event"]["type"] == "action_taken") == 1


async def test_bad_inputs_answer_the_right_status_and_code_and_change_nothing(client) -> None:
    match_id, players = await seated_match(client, "belote", {"deals": 1})
    outsider = await register(client, "outsider")
    seat, mine = await to_act(client, match_id, players)
    waiting = next(s for s in "NESW" if s != seat)
    version, hand = mine["version"], mine["table"]["hand"]
    accepted_id = str(uuid.uuid4())
    assert (await act(client, match_id, players[seat], version, accepted_id, action="pass")).status_code == 200
    seat2, mine2 = await to_act(client, match_id, players)
    version = mine2["version"]
    url = f"/v1/matches/{match_id}/actions"
    good = {"command_id": str(uuid.uuid4()), "expected_version": version, "action": "pass"}
    headers = players[seat2].headers

    cases: list[tuple[str, Any, dict[str, str], int, str, str | None]] = [
        # (name, body, headers, status, code, field)
        ("missing token", good, {}, 401, "unauthorized", None),
        ("wrong token", good, {"Authorization": "Bearer atk_nope"}, 401, "invalid_token", None),
        ("missing token beats malformed", b"{nope", {}, 401, "unauthorized", None),
        ("malformed JSON", b"{nope", headers, 400, "malformed_json", "$"),
        ("not an object", [1, 2], headers, 400, "invalid_field", "$"),
        ("wrong type", {**good, "expected_version": "seven"}, headers, 400, "invalid_field", "$.expected_version"),
        ("negative version", {**good, "expected_version": -1}, headers, 400, "invalid_field", "$.expected_version"),
        ("missing command_id", {"expected_version": version, "action": "pass"}, headers, 400, "invalid_field",
         "$.command_id"),
        ("command_id not a UUID", {**good, "command_id": "abc"}, headers, 400, "invalid_field", "$.command_id"),
        ("missing action", {"command_id": str(uuid.uuid4()), "expected_version": version}, headers, 400,
         "invalid_field", "$.action"),
        ("reused command_id, other body", {**good, "command_id": accepted_id, "expected_version": version},
         players[seat].headers, 409, "command_conflict", None),
        ("reused command_id beats stale", {**good, "command_id": accepted_id, "expected_version": 0},
         players[seat].headers, 409, "command_conflict", None),
        ("stale version", {**good, "expected_version": version - 1}, headers, 409, "stale_version", None),
        ("stale beats illegal", {**good, "expected_version": version - 1, "action": "bogus"}, headers, 409,
         "stale_version", None),
        ("not your turn", {**good, "command_id": str(uuid.uuid4())}, players[seat].headers, 422, "not_your_turn",
         None),
        ("illegal move", {**good, "action": "play", "card": hand[0]}, headers, 422, "wrong_phase", None),
        ("unknown action", {**good, "action": "bogus"}, headers, 422, "bad_action", None),
        ("a seat not mine", {**good, "seat": waiting if waiting != seat2 else seat}, headers, 422, "not_your_seat",
         None),
        ("no seat at all", good, outsider.headers, 422, "not_your_seat", None),
    ]
    before = await events_of(client, match_id, players["N"])
    for name, body, hdrs, status, code, field in cases:
        kwargs = {"content": body} if isinstance(body, bytes) else {"json": body}
        response = await client.post(url, headers={"content-type": "application/json", **hdrs}, **kwargs)
        assert (response.status_code, response.json().get("code")) == (status, code), (name, response.text)
        assert set(response.json()) == {"code", "message", "details"}, name
        if field is not None:
            assert response.json()["details"]["field"] == field, (name, response.json())
        assert await events_of(client, match_id, players["N"]) == before, name

    stale = await client.post(url, headers=headers, json={**good, "expected_version": version - 1})
    assert stale.json()["details"]["current_version"] == version
    unknown = await client.post(f"/v1/matches/{uuid.uuid4()}/actions", headers=headers, json=good)
    assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_match")
    malformed_unknown = await client.post(f"/v1/matches/{uuid.uuid4()}/actions", headers=headers, json={"x": 1})
    assert malformed_unknown.status_code == 400  # malformed is checked before the match is looked up
    assert await events_of(client, match_id, players["N"]) == before

    # In play: a card the seat does not hold; after the end: the match is over.
    take = next(a for a in mine2["table"]["legal"] if a["action"] == "take")
    assert (await act(client, match_id, players[seat2], version, **take)).status_code == 200
    leader, lead = await to_act(client, match_id, players)
    other = next(s for s in "NESW" if s != leader)
    foreign = (await view(client, match_id, players[other]))["table"]["hand"][0]
    before = await events_of(client, match_id, players["N"])
    wrong = await act(client, match_id, players[leader], lead["version"], action="play", card=foreign)
    assert (wrong.status_code, wrong.json()["code"]) == (422, "card_not_in_hand")
    assert await events_of(client, match_id, players["N"]) == before

    final = await finish(client, match_id, players)
    before = await events_of(client, match_id, players["N"])
    over = await act(client, match_id, players["N"], final["version"], action="pass")
    assert (over.status_code, over.json()["code"]) == (422, "match_over")
    assert await events_of(client, match_id, players["N"]) == before


async def test_an_abandoned_match_refuses_actions_with_match_over(client, api_settings) -> None:
    from infra.store import PostgresEventStore, create_pool
    from infra.vault import Vault
    from services.matches.service import MatchService

    match_id, players = await seated_match(client, "belote", {"deals": 1})
    seat, mine = await to_act(client, match_id, players)
    pool = await create_pool(api_settings.database_url, max_size=2)
    try:                    # what the sweeper calls (services.bots.reactor.abandon_idle)
        await MatchService(PostgresEventStore(pool), Vault(pool)).abandon(
            match_id, expected_version=mine["version"], idle_seconds=86400)
    finally:
        await pool.close()
    before = await events_of(client, match_id, players["N"])
    assert "match_abandoned" in str(before[-1])
    refused = await act(client, match_id, players[seat], mine["version"] + 1, **mine["table"]["legal"][0])
    assert (refused.status_code, refused.json()["code"]) == (422, "match_over")
    assert await events_of(client, match_id, players["N"]) == before
    assert (await view(client, match_id, players["N"]))["status"] == "abandoned"
