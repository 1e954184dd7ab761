"""Deal reviews over HTTP, on the real app, Postgres and the workers' own service.

A Belote match of two deals is played by four players; the first deal is over while the
second is under way. Its analysis is `pending` until the reviewing service (what the workers
run) has reviewed it, then `ready`: one entry per card played, in the record's order, each
with its double-dummy value never above the best, and the fair baseline where there was a
choice. A deal not over is 404 `unknown_deal`; a private table's review is nobody else's to
know of. Two reviewers racing over the same backlog review each deal once. The admins'
fair-play table is an admin's only, and every read of it is in the audit log.
"""

from __future__ import annotations

import asyncio

import pytest

from infra.projections import HandRecords, MatchSummaries, ProjectionRunner
from infra.store import PostgresEventStore, create_pool
from services.reviews.service import ReviewService
from tests.api.conftest import act, register, seated_match, view
from tests.eventually import projected

pytestmark = [pytest.mark.db, pytest.mark.redis]

WORLDS = 4


def READ_MODELS():
    return (MatchSummaries(), HandRecords())


@pytest.fixture(scope="module")
async def runner(client, database_url: str):
    pool = await create_pool(database_url, max_size=3)
    yield ProjectionRunner(PostgresEventStore(pool))
    await pool.close()


async def play_first_deal(client, match_id: str, players, seed: int = 5) -> None:
    """Random legal actions until deal 0 is over (the match goes on to deal 1)."""
    import random

    from domain.playout import concrete

    rng = random.Random(seed)
    for _ in range(400):
        table = await view(client, match_id, players["N"])
        if table["table"]["deal"] >= 2 or table["status"] == "finished":
            return
        seat = rng.choice(table["to_act"])
        mine = table if seat == "N" else await view(client, match_id, players[seat])
        action = {k: v for k, v in concrete(rng.choice(mine["table"]["legal"]), rng).items() if k != "seat"}
        assert (await act(client, match_id, players[seat], mine["version"], **action)).status_code == 200
    raise AssertionError("deal 0 did not end")


async def reviewed(runner: ProjectionRunner, record_id: str) -> None:
    """Project the hand records, then review until this deal's review is stored."""
    await projected(runner, READ_MODELS, lambda: runner.store.pool.fetchval(
        "SELECT count(*) FROM hand_records WHERE record_id = $1", record_id), lambda n: n == 1)
    service = ReviewService(runner.store.pool, WORLDS)
    for _ in range(50):
        if await runner.store.pool.fetchval(
                "SELECT review IS NOT NULL FROM deal_reviews WHERE record_id = $1", record_id):
            return
        await service.review_pending(4)
    raise AssertionError(f"{record_id} was not reviewed")


async def test_a_finished_deal_is_pending_then_reviewed_card_by_card(client, runner) -> None:
    match_id, players = await seated_match(client, "belote", {"variant": "classic", "deals": 2})
    await play_first_deal(client, match_id, players)
    south, outsider = players["S"], await register(client)

    pending = await client.get(f"/v1/matches/{match_id}/deals/0/analysis", headers=south.headers)
    assert pending.status_code == 200, pending.text
    assert pending.json()["status"] == "pending" and pending.json()["review"] is None

    not_over = await client.get(f"/v1/matches/{match_id}/deals/1/analysis", headers=south.headers)
    assert not_over.status_code == 404 and not_over.json()["code"] == "unknown_deal"
    never = await client.get(f"/v1/matches/{match_id}/deals/7/analysis", headers=south.headers)
    assert never.status_code == 404 and never.json()["code"] == "unknown_deal"

    await reviewed(runner, f"{match_id}/0")
    ready = await client.get(f"/v1/matches/{match_id}/deals/0/analysis", headers=south.headers)
    body = ready.json()
    assert ready.status_code == 200 and body["status"] == "ready", ready.text
    review = body["review"]
    record = (await client.get(f"/v1/matches/{match_id}/record", headers=south.headers)).json()
    plays = [(a["seat"], a["card"]) for a in record["deals"][0]["actions"] if a["action"] == "play"]
    if not plays:                      # thrown in: every seat passed, nothing to review
        assert review["cards"] == [] and review["par"] is None
        return
    assert [(c["seat"], c["card"]) for c in review["cards"]] == plays
    assert review["unit"] == "card_points" and review["par_side"] in ("NS", "EW")
    for card in review["cards"]:
        assert card["value"] <= card["best"] and card["cost"] == card["best"] - card["value"]
        if card["choices"] == 1:
            assert card["cost"] == 0 and card["fair_value"] is None
        elif card["fair_value"] is not None:
            assert 0 <= card["fair_cost"] <= card["fair_spread"] and card["worlds"] == WORLDS
    assert set(review["accuracy"]) == {seat for seat, _ in plays}
    assert all(a is None or 0 <= a <= 100 for a in review["accuracy"].values())
    assert review["contract_table"] and all(set(row) == {"NS", "EW"} for row in review["contract_table"].values())

    # A spectator of a public table reads a finished deal's review as he reads its record.
    seen = await client.get(f"/v1/matches/{match_id}/deals/0/analysis", headers=outsider.headers)
    assert seen.status_code == 200 and seen.json() == body


