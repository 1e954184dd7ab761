"""Record signatures (infra/signing.py) against docs/fair-deal.md "Signed records": the test
vector's key, canonical bytes and signature; what changes the bytes and what does not; the
key kept in the data folder across restarts; the settings that carry keys."""

from __future__ import annotations

import copy
import json
import re
import stat
from pathlib import Path

import pytest

from infra import signing
from infra.settings import SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "fair-deal.md").read_text(encoding="utf-8")


def _fenced_after(marker: str, lang: str) -> str:
    found = re.search(re.escape(marker) + r"\s*```" + lang + r"\n(.*?)\n```", DOC, re.S)
    assert found, marker
    return found.group(1)


VECTOR = json.loads(_fenced_after("<!-- signature-vector -->", "json"))
CANONICAL = _fenced_after("<!-- signature-canonical -->", "text").encode("utf-8")
SIGNER = signing.RecordSigner(bytes.fromhex(VECTOR["private_key"]))
KEYS = [SIGNER.public]


def test_the_vector_key_and_fingerprint() -> None:
    assert VECTOR["private_key"] == bytes(range(32)).hex()
    assert SIGNER.public.as_json() == {k: VECTOR[k] for k in ("alg", "key_id", "public_key")}


def test_the_vector_canonical_bytes_and_message() -> None:
    record = VECTOR["record"]
    assert signing.canonical(record) == CANONICAL
    assert f"{len(CANONICAL)} bytes of UTF-8" in DOC
    message = signing.message(record)
    assert message == b"atout/match-record/v1\x00" + CANONICAL and f"is {len(message)} bytes" in DOC


def test_the_vector_signature_is_what_the_server_makes_and_holds() -> None:
    record = VECTOR["record"]
    unsigned = {k: v for k, v in record.items() if k != "signature"}
    assert SIGNER.sign(unsigned)["signature"] == record["signature"]  # Ed25519 is deterministic
    assert signing.verify(record, KEYS) == "valid"


def test_layout_does_not_matter_content_does() -> None:
    record = VECTOR["record"]
    shuffled = json.loads(json.dumps(dict(reversed(list(record.items()))), indent=3))
    assert signing.verify(shuffled, KEYS) == "valid"
    for change in (lambda r: r["deals"][0]["fair"]["entropy"].update(W="other words"),
                   lambda r: r["deals"][0]["deck"].reverse(),
                   lambda r: r["deals"][0]["actions"].clear(),
                   lambda r: r.update(result={"winner": "NS"})):
        altered = copy.deepcopy(record)
        change(altered)
        assert signing.verify(altered, KEYS) == "invalid"


@pytest.mark.parametrize("signature, verdict", [
    ("not an object", "invalid"),
    ({"alg": "rsa", "key_id": VECTOR["key_id"], "value": "AA=="}, "invalid"),
    ({"alg": "ed25519", "key_id": VECTOR["key_id"], "value": "!!"}, "invalid"),
    ({"alg": "ed25519", "key_id": VECTOR["key_id"], "value": "AAAA"}, "invalid"),
    ({"alg": "ed25519", "key_id": "0" * 32, "value": VECTOR["record"]["signature"]["value"]}, "unknown_key"),
])
def test_malformed_and_foreign_signatures(signature, verdict) -> None:
    assert signing.verify({**VECTOR["record"], "signature": signature}, KEYS) == verdict


def test_absent_and_retired() -> None:
    unsigned = {k: v for k, v in VECTOR["record"].items() if k != "signature"}
    assert signing.verify(unsigned, KEYS) == "absent" and signing.verify([1], KEYS) == "absent"
    newer = signing.RecordSigner(bytes(range(1, 33)), retired=[SIGNER.public])
    assert signing.verify(VECTOR["record"], newer.keys) == "valid"
    assert signing.verify(VECTOR["record"], [newer.public]) == "unknown_key"


def test_without_a_key_one_is_made_once_and_kept(tmp_path) -> None:
    data = tmp_path / "data"
    first = signing.signer_for(None, (), data)
    signing.signer_for.cache_clear()                      # as a restart would
    again = signing.signer_for(None, (), data)
    assert first is not again and first.public.key_id == again.public.key_id
    path = data / signing.KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert signing.PublicKey(first.public.raw).key_id == signing.RecordSigner(
        bytes.fromhex(path.read_text().strip())).public.key_id
    set_key = signing.signer_for("11" * 32, (), data)     # the setting wins over the file
    assert set_key.public.key_id != first.public.key_id


def test_a_damaged_key_file_is_named(tmp_path) -> None:
    (tmp_path / signing.KEY_FILE).write_text("not hex\n")
    with pytest.raises(signing.SigningKeyError, match="record-key"):
        signing.signer_for(None, (), tmp_path)


def test_the_settings_take_and_check_keys() -> None:
    settings = load_settings({"ATOUT_RECORD_KEY": "AB" * 32,
                              "ATOUT_RECORD_KEYS_RETIRED": f" {VECTOR['public_key']} ,"})
    assert settings.record_key == "ab" * 32 and settings.record_keys_retired == (VECTOR["public_key"],)
    assert load_settings({}).record_key is None
    for env, named in (({"ATOUT_RECORD_KEY": "abc"}, "ATOUT_RECORD_KEY"),
                       ({"ATOUT_RECORD_KEY": "ab" * 31}, "ATOUT_RECORD_KEY"),
                       ({"ATOUT_RECORD_KEYS_RETIRED": "AAAA"}, "ATOUT_RECORD_KEYS_RETIRED")):
        with pytest.raises(SettingsError, match=named):
            load_settings(env)


def test_the_canonical_bytes_are_the_documented_json_rules() -> None:
    """msgspec's sorted encoding against the doc's Python spelling of the rules, over strings
    with every ASCII control character, quotes, backslashes, non-ASCII and astral characters."""
    import random

    rng = random.Random(5)
    alphabet = [chr(i) for i in range(0x80)] + ["é", "♠", "\u2028", "\ufeff", "😀", "ł"]
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))
        record = {text: [text, rng.randint(-2**63, 2**63), True, False, None], "deals": [{"b": text, "a": {}}]}
        spelled = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        assert signing.canonical(record) == spelled, repr(text)
