"""A real `atout serve` with no ATOUT_RECORD_KEY makes its record key once in its data folder
and signs with the same one after a restart; `atout deal verify --record --server URL` fetches
that key and tells the record it exported from the same record with a seat's entropy swapped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest

from tests.e2e.system_support import ROOT, serving
from tests.fair_tampering import forge_entropy

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


def _finished_record(base: str) -> dict:
    """Four players over HTTP play a one-deal Belote to its end, each taking a legal action
    from its own view; the match record as its creator reads it."""
    tokens = {s: httpx.post(f"{base}/v1/players", json={"name": f"p{s}"}, timeout=10).json()["token"] for s in "NESW"}
    auth = {s: {"Authorization": f"Bearer {t}"} for s, t in tokens.items()}
    match_id = httpx.post(f"{base}/v1/matches", headers=auth["N"], timeout=10, json={
        "game": "belote", "options": {"deals": 1}, "entropy": "north words",
        "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}}).json()["match_id"]
    for seat in "ESW":
        taken = httpx.post(f"{base}/v1/matches/{match_id}/seats/{seat}", headers=auth[seat], timeout=10,
                           json={"entropy": f"{seat} words"})
        assert taken.status_code == 200, taken.text
    for _ in range(200):
        view = httpx.get(f"{base}/v1/matches/{match_id}", headers=auth["N"], timeout=10).json()
        if view["status"] == "finished":
            return httpx.get(f"{base}/v1/matches/{match_id}/record", headers=auth["N"], timeout=10).json()
        seat = view["to_act"][0]
        mine = httpx.get(f"{base}/v1/matches/{match_id}", headers=auth[seat], timeout=10).json()
        legal = mine["table"]["legal"]
        action = next((a for a in legal if a["action"] != "pass"), legal[0])
        acted = httpx.post(f"{base}/v1/matches/{match_id}/actions", headers=auth[seat], timeout=10,
                           json={"command_id": str(uuid.uuid4()), "expected_version": mine["version"], **action})
        assert acted.status_code == 200, acted.text
    raise AssertionError("the deal did not end")


def _verify(tmp: Path, record: dict, *args: str) -> tuple[int, dict]:
    path = tmp / f"{uuid.uuid4().hex}.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-m", "services.cli", "deal", "verify", "--record", str(path), *args],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    return out.returncode, json.loads(out.stdout)


def test_the_data_folder_key_survives_a_restart_and_deal_verify_fetches_it(
        tmp_path, migrated_database_url, redis_url, redis_prefix) -> None:
    data = tmp_path / "data"
    with serving(tmp_path, migrated_database_url, redis_url, f"{redis_prefix}:sign",
                 ATOUT_DATA_DIR=str(data)) as base:
        first = httpx.get(f"{base}/v1/records/key", timeout=10).json()
        record = _finished_record(base)
        assert record["signature"]["key_id"] == first["key_id"]
        code, out = _verify(tmp_path, record, "--server", base)
        assert (code, out["ok"], out["signature"]) == (0, True, "valid"), out
        code, out = _verify(tmp_path, forge_entropy(record), "--server", base)
        assert (code, out["ok"], out["failed"], out["signature"]) == (1, False, None, "invalid"), out
    assert (data / "record-key").exists()

    with serving(tmp_path, migrated_database_url, redis_url, f"{redis_prefix}:sign",
                 ATOUT_DATA_DIR=str(data)) as base:
        assert httpx.get(f"{base}/v1/records/key", timeout=10).json() == first
        code, out = _verify(tmp_path, record, "--server", base)
        assert (code, out["signature"]) == (0, "valid"), "a record exported before the restart still verifies"

    code = subprocess.run([sys.executable, "-m", "services.cli", "deal", "verify", "--record", "-", "--server",
                           "http://127.0.0.1:9"], input=json.dumps(record), cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert code.returncode == 2 and "cannot read the keys" in code.stderr


def test_a_damaged_key_file_stops_the_embedded_start_naming_it(tmp_path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "record-key").write_text("not a key\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env["ATOUT_DATA_DIR"] = str(data)
    out = subprocess.run([sys.executable, "-m", "services.cli", "serve"], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and "record-key" in out.stderr, out.stderr
    assert not (data / "pg").exists(), "stopped before starting any server"
