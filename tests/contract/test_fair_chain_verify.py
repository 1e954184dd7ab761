"""A real match's fair chain verified end to end, across a chain renewal (chains of three
seeds), by `record play` and `atout deal verify --record`; and each way to tamper with it
refused by both with the failed check named."""

from __future__ import annotations

import json
import random
import uuid

import pytest

from domain.cards import Seat
from domain.record import play_record
from infra.store import PostgresEventStore, create_pool
from infra.vault import Vault
from services.cli import main
from services.disputes.service import match_record
from services.matches.service import MatchService
from tests.contract.match_support import play_out
from tests.fair_tampering import TAMPERINGS

pytestmark = [pytest.mark.db]


@pytest.fixture(scope="module")
async def record(migrated_database_url: str) -> dict:
    pool = await create_pool(migrated_database_url, max_size=2)
    try:
        svc = MatchService(PostgresEventStore(pool), Vault(pool), chain_length=3, rng=random.Random(7))
        players = {s: f"fair-{s}-{uuid.uuid4().hex[:6]}" for s in "NESW"}
        created = await svc.create_match("cinch", {"deals": 5}, {"N": "me", "E": "open", "S": "open", "W": "open"},
                                         player_id=players["N"], entropy="north")
        for seat in "ESW":
            await svc.take_seat(created.match_id, Seat(seat), player_id=players[seat], entropy=f"{seat} words")
        await svc.start(created.match_id)
        state = await play_out(svc, created.match_id, random.Random(11))
        assert state.status == "finished"
        return match_record(state, await svc.events(created.match_id))
    finally:
        await pool.close()


def verify(tmp_path, record: dict, capsys) -> tuple[int, dict]:
    path = tmp_path / f"{uuid.uuid4().hex}.json"
    path.write_text(json.dumps(record))
    code = main(["deal", "verify", "--record", str(path)])
    return code, json.loads(capsys.readouterr().out)


def test_a_real_record_with_a_renewal_verifies_end_to_end(record, tmp_path, capsys) -> None:
    assert [r["first_deal"] for r in record["renewals"]] == [3]
    assert play_record(record)["ok"]
    code, out = verify(tmp_path, record, capsys)
    assert code == 0 and out["ok"] and out["tip_checked"] and out["failed"] is None, out
    assert [d["kind"] for d in out["deals"]] == ["shuffled"] * 5
    for deal in out["deals"]:
        assert all(deal["checks"][c] is True for c in ("context", "entropy", "commitment", "deck", "tip")), deal
        # The first deal of each chain reaches its tip; every other deal links to the one before.
        assert deal["checks"]["chain_link"] is (None if deal["deal"] in (0, 3) else True), deal


def test_a_record_without_its_tip_is_verified_for_its_links(record, tmp_path, capsys) -> None:
    bare = {k: v for k, v in record.items() if k not in ("tip", "chain_length")}
    code, out = verify(tmp_path, bare, capsys)
    assert code == 0 and out["ok"] and out["tip_checked"] is False
    assert out["deals"][0]["checks"]["tip"] is None and out["deals"][1]["checks"]["chain_link"] is True
    assert out["deals"][3]["checks"]["tip"] is True     # chain 2's tip is in the renewals


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_each_tampering_is_refused_with_its_check_named(name, record, tmp_path, capsys) -> None:
    tamper, deal, check = TAMPERINGS[name]
    tampered = tamper(record)
    played = play_record(tampered)
    assert (played["ok"], played["code"], played["deal"], played["details"]) == \
        (False, "bad_deck", deal, {"check": check}), played
    code, out = verify(tmp_path, tampered, capsys)
    assert code == 1 and out["ok"] is False
    assert (out["failed"]["deal"], out["failed"]["check"]) == (deal, check), out
    assert out["deals"][deal]["checks"][check] is False
