"""`atout beat`: the Celery beat scheduler: the features' timers (the sweeper, the tournament tick; run one)."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("beat", help="run the Celery beat scheduler (the sweeper's timer)")
    parser.add_argument("--schedule", help="beat's schedule file (default: under ATOUT_DATA_DIR)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from infra.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"atout beat: {exc}", file=sys.stderr)
        return 2
    if not settings.redis_url:
        print("atout beat: set ATOUT_REDIS_URL", file=sys.stderr)
        return 2
    from services.bootstrap import worker_app

    app = worker_app(settings)                # every feature's beat entries

    schedule = args.schedule or str(settings.data_path / "celerybeat-schedule")
    settings.data_path.mkdir(parents=True, exist_ok=True)
    app.start(["beat", "-s", schedule, "-l", "INFO"])
    return 0
