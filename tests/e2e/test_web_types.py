"""The web client is type-checked against the API's own documents (docs/web-client.md, "Type checking").

* The committed declarations (services/web/shared/api-types.d.ts, live-types.d.ts, pages.d.ts)
  are what tools/web_types.py makes now from the documents the app serves (built in-process,
  with no database) and from the pages: a contract change shows here first, with the command
  that refreshes them.
* `tsc -p services/web/tsconfig.json` (strict, over every module of the client) reports nothing.
* The check can fail, and where it should: in a copy of the client, a field read that no view
  has, a field the documents no longer give that the client reads, and a request body the
  documents no longer take are each reported at the line that uses them.

The npm tools are the pinned ones (`install_node_tools` of tests/e2e/clients/tools.py
puts them under .ci/node); without node and npm these tests skip, saying so.
"""

from __future__ import annotations

import difflib
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.clients.tools import install_node_tools
from tools import web_types

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "services" / "web"


@pytest.fixture(scope="module")
def node_bin() -> Path:
    return install_node_tools() / "node_modules" / ".bin"


def tsc(node_bin: Path, project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(node_bin / "tsc"), "-p", str(project), "--pretty", "false"], check=False,
                          capture_output=True, text=True, timeout=300, cwd=project.parent)


def test_the_committed_types_are_those_of_the_served_documents(node_bin: Path) -> None:
    expected = web_types.generate(node_bin)
    stale = web_types.stale(expected)
    diff = [] if not stale else list(difflib.unified_diff(
        stale[0].read_text(encoding="utf-8").splitlines() if stale[0].exists() else [],
        expected[stale[0]].splitlines(), "committed", "served now", n=1, lineterm=""))[:40]
    names = ", ".join(str(path.relative_to(ROOT)) for path in stale)
    assert not stale, (f"stale: {names}; refresh them with `{web_types.COMMAND}` and commit them (then fix what the "
                       "type check finds)\n" + "\n".join(diff))


def test_the_client_type_checks_with_no_error(node_bin: Path) -> None:
    done = tsc(node_bin, WEB / "tsconfig.json")
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{path.name} no longer holds {old!r}: choose another edit"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_client_that_disagrees_with_the_documents_fails_the_check(node_bin: Path, tmp_path: Path) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB, web, ignore=shutil.ignore_patterns("locales"))
    # the client reads a field no view has
    edit(web / "matches" / "match.js", "(view.to_act || []).includes(me)", "(view.to_akt || []).includes(me)")
    # the document no longer gives a field the client reads (the hints' limit of a match's view)
    edit(web / "shared" / "api-types.d.ts", "            hints_limit: number;", "            hint_limit: number;")
    # the document no longer takes a field the client sends (a seat's entropy)
    types = web / "shared" / "api-types.d.ts"
    text = types.read_text(encoding="utf-8")
    start = text.index("        TakeSeat: {")
    end = text.index("        };", start)
    types.write_text(text[:start] + text[start:end].replace("entropy?:", "words?:") + text[end:], encoding="utf-8")

    done = tsc(node_bin, web / "tsconfig.json")
    errors = [line for line in done.stdout.splitlines() if ": error TS" in line]
    assert done.returncode != 0, done.stdout + done.stderr
    assert any(line.startswith("matches/match.js(") and "to_akt" in line for line in errors), errors
    assert any(line.startswith("matches/hints.js(") and "hints_limit" in line for line in errors), errors
    assert any(line.startswith("matches/lobby.js(") and "entropy" in line for line in errors), errors
    assert len(errors) <= 12, errors                   # each mistake where it is made, not a cascade
