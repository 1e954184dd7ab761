"""The `atout` command.

Each subcommand lives in its own module under `services/commands/` and exposes
`register(subparsers)`, which adds its parser and sets `func` (taking the parsed
arguments, returning an exit code). Adding a command never touches this file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from services import commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="atout", description="Atout: trick-taking card games server.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    return int(func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
