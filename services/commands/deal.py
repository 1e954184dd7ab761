"""`atout deal verify`: check everything a revealed deal's truth rests on.

One deal (its deck given with `--deck`, the chain's tip with `--tip`) or a whole match
record (`--record FILE`): context, entropy, commitment, deck, the link to the previous deal
and to the tip, one JSON line with each check. A player or a dispute reviewer needs nothing
but public data and this command (or the text of docs/fair-deal.md).

The chain's checks cannot see a seat's entropy swapped and every deck recomputed from it;
the server's signature can. With `--key` (the public key, pinned) or `--server` (fetched) a
record must carry a signature that holds, or the command fails: asking for the check and
getting an unsigned record is not a pass.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request

from domain import fair_chain
from domain.cards import SEATS
from domain.fair import (
    GAME_DECK_SIZE,
    SEED_BYTES,
    FairDealError,
    deck_for,
    parse_context,
    shuffle_deck,
    verify_seed,
)
from infra import signing


class _UsageError(Exception):
    """Bad input from the command line: reported on stderr with exit code 2."""


def register(subparsers: argparse._SubParsersAction) -> None:
    deal = subparsers.add_parser("deal", help="verifiable deals (see docs/fair-deal.md)")
    actions = deal.add_subparsers(dest="deal_command", metavar="ACTION")
    verify = actions.add_parser(
        "verify",
        help="check a deal (or a whole match record): context, entropy, commitment, deck, chain link, tip",
        description="Prints one JSON line with each check (true, false, or null when not made); exits 1 when "
        "any check fails, 2 on bad input. With --record FILE every deal of a match record is checked.",
    )
    verify.add_argument("--record", metavar="FILE", help="a match record (JSON; '-' reads standard input)")
    verify.add_argument("--game", help=f"one of {', '.join(GAME_DECK_SIZE)}")
    verify.add_argument("--seed", metavar="HEX", help="the revealed seed, 32 bytes in hex")
    verify.add_argument(
        "--context", metavar="TEXT",
        help="match:<id>:deal:<k> or tournament:<id>:board:<b>",
    )
    verify.add_argument("--deck", metavar="CODES", help="the deck that was dealt, top card first, comma separated")
    verify.add_argument("--tip", metavar="HEX", help="the chain's published tip (match_created's commitment)")
    verify.add_argument("--steps", type=int, metavar="N",
                        help="hashes from the seed to --tip (default: k of the context, for the first chain)")
    verify.add_argument(
        "--entropy", action="append", default=[], metavar="SEAT=TEXT",
        help="a seat's entropy string (repeat per seat: N, E, S, W)",
    )
    verify.add_argument(
        "--commitment", metavar="HEX",
        help="the value the seed must hash to (the previous chain element, or the tip for deal 1)",
    )
    verify.add_argument("--key", action="append", default=[], metavar="BASE64",
                        help="with --record: the server's public key (GET /v1/records/key's public_key); repeat "
                        "for retired keys. The record's signature must hold")
    verify.add_argument("--server", metavar="URL",
                        help="with --record: fetch the keys from URL/v1/records/key (rather pin one with --key)")
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
        if args.record is not None:
            return _verify_record(args.record, _keys(args.key, args.server))
        if args.key or args.server:
            raise _UsageError("--key and --server check a record's signature: give --record FILE")
        for flag in ("game", "seed", "context", "commitment"):
            if getattr(args, flag) is None:
                raise _UsageError(f"--{flag} is required (or give --record FILE)")
        if args.game not in GAME_DECK_SIZE:
            raise _UsageError(f"unknown game {args.game!r} (expected {', '.join(GAME_DECK_SIZE)})")
        seed = _hex32(args.seed, "--seed")
        commitment = _hex32(args.commitment, "--commitment")
        tip = None if args.tip is None else _hex32(args.tip, "--tip")
        entropy = _entropy(args.entropy)
        given = None if args.deck is None else [c.strip().upper() for c in args.deck.split(",") if c.strip()]
        deck_for(args.game)
    except (_UsageError, FairDealError) as exc:
        print(f"atout deal verify: error: {exc}", file=sys.stderr)
        return 2
    checks: dict[str, bool | None] = dict.fromkeys(("context", "entropy", "commitment", "deck", "tip"))
    problems: dict[str, str] = {}
    number = None
    try:
        kind, _, number = parse_context(args.context)
        checks["context"] = True
    except FairDealError as exc:
        kind, checks["context"], problems["context"] = None, False, str(exc)
    deck = None
    try:
        deck = shuffle_deck(args.game, seed, args.context, entropy)
        checks["entropy"] = True
    except FairDealError as exc:
        which = "context" if "context" in str(exc) and kind is None else "entropy"
        checks[which], problems[which] = False, str(exc)
    checks["commitment"] = verify_seed(seed, commitment)
    if given is not None and deck is not None:
        checks["deck"] = deck == given
    if tip is not None:
        steps = args.steps if args.steps is not None else number
        checks["tip"] = steps is not None and verify_seed(seed, tip, steps)
    ok = all(v is not False for v in checks.values())
    out = {"ok": ok, "deck": deck, "checks": checks, "commitment_ok": checks["commitment"],
           "tip_checked": tip is not None}
    if problems:
        out["problems"] = problems
    print(json.dumps(out))
    return 0 if ok else 1


def _keys(given: list[str], server: str | None) -> list[signing.PublicKey] | None:
    """The public keys to check a signature against; None when none was asked for."""
    if not given and server is None:
        return None
    try:
        keys = [signing.PublicKey.from_b64(text, "--key") for text in given]
    except signing.SigningKeyError as exc:
        raise _UsageError(str(exc)) from None
    if server is not None:
        url = server.rstrip("/") + "/v1/records/key"
        try:
            with urllib.request.urlopen(url, timeout=15) as answer:
                served = json.loads(answer.read())
            keys += [signing.PublicKey.from_b64(k.get("public_key"), f"{url}'s public_key")
                     for k in [served, *served.get("retired", [])]]
        except (urllib.error.URLError, OSError, ValueError, AttributeError, signing.SigningKeyError) as exc:
            raise _UsageError(f"cannot read the keys at {url}: {exc}") from None
    return keys


def _verify_record(path: str, keys: list[signing.PublicKey] | None = None) -> int:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        record = json.loads(text)
    except OSError as exc:
        raise _UsageError(f"cannot read {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise _UsageError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(record, dict) or record.get("game") not in GAME_DECK_SIZE or not isinstance(record.get("deals"), list):
        raise _UsageError(f"{path} is not a match record of one of {', '.join(GAME_DECK_SIZE)} with a list of deals")
    results = fair_chain.verify_record(record, deck_for(record["game"]))
    verdict = fair_chain.summary(results, record)
    if keys is not None:
        signature = signing.verify(record, keys)
        verdict["ok"] = verdict["ok"] and signature == "valid"
    else:
        signature = "absent" if signing.SIGNATURE not in record else "unchecked"
    print(json.dumps({**verdict, "signature": signature,
                      "deals": [{"deal": r["deal"], "kind": r["kind"], "checks": r["checks"]} for r in results]}))
    return 0 if verdict["ok"] else 1
