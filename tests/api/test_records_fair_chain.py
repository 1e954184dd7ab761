"""`POST /v1/records/play` verifies a real match record's fair chain: the record as exported
plays, and each tampering is a 422 `bad_deck` naming the failed check in `details.check`."""

from __future__ import annotations

import pytest

from tests.api.conftest import finish, seated_match
from tests.fair_tampering import TAMPERINGS

pytestmark = [pytest.mark.db, pytest.mark.redis]


@pytest.fixture(scope="module")
async def exported(client) -> tuple[dict, dict]:
    match_id, players = await seated_match(client, "belote", {"variant": "classic", "deals": 3})
    await finish(client, match_id, players, seed=4)
    record = await client.get(f"/v1/matches/{match_id}/record", headers=players["N"].headers)
    assert record.status_code == 200, record.text
    return record.json(), players["N"].headers


async def test_the_exported_record_plays_with_its_tip(client, exported) -> None:
    record, headers = exported
    assert len(record["tip"]) == 64 and record["chain_length"] == 1000 and len(record["deals"]) == 3
    played = await client.post("/v1/records/play", json=record, headers=headers)
    assert played.status_code == 200 and played.json()["ok"] is True, played.text


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
async def test_a_tampered_record_is_refused_naming_the_check(name, client, exported) -> None:
    record, headers = exported
    tamper, deal, check = TAMPERINGS[name]
    played = await client.post("/v1/records/play", json=tamper(record), headers=headers)
    body = played.json()
    assert played.status_code == 422, played.text
    assert (body["code"], body["deal"], body["details"]) == ("bad_deck", deal, {"check": check}), body
