"""`atout record play FILE [--legal]`: a match record through the real rules, one JSON object out."""

from __future__ import annotations

import argparse
import json
import sys

from domain.record import RecordError, play_record


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("record", help="match records")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    play = verbs.add_parser("play", help="apply a match record with the real rules and print the result")
    play.add_argument("file", help="the match record (JSON); '-' reads standard input")
    play.add_argument("--legal", action="store_true", help="add every seat's legal actions after the last action")
    play.set_defaults(func=run_play)


def run_play(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
        record = json.loads(text)
    except OSError as error:
        result = RecordError(None, None, "bad_record", f"cannot read {args.file}: {error.strerror}").as_json()
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        result = RecordError(None, None, "bad_record", f"not valid JSON: {error}").as_json()
    else:
        result = play_record(record, legal=args.legal)
    print(json.dumps(result))
    return 0 if result["ok"] else 1
