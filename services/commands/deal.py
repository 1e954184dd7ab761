"""`atout deal verify`: recompute a revealed deal and check its seed against the commitment.

A player or a dispute reviewer needs nothing but public data and this command (or the text
of docs/fair-deal.md) to be sure the deck was the one the server was bound to.
"""

from __future__ import annotations

import argparse
import json
import sys

from domain.cards import SEATS
from domain.fair import GAME_DECK_SIZE, SEED_BYTES, FairDealError, shuffle_deck, verify_seed


class _UsageError(Exception):
    """Bad input from the command line: reported on stderr with exit code 2."""


def register(subparsers: argparse._SubParsersAction) -> None:
    deal = subparsers.add_parser("deal", help="verifiable deals (see docs/fair-deal.md)")
    actions = deal.add_subparsers(dest="deal_command", metavar="ACTION")
    verify = actions.add_parser(
        "verify",
        help="recompute a deck from its seed, context and entropy; check the seed's commitment",
        description="Prints {\"deck\": [...], \"commitment_ok\": true|false}; exits 1 when the "
        "commitment does not match, 2 on bad input.",
    )
    verify.add_argument("--game", required=True, help=f"one of {', '.join(GAME_DECK_SIZE)}")
    verify.add_argument("--seed", required=True, metavar="HEX", help="the revealed seed, 32 bytes in hex")
    verify.add_argument(
        "--context", required=True, metavar="TEXT",
        help="match:<id>:deal:<k> or tournament:<id>:board:<b>",
    )
    verify.add_argument(
        "--entropy", action="append", default=[], metavar="SEAT=TEXT",
        help="a seat's entropy string (repeat per seat: N, E, S, W)",
    )
    verify.add_argument(
        "--commitment", required=True, metavar="HEX",
        help="the value the seed must hash to (the previous chain element, or the tip for deal 1)",
    )
    verify.set_defaults(func=_verify)
    deal.set_defaults(func=lambda args: _help(deal))


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _hex32(text: str, what: str) -> bytes:
    try:
        value = bytes.fromhex(text.strip())
    except ValueError:
        raise _UsageError(f"{what} is not hex: {text!r}") from None
    if len(value) != SEED_BYTES:
        raise _UsageError(f"{what} must be {SEED_BYTES} bytes ({2 * SEED_BYTES} hex digits), got {len(value)}")
    return value


def _entropy(items: list[str]) -> dict[str, str]:
    entropy: dict[str, str] = {}
    for item in items:
        seat, sep, text = item.partition("=")
        if not sep:
            raise _UsageError(f"--entropy expects SEAT=TEXT, got {item!r}")
        seat = seat.strip().upper()
        if seat not in SEATS:
            raise _UsageError(f"unknown seat {seat!r} in --entropy (expected N, E, S or W)")
        if seat in entropy:
            raise _UsageError(f"seat {seat} is given entropy twice")
        entropy[seat] = text
    return entropy


def _verify(args: argparse.Namespace) -> int:
    try:
        if args.game not in GAME_DECK_SIZE:
            raise _UsageError(f"unknown game {args.game!r} (expected {', '.join(GAME_DECK_SIZE)})")
        seed = _hex32(args.seed, "--seed")
        commitment = _hex32(args.commitment, "--commitment")
        deck = shuffle_deck(args.game, seed, args.context, _entropy(args.entropy))
    except (_UsageError, FairDealError) as exc:
        print(f"atout deal verify: error: {exc}", file=sys.stderr)
        return 2
    ok = verify_seed(seed, commitment)
    print(json.dumps({"deck": deck, "commitment_ok": ok}))
    return 0 if ok else 1
