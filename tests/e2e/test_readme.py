"""The README's "Your first match", run as a reader runs it: its shell block with bash, curl and
jq against a running system (the README's `API=` pointed at it), then its Python `watch` on
the match the block created. The quickstart stays true because this runs it."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

README = Path(__file__).resolve().parents[2] / "README.md"
FIRST_MATCH = README.read_text(encoding="utf-8").split("## Your first match", 1)[1]


def block(language: str) -> str:
    found = re.search(rf"```{language}\n(.*?)```", FIRST_MATCH, re.S)
    assert found, f"no {language} block under 'Your first match'"
    return found.group(1)


def test_the_first_match_runs_as_written(web_system, tmp_path: Path) -> None:
    missing = [tool for tool in ("bash", "curl", "jq") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"the README's block needs {', '.join(missing)} (.ci/run installs them)")
    script = block("sh")
    assert "API=http://127.0.0.1:8000\n" in script
    script = script.replace("API=http://127.0.0.1:8000\n", f"API={web_system.base}\n")
    ran = subprocess.run(["bash", "-euo", "pipefail", "-c", script + '\necho "MATCH=$MATCH TOKEN=$(tok N)"\n'],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr[-2000:]
    *printed, last = ran.stdout.strip().splitlines()
    ids = dict(part.split("=", 1) for part in last.split())
    text, documents, at = "\n".join(printed), [], 0
    while text[at:].strip():                       # the JSON documents jq printed, one after another
        document, at = json.JSONDecoder().raw_decode(text, len(text) - len(text[at:].lstrip()))
        documents.append(document)
    shown, answer = documents
    assert {"action": "pass"} in shown["legal"] and len(shown["hand"]) == 5, shown
    assert answer["match_id"] == ids["MATCH"] and answer["version"] == shown["version"] + 2, answer
    assert [e["event"]["type"] for e in answer["events"]] == ["action_taken", "passed"], answer

    namespace: dict = {}
    exec(block("python").replace("ws://127.0.0.1:8000", web_system.base.replace("http", "ws", 1))
         .replace('asyncio.run(watch("MATCH-ID", "TOKEN"))', ""), namespace)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(TimeoutError):
        asyncio.run(asyncio.wait_for(namespace["watch"](ids["MATCH"], ids["TOKEN"]), 3))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("snapshot ") and any(line.startswith("event ") for line in lines), lines
