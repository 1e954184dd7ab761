"""Verifying a match record's fair chain: every deal's shuffle inputs, and how they link.

A deal's own inputs (seed, context, entropy) giving its deck proves nothing by itself: a
forger can draw a new seed, set the commitment to its hash and recompute the deck. What binds
the deal is the chain: each shuffled deal's commitment is the previous deal's revealed seed,
and the first deal of each chain hashes to that chain's tip, published before the deal
existed. This module checks both, per deal, and names the check that failed
(docs/fair-deal.md, "Verifying a match record"). Pure: hashlib through `domain.fair` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from domain import fair
from domain.cards import SEATS

CHECKS: Final = ("context", "entropy", "commitment", "deck", "chain_link", "tip")
"""In the order they are made; the first false one is what `record play` reports."""


def _hex32(value: Any) -> bytes | None:
    if not isinstance(value, str) or len(value) != 2 * fair.SEED_BYTES:
        return None
    try:
        return bytes.fromhex(value)
    except ValueError:
        return None


def _iterate(value: bytes, times: int) -> bytes:
    for _ in range(times):
        value = fair.sha256(value)
    return value


def chains_of(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The record's chains as `{chain, tip, chain_length, first_deal}`; chain 1's tip and
    length are None when the record does not carry them (then its links are still checked)."""
    renewals = [r for r in record.get("renewals") or [] if isinstance(r, Mapping)]
    tip = record.get("tip")
    first = {"chain": 1, "tip": _hex32(tip), "chain_length": record.get("chain_length"), "first_deal": 0}
    return [first, *({"chain": r.get("chain"), "tip": _hex32(r.get("tip")), "chain_length": r.get("chain_length"),
                      "first_deal": r.get("first_deal")} for r in renewals)]


def _chain_for(chains: list[dict[str, Any]], position: int) -> dict[str, Any] | None:
    """The last chain starting at or before `position`, if its length reaches it."""
    covering = None
    for chain in chains:
        if isinstance(chain["first_deal"], int) and chain["first_deal"] <= position:
            covering = chain
    if covering is None:
        return None
    length = covering["chain_length"]
    if isinstance(length, int) and position > covering["first_deal"] + length - 1:
        return None
    return covering


def _entropy_ok(entropy: Any) -> str:
    """'' when the entropy is a valid {seat: text} map, else why not."""
    if entropy is None:
        return ""
    if not isinstance(entropy, Mapping):
        return "'fair.entropy' must map seats to strings"
    for seat, text in entropy.items():
        if seat not in SEATS:
            return f"unknown seat {seat!r} in the entropy (seats are N, E, S, W)"
        if not isinstance(text, str) or len(text.encode("utf-8", "surrogatepass")) > fair.MAX_ENTROPY_BYTES:
            return f"seat {seat}'s entropy must be a string of at most {fair.MAX_ENTROPY_BYTES} bytes"
    return ""


def _fail(checks: dict[str, bool | None], why: dict[str, str], check: str, message: str) -> None:
    checks[check] = False
    why.setdefault(check, message)


def _codes(deck: Any) -> list[str] | None:
    return [str(card).upper() for card in deck] if isinstance(deck, list) else None


def _deck_of(canonical: Sequence[str], seed: bytes, context: str, entropy: Any) -> list[str] | None:
    try:
        return fair.permute(canonical, fair.derive_key(seed, context, entropy or None))
    except (fair.FairDealError, TypeError, ValueError):
        return None


