#!/usr/bin/env python3
"""HEALTHCHECK of the Atout image (deploy/Dockerfile).

`atout serve` is healthy when GET /healthz (or the path given as the first argument, e.g.
/readyz) on ATOUT_PORT answers 200. The other processes
(projector, worker, beat, migrate) have no HTTP API: they are healthy while they run, since
each exits non-zero on a fatal error and the restart policy takes over. Which process this
container runs is read from PID 1's command line (tini -- atout-entrypoint ROLE ...).
"""

import os
import sys
import urllib.request

NOT_HTTP = {"projector", "worker", "beat", "migrate", "projections", "admin", "record", "deal"}


def role(args: list[str]) -> str:
    """The atout subcommand in PID 1's arguments; "serve" when none is named (the default)."""
    return next((a for a in args if a in NOT_HTTP or a == "serve"), "serve")


def pid1_args() -> list[str]:
    try:
        with open("/proc/1/cmdline", "rb") as file:
            return [a.decode(errors="replace") for a in file.read().split(b"\0") if a]
    except OSError:
        return []


def main() -> int:
    if role(pid1_args()) != "serve":
        return 0
    path = sys.argv[1] if len(sys.argv) > 1 else "/healthz"
    url = f"http://127.0.0.1:{os.environ.get('ATOUT_PORT') or '8000'}{path}"
    try:
        with urllib.request.urlopen(url, timeout=3) as response:
            return 0 if response.status == 200 else 1
    except OSError as error:
        print(f"{url}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
