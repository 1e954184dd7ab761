"""Hand records: a match played through the service, projected, exported as a match record
from the read model alone, and replayed by the real rules to the same result; a rebuild
gives the same rows."""

from __future__ import annotations

import random
import secrets
import uuid

import msgspec
import pytest

from domain.record import play_record
from infra.projections import HandRecords, ProjectionRunner, rebuild
from infra.store import PostgresEventStore, create_pool
from infra.vault import Vault
from services.matches.service import MatchService
from tests.contract.match_support import play_out, seated_match

pytestmark = [pytest.mark.db]


@pytest.fixture(scope="module")
async def store(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=4)
    yield PostgresEventStore(pool)
    await pool.close()


@pytest.mark.parametrize("game,options", [("belote", {"variant": "coinche", "deals": 3}),
                                          ("five_hundred", {"deals": 2})])
async def test_hand_records_export_replays_to_the_live_result(store, game, options) -> None:
    svc = MatchService(store, Vault(store.pool), chain_length=20, rng=random.Random(5))
    match_id = await seated_match(svc, game, options)
    live = await play_out(svc, match_id, random.Random(23))
    await store.settle()

    name = f"hr_{secrets.token_hex(3)}"
    projection = type(name, (HandRecords,), {"name": name, "table": name})()
    runner = ProjectionRunner(store, batch_size=50)
    await runner.ensure(projection)
    await runner.catch_up(projection)
    rows = await store.pool.fetch(f"SELECT * FROM {name} WHERE match_id = $1 ORDER BY deal", match_id)
    assert [r["deal"] for r in rows] == list(range(options["deals"]))

    record = {"game": game, "options": options, "deals": [
        {"dealer": r["dealer"], "deck": msgspec.json.decode(r["deck"]), "actions": msgspec.json.decode(r["actions"]),
         "fair": msgspec.json.decode(r["fair"])} for r in rows]}
    replayed = play_record(record)
    assert replayed["ok"], replayed
    status = live.game.status(live.game_state)
    assert replayed["match_score"] == status.match_score and replayed["winner"] == status.winner
    assert replayed["deals"] == [msgspec.json.decode(r["summary"]) for r in rows]

    before = [tuple(r) for r in await store.pool.fetch(f"SELECT * FROM {name} ORDER BY 1")]
    await rebuild(ProjectionRunner(store, batch_size=100), projection)
    assert [tuple(r) for r in await store.pool.fetch(f"SELECT * FROM {name} ORDER BY 1")] == before


async def test_a_tampered_deck_fails_the_fair_check(store) -> None:
    svc = MatchService(store, Vault(store.pool), chain_length=20, rng=random.Random(6))
    match_id = await seated_match(svc, "cinch", {"deals": 1})
    await play_out(svc, match_id, random.Random(2))
    events = [e for _, e, _ in await svc.events(match_id)]
    finished = next(e for e in events if type(e).__name__ == "DealFinished")
    deck = list(finished.deck)
    deck[0], deck[1] = deck[1], deck[0]
    result = play_record({"game": "cinch", "options": {"deals": 1},
                          "deals": [{"dealer": finished.dealer, "deck": deck, "actions": [], "fair": finished.fair}]})
    assert not result["ok"] and result["code"] == "bad_deck" and result["deal"] == 0


def test_a_summary_only_deal_finished_records_no_hand() -> None:
    """Other writers (tests, tools) may append a bare deal_finished; it must not stop the projector."""
    import datetime

    from infra.store.model import RecordedEvent

    event = RecordedEvent("tm-1", 3, 9, 9, uuid.uuid4(), "deal_finished", 1, b"{}", None,
                          datetime.datetime.now(datetime.timezone.utc))
    assert HandRecords().fold(None, event, {"deal": 0, "match_score": {"NS": 1}}) is None
