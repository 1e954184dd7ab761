"""The admin and projection commands beside a running `make run` (`atout serve` on the embedded
default): they use the servers it announced in its data folder instead of refusing; where no
data folder is, they say so and exit non-zero instead of making an empty database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.e2e.test_serve import _start, _stop, _wait_ready, own_dir  # noqa: F401  (own_dir: a fixture)

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def atout(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env["ATOUT_DATA_DIR"] = str(data)
    return subprocess.run([sys.executable, "-m", "services.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_admin_and_projection_commands_work_beside_make_run(own_dir: Path) -> None:  # noqa: F811
    proc, port, log = _start(own_dir)
    base, data = f"http://127.0.0.1:{port}", own_dir / "data"
    try:
        _wait_ready(proc, port, log)
        players = {}
        for name in ("Ada", "Ada", "Bob"):
            answer = httpx.post(f"{base}/v1/players", json={"name": name}).json()
            players.setdefault(name, []).append(answer)

        created = atout(data, "admin", "create", "root", "--json")
        assert created.returncode == 0, created.stderr
        root = json.loads(created.stdout.strip().splitlines()[-1])
        me = httpx.get(f"{base}/v1/players/me", headers={"Authorization": f"Bearer {root['token']}"}).json()
        assert me["player_id"] == root["player_id"] and me["role"] == "admin"

        status = atout(data, "projections", "status")
        assert status.returncode == 0, status.stderr
        assert "match_summaries" in status.stdout

        granted = atout(data, "admin", "grant", "Bob", "organiser")
        assert granted.returncode == 0, granted.stderr
        assert json.loads(granted.stdout) == {"player_id": players["Bob"][0]["player_id"], "role": "organiser",
                                              "granted": True}
        time.sleep(2.1)                                      # the server's token cache
        bob = httpx.get(f"{base}/v1/players/me", headers={"Authorization": f"Bearer {players['Bob'][0]['token']}"})
        assert bob.json()["role"] == "organiser"

        ambiguous = atout(data, "admin", "grant", "Ada", "organiser")
        assert ambiguous.returncode == 1
        assert all(p["player_id"] in ambiguous.stderr for p in players["Ada"]), ambiguous.stderr
        by_id = atout(data, "admin", "grant", players["Ada"][1]["player_id"], "admin")
        assert by_id.returncode == 0, by_id.stderr
        assert atout(data, "admin", "grant", "nobody", "admin").returncode == 1
    finally:
        assert _stop(proc, log) == 0, log.read_text()


def test_a_command_where_no_data_folder_is_says_so(tmp_path: Path) -> None:
    empty = tmp_path / "nothing-here"
    for args in (("projections", "status"), ("admin", "create", "root"), ("admin", "grant", "x", "admin")):
        answer = atout(empty, *args)
        assert answer.returncode != 0 and "no Atout data folder" in answer.stderr, (args, answer.stderr)
    assert not empty.exists()