async def test_a_private_tables_review_is_nobody_elses(client, runner) -> None:
    players = {seat: await register(client, f"private-{seat}") for seat in "NESW"}
    created = await client.post("/v1/matches", headers=players["N"].headers,
                                json={"game": "belote", "options": {"variant": "classic", "deals": 2},
                                      "entropy": "n", "visibility": "private",
                                      "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
    assert created.status_code == 201, created.text
    match_id, code = created.json()["match_id"], created.json()["invitation_code"]
    for seat in "ESW":
        joined = await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=players[seat].headers,
                                   json={"code": code})
        assert joined.status_code == 200, joined.text
    await play_first_deal(client, match_id, players, seed=9)
    stranger = await register(client)
    hidden = await client.get(f"/v1/matches/{match_id}/deals/0/analysis", headers=stranger.headers)
    assert hidden.status_code == 404 and hidden.json()["code"] == "unknown_match"
    mine = await client.get(f"/v1/matches/{match_id}/deals/0/analysis", headers=players["E"].headers)
    assert mine.status_code == 200


async def test_two_reviewers_racing_review_each_deal_once(client, runner) -> None:
    match_id, players = await seated_match(client, "belote", {"variant": "coinche", "deals": 2})
    await play_first_deal(client, match_id, players, seed=21)
    record_id = f"{match_id}/0"
    await projected(runner, READ_MODELS, lambda: runner.store.pool.fetchval(
        "SELECT count(*) FROM hand_records WHERE record_id = $1", record_id), lambda n: n == 1)
    pool = runner.store.pool
    services = [ReviewService(pool, 2), ReviewService(pool, 2)]
    for _ in range(50):
        if await pool.fetchval("SELECT review IS NOT NULL FROM deal_reviews WHERE record_id = $1", record_id):
            break
        await asyncio.gather(*(s.review_pending(2) for s in services))
    rows = await pool.fetch("SELECT seat FROM review_signals WHERE record_id = $1", record_id)
    assert len(rows) == len({r["seat"] for r in rows})          # one row per seat, never two
    assert await pool.fetchval("SELECT count(*) FROM deal_reviews WHERE record_id = $1", record_id) == 1


async def test_the_fairplay_table_is_an_admins_and_every_read_is_audited(client, runner) -> None:
    player = await register(client)
    refused = await client.get("/v1/admin/fairplay", headers=player.headers)
    assert refused.status_code == 403

    admin = await register(client, "fairplay-admin")
    await runner.store.pool.execute("UPDATE players SET role = 'admin' WHERE player_id = $1", admin.player_id)
    for by in ("player", "partnership"):
        answer = await client.get(f"/v1/admin/fairplay?by={by}&days=7&limit=5", headers=admin.headers)
        assert answer.status_code == 200, answer.text
        rows = answer.json()
        assert isinstance(rows, list) and len(rows) <= 5
        for row in rows:
            assert row["kind"] == by and row["decisions"] >= 0 and not row["who"].startswith("bot:")
            assert len(row["players"]) == (1 if by == "player" else 2)
    bad = await client.get("/v1/admin/fairplay?days=0", headers=admin.headers)
    assert bad.status_code == 400
    audited = await runner.store.pool.fetch(
        "SELECT data FROM events WHERE stream_id LIKE 'audit-%' AND type = 'audit_entry' "
        "ORDER BY position DESC LIMIT 20")
    assert sum(b'"fairplay_read"' in bytes(r["data"]) and admin.player_id.encode() in bytes(r["data"])
               for r in audited) == 2


async def test_the_backlog_is_on_the_metrics(client, runner) -> None:
    """The reviews feature declares its gauges; the API measures them at each scrape."""
    for projection in READ_MODELS():
        await runner.ensure(projection)
    scraped = await client.get("/metrics")
    assert scraped.status_code == 200
    lines = {line.split(" ")[0]: line for line in scraped.text.splitlines() if not line.startswith("#")}
    assert "atout_review_backlog_deals" in lines and "atout_review_backlog_seconds" in lines
    deals, _ = await ReviewService(runner.store.pool, 0).backlog()
    assert abs(float(lines["atout_review_backlog_deals"].split(" ")[1]) - deals) <= 2   # the workers' pace aside
