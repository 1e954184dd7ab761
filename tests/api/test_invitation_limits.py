"""The limits on pending invitations hold when the sends all arrive at once: a match's 20, a
player's 50 received, 3 from one sender to one player. The read model is caught up before each
burst and not during it (as a projector a moment behind), so what is counted is what the
limits themselves hold, not the projector's speed."""

from __future__ import annotations

import asyncio

import pytest

from domain import invitations as cases
from services.social import invitation_limits as limits
from tests.api.conftest import register
from tests.api.test_social_tables import caught_up, create, invite

pytestmark = [pytest.mark.db, pytest.mark.redis]


def codes(answers) -> dict[object, int]:
    out: dict[object, int] = {}
    for answer in answers:
        key = answer.status_code if answer.status_code < 300 else answer.json()["code"]
        out[key] = out.get(key, 0) + 1
    return out


async def test_45_invitations_sent_at_once_to_one_match_stop_at_its_limit(client, pool) -> None:
    host = await register(client, "busy host")
    guests = [await register(client, f"guest {i}") for i in range(45)]
    match_id = (await create(client, host, visibility="private"))["match_id"]
    await caught_up(pool)
    answers = await asyncio.gather(*(invite(client, host, match_id, g.player_id) for g in guests))
    limit = cases.MAX_PENDING_PER_MATCH
    assert codes(answers) == {201: limit, "too_many_invitations": 45 - limit}
    refused = next(a for a in answers if a.status_code != 201)
    assert refused.status_code == 422 and refused.json()["details"] == {"limit": cases.MAX_PENDING_PER_MATCH}
    await caught_up(pool)
    pending = await client.get("/v1/invitations?role=sent&status=pending&limit=200", headers=host.headers)
    assert len(pending.json()) == cases.MAX_PENDING_PER_MATCH


async def test_one_player_receives_at_most_50_pending_and_3_from_one_sender(client, pool) -> None:
    wanted, other = await register(client, "wanted"), await register(client, "also wanted")
    hosts = [await register(client, f"suitor {i}") for i in range(20)]
    tables = [[(await create(client, h))["match_id"] for _ in range(3)] for h in hosts]
    await caught_up(pool)
    sends = [invite(client, h, m, wanted.player_id) for h, ms in zip(hosts, tables) for m in ms]
    answers = await asyncio.gather(*sends)      # 60 at once, each sender within his 3
    assert codes(answers) == {201: limits.MAX_RECEIVED, "too_many_invitations_received": 60 - limits.MAX_RECEIVED}
    refused = next(a for a in answers if a.status_code != 201)
    assert refused.status_code == 422
    assert refused.json()["details"] == {"player_id": wanted.player_id, "limit": limits.MAX_RECEIVED}

    host = hosts[0]
    fourth = (await create(client, host))["match_id"]
    answers = await asyncio.gather(*(invite(client, host, m, other.player_id) for m in [*tables[0], fourth]))
    assert codes(answers) == {201: limits.MAX_FROM_ONE, "too_many_invitations_to_player": 1}
    refused = next(a for a in answers if a.status_code != 201)
    assert refused.json()["details"] == {"player_id": other.player_id, "limit": limits.MAX_FROM_ONE}
    # answered, an invitation no longer counts: a decline makes room for the next
    pending = next(a for a in answers if a.status_code == 201).json()["invitation_id"]
    assert (await client.post(f"/v1/invitations/{pending}/decline", headers=other.headers, json={})).status_code == 200
    await caught_up(pool)
    again = await invite(client, host, fourth, other.player_id)
    assert again.status_code == 201, again.text


async def test_20_invitees_accepting_at_once_take_the_3_free_seats_once_each(client, pool) -> None:
    host = await register(client, "popular host")
    guests = [await register(client, f"taker {i}") for i in range(cases.MAX_PENDING_PER_MATCH)]
    match_id = (await create(client, host, visibility="private"))["match_id"]
    sent = [await invite(client, host, match_id, g.player_id) for g in guests]
    assert all(s.status_code == 201 for s in sent), [s.text for s in sent if s.status_code != 201]
    answers = await asyncio.gather(*(client.post(f"/v1/invitations/{s.json()['invitation_id']}/accept",
                                                 headers=g.headers, json={}) for s, g in zip(sent, guests)))
    assert all(a.status_code < 500 for a in answers), [a.text for a in answers if a.status_code >= 500]
    took = [g.player_id for a, g in zip(answers, guests) if a.status_code == 200]
    assert len(took) == 3, codes(answers)
    assert all(a.status_code == 422 and a.json()["code"] in ("match_not_open", "match_full", "seat_taken")
               for a in answers if a.status_code != 200), codes(answers)
    match = (await client.get(f"/v1/matches/{match_id}", headers=host.headers)).json()
    seated = sorted(h["player_id"] for h in match["seats"].values() if h["player_id"] != host.player_id)
    assert match["status"] == "playing" and seated == sorted(took), (match["status"], match["seats"])
