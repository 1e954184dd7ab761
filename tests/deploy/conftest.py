"""What the deployment files are checked against: the real `atout` parser, the real app's
routes and the settings object. No Docker engine or cluster is needed: the files are read."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from infra.settings import ENV_VARS, Settings

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = ("serve", "projector", "worker", "beat", "migrate")  # one image for each


@pytest.fixture(scope="session")
def routes() -> set[str]:
    """Every path of the app `atout serve` runs, e.g. "/readyz", "/v1/matches/{match_id:str}/ws"."""
    from services.http.app import create_app

    app = create_app(Settings(database_url="postgresql://nobody@127.0.0.1:1/none"))
    return {route.path for route in app.routes}


@pytest.fixture(scope="session")
def subcommands() -> set[str]:
    from services.cli import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return set(action.choices)


def check_command(argv: list[str], subcommands: set[str]) -> None:
    """`argv` (what follows the image's entrypoint) is a real `atout` command line: its first
    word a subcommand and the whole of it accepted by the parser. A process whose command
    module is missing fails: a deployment file naming it would not start."""
    from services.cli import build_parser

    assert argv, "no command"
    name = argv[0]
    assert name in subcommands, f"{shlex.join(argv)}: atout has no subcommand {name!r} (services/commands/{name}.py)"
    try:
        build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on what it refuses (0 after printing --help)
        if exc.code not in (0, None):
            pytest.fail(f"atout refuses {shlex.join(argv)} (exit {exc.code})")


def check_env(env: dict[str, Any], where: str) -> None:
    """ATOUT_* names are the settings object's, and their values load."""
    from infra.settings import load_settings

    atout = {k: str(v) for k, v in env.items() if k.startswith("ATOUT_")}
    unknown = set(atout) - set(ENV_VARS.values())
    assert not unknown, f"{where}: not settings of infra/settings.py: {sorted(unknown)}"
    resolved = {k: re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", v) for k, v in atout.items()}  # compose's defaults
    load_settings(resolved)  # raises SettingsError naming a bad value


def route_exists(path: str, routes: set[str]) -> bool:
    return path.split("?")[0] in routes


def load_yaml_docs(path: Path) -> list[dict[str, Any]]:
    with path.open() as file:
        return [doc for doc in yaml.safe_load_all(file) if doc is not None]
