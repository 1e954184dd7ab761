"""The `atout` command.

Each subcommand lives in its own module under `services/commands/` and exposes
`register(subparsers)`, which adds its parser and sets `func` (taking the parsed
arguments, returning an exit code). `COMMANDS` is the list of them: a new command is a
module there and a line here.
"""

from __future__ import annotations

import argparse
import sys

from services.commands import (admin, beat, bots, deal, migrate, projections, projector, record, reviews, serve,
                               worker)

COMMANDS = (admin, beat, bots, deal, migrate, projections, projector, record, reviews, serve, worker)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="atout", description="Atout: trick-taking card games server.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
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
