"""The generators and checkers the generated-clients tests run, each pinned: the npm tools
under `.ci/node/` (installed by `.ci/run`, or here on first use), `openapi-python-client` and
`mypy` from the project's test extra. A machine without node and npm skips the TypeScript
and AsyncAPI checks, saying so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
NODE_DIR = ROOT / ".ci" / "node"
NODE_PACKAGES = ("@asyncapi/parser@3.6.6", "openapi-typescript@7.13.0", "typescript@5.9.3", "openapi-fetch@0.17.0")
# The one openapi-typescript option used: a field with a default may be left out of a request.
TYPESCRIPT_FLAGS = ("--default-non-nullable", "false")
TSC_FLAGS = ("--strict", "--noEmitOnError", "--skipLibCheck", "--target", "es2022", "--module", "es2022",
             "--moduleResolution", "bundler")


def install_node_tools() -> Path:
    """The pinned npm tools under .ci/node (installed once; `.ci/run` does it up front)."""
    modules = NODE_DIR / "node_modules"
    if all((modules / ".bin" / tool).exists() for tool in ("tsc", "openapi-typescript")) and \
            all((modules / name).is_dir() for name in ("@asyncapi/parser", "openapi-fetch")):
        return NODE_DIR
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the TypeScript and AsyncAPI checks need them")
    NODE_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npm", "install", "--prefix", str(NODE_DIR), "--no-audit", "--no-fund", "--loglevel=error",
                    *NODE_PACKAGES], check=True, timeout=600, capture_output=True)
    return NODE_DIR


def python_client(document: Path, folder: Path) -> Path:
    """`openapi-python-client generate` into `folder/atout_client`: the folder to put on the path.
    Everything must be usable but the live streams' bodies (a stream of messages: NDJSON, which
    this generator does not read; the AsyncAPI document is their contract)."""
    generator = Path(sys.executable).parent / "openapi-python-client"
    done = subprocess.run([str(generator), "generate", "--path", str(document), "--meta", "none",
                           "--output-path", str(folder / "atout_client")], capture_output=True, text=True,
                          timeout=300, cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = (done.stdout + done.stderr).splitlines()
    omitted = [line for line in lines if "will be omitted" in line and "application/x-ndjson" not in line]
    skipped = [line for line in lines if line.startswith("WARNING parsing")]
    assert not omitted, "the generator could not use parts of the document:\n" + "\n".join(lines)
    assert all(line.endswith(("/stream within live.", "/stream/me within live.", "/live within tournaments."))
               for line in skipped), skipped
    return folder


def typescript_types(node_dir: Path, document: Path, folder: Path) -> Path:
    """`openapi-typescript` into `folder/api.d.ts`, beside a `node_modules` link to the pinned
    tools (so both tsc and node resolve `openapi-fetch` from there)."""
    done = subprocess.run([str(node_dir / "node_modules" / ".bin" / "openapi-typescript"), str(document),
                           "-o", str(folder / "api.d.ts"), *TYPESCRIPT_FLAGS], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    (folder / "node_modules").symlink_to(node_dir / "node_modules", target_is_directory=True)
    (folder / "package.json").write_text(json.dumps({"type": "module", "private": True}))
    return folder


def mypy_strict(program: Path, client: Path, cache: Path) -> subprocess.Popen[str]:
    """`mypy --strict` on `program`, the generated package found on its path, started: it takes
    a while (the package is some 800 modules), and may run beside the TypeScript checks."""
    return subprocess.Popen([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), str(program)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=client,
                            env={**os.environ, "MYPYPATH": str(client)})


def tsc_strict(node_dir: Path, folder: Path, *programs: str) -> subprocess.CompletedProcess[str]:
    """`tsc --strict` on `programs` (in `folder`, beside api.d.ts), emitting JavaScript into
    `folder/out` only when every one type-checks."""
    return subprocess.run([str(node_dir / "node_modules" / ".bin" / "tsc"), *TSC_FLAGS, "--outDir", "out",
                           *programs], capture_output=True, text=True, timeout=180, cwd=folder)


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> dict[str, dict[str, object]]:
    """A client program's summary: the last line it prints, as JSON."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=cwd, env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary: dict[str, dict[str, object]] = json.loads(done.stdout.strip().splitlines()[-1])
    return summary