def verify_record(record: Mapping[str, Any], canonical: Sequence[str]) -> list[dict[str, Any]]:
    """One result per deal of the record, in order: `{deal, kind, checks, failed, message}`.

    kind: `predefined` (no shuffle inputs: an imported deal; it still takes its chain
    position), `shuffled`, `replay` (a replay ruling's re-deal: the very board of an earlier
    deal, its context naming that deal), `board` (a tournament board: its own commitment, no
    entropy, outside the match's chain). checks: each of CHECKS true, false, or None when it
    does not apply or cannot be made (`tip` with a record that carries none)."""
    deals = record.get("deals") if isinstance(record.get("deals"), list) else []
    offset = record.get("first_deal", 0)
    offset = offset if isinstance(offset, int) and not isinstance(offset, bool) and offset >= 0 else 0
    match_id = record.get("match_id") if isinstance(record.get("match_id"), str) else None
    chains = chains_of(record)
    anchors: dict[int, tuple[int, bytes, bool | None]] = {}   # chain -> its latest shuffled deal: position, seed, tip
    shown: dict[int, Mapping[str, Any]] = {}                  # position -> a shuffled deal's fair and deck
    results = []
    for d, deal in enumerate(deals):
        position = d + offset
        fair_in = deal.get("fair") if isinstance(deal, Mapping) else None
        if fair_in is None:
            results.append({"deal": d, "kind": "predefined", "checks": dict.fromkeys(CHECKS), "failed": None,
                            "message": ""})
            continue
        checks: dict[str, bool | None] = dict.fromkeys(CHECKS)
        why: dict[str, str] = {}
        kind = "shuffled"

        fair_map = fair_in if isinstance(fair_in, Mapping) else {}
        context = fair_map.get("context")
        seed, commitment = _hex32(fair_map.get("seed")), _hex32(fair_map.get("commitment"))
        entropy = fair_map.get("entropy") or None
        try:
            parsed: tuple[str, str, int] | None = fair.parse_context(context)  # type: ignore[arg-type]
        except fair.FairDealError as error:
            parsed = None
            _fail(checks, why, "context", str(error))
        if parsed is not None:
            what, owner, number = parsed
            if what == "tournament":
                kind = "board"
                checks["context"] = True
            elif match_id is not None and owner != match_id:
                _fail(checks, why, "context", f"the context names match {owner!r}, but this is the record of match {match_id!r}")
            elif number == position + 1:
                checks["context"] = True
            elif number <= position:
                kind = "replay"
                original = shown.get(number - 1)
                outside = number - 1 < offset   # a single deal's export: its original is not in the record
                if outside and original is None or original is not None and original["fair"] == dict(fair_map) \
                        and original["deck"] == deal.get("deck"):
                    checks["context"] = True
                else:
                    _fail(checks, why, "context", f"the context names deal {number}, but this deal is neither deal {position + 1} "
                                    f"nor a replay of that deal's board")
            else:
                _fail(checks, why, "context", f"the context names deal {number}, but this is deal {position + 1} of the match")
        bad_entropy = _entropy_ok(entropy)
        if bad_entropy:
            _fail(checks, why, "entropy", bad_entropy)
        elif kind == "board" and entropy:
            _fail(checks, why, "entropy", "a tournament board takes no seat entropy")
        else:
            checks["entropy"] = True
        if seed is None or commitment is None:
            _fail(checks, why, "commitment", "'fair.seed' and 'fair.commitment' must be 32 bytes in hex (64 digits)")
        elif fair.verify_seed(seed, commitment):
            checks["commitment"] = True
        else:
            _fail(checks, why, "commitment", "the deal's seed does not hash to its commitment")
        if seed is not None and isinstance(context, str) and checks["entropy"]:
            expected = _deck_of(canonical, seed, context, entropy)
            if expected == _codes(deal.get("deck")):
                checks["deck"] = True
            elif kind == "shuffled" and _another_entropy(canonical, seed, context, entropy, deals, d, deal.get("deck")):
                _fail(checks, why, "entropy", "the deck is the one another deal's entropy gives: this deal's entropy was altered")
            else:
                _fail(checks, why, "deck", "the deck is not the one the deal's seed, context and entropy give")
        if kind in ("shuffled", "replay") and commitment is not None and parsed is not None:
            _link(checks, why, chains, anchors, position if kind == "shuffled" else parsed[2] - 1, commitment,
                  kind == "shuffled")
            if kind == "shuffled" and seed is not None:
                chain = _chain_for(chains, position)
                if chain is not None:
                    anchors[chain["chain"]] = (position, seed, checks["tip"])
                shown[position] = {"fair": dict(fair_map), "deck": deal.get("deck")}
        failed = next((c for c in CHECKS if checks[c] is False), None)
        results.append({"deal": d, "kind": kind, "checks": checks, "failed": failed,
                        "message": why.get(failed, "") if failed else ""})
    return results


def _link(checks: dict[str, bool | None], why: dict[str, str], chains: list[dict[str, Any]],
          anchors: dict[int, tuple[int, bytes, bool | None]], position: int, commitment: bytes, linked: bool) -> None:
    """chain_link: the commitment is the previous revealed seed of the same chain (through
    `gap` unrevealed positions: a replay's own position is never revealed); tip: the chain's
    first deal in the record reaches its tip."""
    chain = _chain_for(chains, position)
    if chain is None:
        checks["tip"] = False
        why["tip"] = f"no chain of the record covers deal {position + 1}"
        return
    anchor = anchors.get(chain["chain"]) if linked else None
    if anchor is not None:
        previous, seed, tip = anchor
        ok = _iterate(commitment, position - previous - 1) == seed
        checks["chain_link"] = ok
        if not ok:
            why["chain_link"] = (f"the commitment is not the seed revealed by deal {previous + 1}: "
                                 "this deal is not the next of the chain")
        checks["tip"] = tip if ok else None   # through the link, what the chain's first deal showed
        return
    if chain["tip"] is None:
        return
    ok = _iterate(commitment, position - chain["first_deal"]) == chain["tip"]
    checks["tip"] = ok
    if not ok:
        why["tip"] = (f"the seed does not reach chain {chain['chain']}'s published tip in "
                      f"{position - chain['first_deal'] + 1} hashes")


def _another_entropy(canonical: Sequence[str], seed: bytes, context: str, entropy: Any,
                     deals: list[Any], d: int, deck: Any) -> bool:
    """Whether the deck is the one a neighbouring deal's entropy gives (so this deal's was altered)."""
    for other in (d - 1, d + 1):
        if 0 <= other < len(deals) and isinstance(deals[other], Mapping):
            other_fair = deals[other].get("fair")
            if isinstance(other_fair, Mapping) and (other_fair.get("entropy") or None) != entropy \
                    and not _entropy_ok(other_fair.get("entropy") or None) \
                    and _deck_of(canonical, seed, context, other_fair.get("entropy") or None) == _codes(deck):
                return True
    return False


def summary(results: list[dict[str, Any]], record: Mapping[str, Any]) -> dict[str, Any]:
    """The whole record's verdict: ok, whether the tip was checked, the first failure."""
    failed = next((r for r in results if r["failed"]), None)
    return {"ok": failed is None, "tip_checked": _hex32(record.get("tip")) is not None,
            "failed": None if failed is None else {"deal": failed["deal"], "check": failed["failed"],
                                                   "message": failed["message"]}}
