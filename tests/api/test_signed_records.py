"""Exported match records carry the server's Ed25519 signature, and both checkers say whether it
holds: `POST /v1/records/play` (`signature`) and `atout deal verify --record --key`. The
forgery the fair chain cannot see — a seat's entropy swapped in every deal, the decks
recomputed, other actions played — plays `ok: true` with another score, and is `invalid`."""

from __future__ import annotations

import base64
import json
import uuid

import pytest

from infra import signing
from services.cli import main
from tests.api.conftest import finish, seated_match
from tests.fair_tampering import forge_entropy

pytestmark = [pytest.mark.db, pytest.mark.redis]


@pytest.fixture(scope="module")
async def finished(client) -> tuple[str, dict]:
    match_id, players = await seated_match(client, "belote", {"variant": "classic", "deals": 2})
    await finish(client, match_id, players, seed=5)
    return match_id, players["N"].headers


@pytest.fixture(scope="module")
async def served_key(client) -> dict:
    answer = await client.get("/v1/records/key")   # no token needed
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_the_key_route_serves_the_fingerprinted_public_key(served_key) -> None:
    raw = base64.b64decode(served_key["public_key"])
    assert served_key["alg"] == "ed25519" and len(raw) == 32 and served_key["retired"] == []
    assert served_key["key_id"] == signing.key_id(raw)


@pytest.mark.parametrize("route", ["record", "export", "export?deal=1"])
async def test_every_exported_record_is_signed_and_plays_valid(route, client, finished, served_key) -> None:
    match_id, headers = finished
    record = (await client.get(f"/v1/matches/{match_id}/{route}", headers=headers)).json()
    assert record["signature"]["alg"] == "ed25519" and record["signature"]["key_id"] == served_key["key_id"]
    assert signing.verify(record, [signing.PublicKey.from_b64(served_key["public_key"])]) == "valid"
    played = await client.post("/v1/records/play", json=record, headers=headers)
    assert played.status_code == 200 and played.json()["ok"] is True, played.text
    assert played.json()["signature"] == "valid"


async def test_the_forged_entropy_record_plays_but_its_signature_fails(client, finished) -> None:
    match_id, headers = finished
    record = (await client.get(f"/v1/matches/{match_id}/record", headers=headers)).json()
    genuine = (await client.post("/v1/records/play", json=record, headers=headers)).json()
    forged = forge_entropy(record)
    assert [d["fair"]["seed"] for d in forged["deals"]] == [d["fair"]["seed"] for d in record["deals"]]
    assert forged["deals"][0]["deck"] != record["deals"][0]["deck"]

    played = await client.post("/v1/records/play", json=forged, headers=headers)
    body = played.json()
    assert played.status_code == 200 and body["ok"] is True, body   # every rule and chain check passes…
    assert body["deals"] != genuine["deals"]                          # …for another match
    assert body["signature"] == "invalid"

    stripped = {k: v for k, v in forged.items() if k != "signature"}
    assert (await client.post("/v1/records/play", json=stripped, headers=headers)).json()["signature"] == "absent"
    other = signing.RecordSigner(bytes(32)).sign(forged)   # signed, but not by this server
    assert (await client.post("/v1/records/play", json=other, headers=headers)).json()["signature"] == "unknown_key"


async def test_a_refused_record_still_says_whether_its_signature_holds(client, finished) -> None:
    match_id, headers = finished
    record = (await client.get(f"/v1/matches/{match_id}/record", headers=headers)).json()
    record["deals"][0]["deck"][:2] = record["deals"][0]["deck"][1::-1]
    played = await client.post("/v1/records/play", json=record, headers=headers)
    assert played.status_code == 422 and played.json()["code"] == "bad_deck"
    assert played.json()["signature"] == "invalid"


def _verify(tmp_path, record: dict, capsys, *args: str) -> tuple[int, dict]:
    path = tmp_path / f"{uuid.uuid4().hex}.json"
    path.write_text(json.dumps(record))
    code = main(["deal", "verify", "--record", str(path), *args])
    return code, json.loads(capsys.readouterr().out)


async def test_deal_verify_with_the_key_refuses_the_forgery(tmp_path, capsys, client, finished, served_key) -> None:
    match_id, headers = finished
    record = (await client.get(f"/v1/matches/{match_id}/record", headers=headers)).json()
    key = ("--key", served_key["public_key"])

    code, out = _verify(tmp_path, record, capsys, *key)
    assert (code, out["ok"], out["signature"]) == (0, True, "valid"), out

    code, out = _verify(tmp_path, forge_entropy(record), capsys, *key)
    assert (code, out["ok"], out["signature"], out["failed"]) == (1, False, "invalid", None), out

    stripped = {k: v for k, v in record.items() if k != "signature"}
    code, out = _verify(tmp_path, stripped, capsys, *key)
    assert (code, out["signature"]) == (1, "absent"), "asked for the signature, got none: not a pass"
    code, out = _verify(tmp_path, stripped, capsys)
    assert (code, out["signature"]) == (0, "absent"), "unsigned records still verify their chain"
    code, out = _verify(tmp_path, record, capsys)
    assert (code, out["signature"]) == (0, "unchecked")


def test_deal_verify_refuses_a_key_that_is_not_one(tmp_path, capsys) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"game": "belote", "deals": []}))
    assert main(["deal", "verify", "--record", str(path), "--key", "not a key"]) == 2
    assert "--key" in capsys.readouterr().err
