"""The contract moves only with its version: both documents' fingerprints, `info.version` and
the changelog are held together.

The fingerprint is the SHA-256 of a document's canonical JSON (keys sorted, no spaces), as the
app serves it with no database — what a client generator reads.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from litestar.testing import TestClient

from infra.settings import Settings
from services.http.app import create_app
from services.http.contract import CONTRACT_VERSION

ROOT = Path(__file__).resolve().parents[2]
FINGERPRINTS = ROOT / "docs" / "contract-fingerprints.json"
CHANGELOG = ROOT / "CHANGELOG.md"


def fingerprint(document: dict) -> str:
    return hashlib.sha256(json.dumps(document, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@pytest.fixture(scope="module")
def documents() -> dict[str, dict]:
    app = create_app(Settings(database_url="postgresql://nobody@127.0.0.1:1/none"))
    with TestClient(app) as client:
        return {"openapi": client.get("/schema/openapi.json").json(), "asyncapi": client.get("/schema/asyncapi.json").json()}


def test_both_documents_carry_the_contract_version(documents) -> None:
    assert documents["openapi"]["info"]["version"] == CONTRACT_VERSION
    assert documents["asyncapi"]["info"]["version"] == CONTRACT_VERSION


def test_the_documents_are_the_last_fingerprinted_version(documents) -> None:
    recorded = json.loads(FINGERPRINTS.read_text())
    now = {"version": CONTRACT_VERSION, **{name: fingerprint(doc) for name, doc in documents.items()}}
    assert recorded[-1] == now, (
        "the contract changed: move CONTRACT_VERSION (services/http/contract.py), add its entry to "
        f"CHANGELOG.md and append to {FINGERPRINTS.relative_to(ROOT)}: {json.dumps(now)}")


def test_every_version_is_new_and_in_the_changelog() -> None:
    recorded = json.loads(FINGERPRINTS.read_text())
    versions = [entry["version"] for entry in recorded]
    assert len(set(versions)) == len(versions)
    assert all(len({entry["openapi"], entry["asyncapi"]} & {other["openapi"], other["asyncapi"]}) < 2
               for i, entry in enumerate(recorded) for other in recorded[i + 1:])   # a version changes something
    headings = re.findall(r"^## (\S+)", CHANGELOG.read_text(), re.MULTILINE)
    assert headings[0] == CONTRACT_VERSION                                          # newest first
    assert set(versions) <= set(headings)
