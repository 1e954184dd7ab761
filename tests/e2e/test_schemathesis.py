"""Schemathesis against a real `atout serve` (and a worker, so bots play): every operation of
the document, all four phases, about two minutes; no answer is a 5xx, every answer conforms to
the document (status, media type, headers, body), no schema-valid request is refused but by a
rule the schema cannot state (bench/fuzz.py BEYOND_SCHEMA), and the stateful phase followed the
links into real matches: requests reached the act operation with a match id it had created.
The long run is `bench/fuzz.py` (docs/api.md, "Fuzzing")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from system_support import running_system

from tests import databases

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fuzz  # noqa: E402

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

SECONDS = 100


@pytest.fixture
async def own_database(database_url: str):
    """A database of the run's own: what the rest of the suite left in the session's database
    (other tests' matches, tournaments, disputes) is not this run's to fuzz through."""
    async with databases.own_database(database_url, "atout_st") as url:
        yield url


def test_schemathesis_finds_no_5xx_and_no_answer_outside_the_document(own_database, redis_url,
                                                                       redis_prefix, tmp_path) -> None:
    (tmp_path / "system").mkdir()
    with running_system(tmp_path / "system", own_database, redis_url, f"{redis_prefix}st",
                        ATOUT_RATE_LIMIT_REQUESTS="0") as system:
        tokens = fuzz.players(system.base, system.env)
        result = fuzz.schemathesis_run(system.base, tokens, SECONDS, tmp_path / "st", seed=20261201)
        server_log = system.logs[0].read_text(errors="replace")
    summary = {k: result[k] for k in ("requests", "operations", "operations_tested", "by_status", "failures", "act",
                                      "refused_valid", "examples")}
    # Every operation of the document was called (the request count itself depends on the machine's load).
    assert result["operations"] >= 40 and result["operations_tested"] >= result["operations"], \
        (summary, Path(result["log"]).read_text()[-3000:])
    assert result["server_errors"] == 0, summary
    assert result["schema_violations"] == 0, summary
    assert result["refused_valid_unexplained"] == 0, result["refused_valid_unexplained_examples"]
    # No schema-invalid request is accepted: the document is as strict as the validation
    # (the message shows the requests that were).
    assert result["failures"].get("negative_data_rejection", 0) == 0, result["examples"].get("negative_data_rejection")
    # The stateful phase ran real sequences: create -> (seat) -> act on the match it made.
    assert result["act"].get("real_match", 0) >= 1, summary
    assert '"level": "error"' not in server_log, server_log[-3000:]
