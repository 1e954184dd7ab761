"""Ways to tamper with a real match record's fair chain, each with the check that must catch it.

Shared by the tests of `record play`, `POST /v1/records/play` and `atout deal verify`, so
the three answer alike for the same forgery. Each takes a record of at least three shuffled
deals (the entropy of deals 0 and 1 the same) and returns a tampered copy.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any

from domain import fair


def _forge(record: dict[str, Any], d: int) -> dict[str, Any]:
    """A new seed, a commitment equal to its hash and the deck recomputed from it: every hash
    step of the deal holds, only the chain can tell."""
    out = copy.deepcopy(record)
    deal = out["deals"][d]
    seed = hashlib.sha256(b"forged" + bytes([d])).digest()
    deal["fair"]["seed"] = seed.hex()
    deal["fair"]["commitment"] = fair.sha256(seed).hex()
    deal["deck"] = fair.shuffle_deck(out["game"], seed, deal["fair"]["context"], deal["fair"]["entropy"] or None)
    return out


def _edit(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def tamper(record: dict[str, Any]) -> dict[str, Any]:
        out = copy.deepcopy(record)
        change(out)
        return out
    return tamper


def _swap_cards(record: dict[str, Any]) -> None:
    deck = record["deals"][1]["deck"]
    deck[0], deck[1] = deck[1], deck[0]


def _alter_entropy(record: dict[str, Any]) -> None:
    record["deals"][1]["fair"]["entropy"] = {**record["deals"][1]["fair"]["entropy"], "N": "not what north gave"}


def _alter_context(record: dict[str, Any]) -> None:
    record["deals"][1]["fair"]["context"] = record["deals"][1]["fair"]["context"].replace(":deal:2", ":deal:3")


def _break_link(record: dict[str, Any]) -> None:
    """Deal 1 dropped: deal 2 now follows deal 0, says so and has the deck its seed gives for
    that, but its commitment is not deal 0's seed."""
    del record["deals"][1]
    deal = record["deals"][1]
    deal["fair"]["context"] = deal["fair"]["context"].replace(":deal:3", ":deal:2")
    deal["deck"] = fair.shuffle_deck(record["game"], bytes.fromhex(deal["fair"]["seed"]), deal["fair"]["context"],
                                     deal["fair"]["entropy"] or None)


def _other_tip(record: dict[str, Any]) -> None:
    record["tip"] = "00" * 32


TAMPERINGS: dict[str, tuple[Callable[[dict[str, Any]], dict[str, Any]], int, str]] = {
    "forged chain": (lambda r: _forge(r, 1), 1, "chain_link"),
    "forged first deal": (lambda r: _forge(r, 0), 0, "tip"),
    "broken link": (_edit(_break_link), 1, "chain_link"),
    "altered card": (_edit(_swap_cards), 1, "deck"),
    "altered entropy": (_edit(_alter_entropy), 1, "entropy"),
    "altered context": (_edit(_alter_context), 1, "context"),
    "another tip": (_edit(_other_tip), 0, "tip"),
}
"""name -> (tamper, the deal that must be refused, the check that must name it)."""


def forge_entropy(record: dict[str, Any], seat: str = "N", text: str = "words that suit me") -> dict[str, Any]:
    """The forgery no chain check sees: one seat's entropy replaced in every shuffled deal,
    every deck recomputed from it by the published algorithm, and other actions played on the
    new cards (the first legal action that is not a pass, seat by seat). Match id, tip, seeds
    and commitments are kept; so is any signature the record carried."""
    from domain.record import play_record

    out = copy.deepcopy(record)
    for d, deal in enumerate(out["deals"]):
        if deal.get("fair") and not deal["fair"]["context"].startswith("tournament:"):
            deal["fair"]["entropy"] = {**(deal["fair"]["entropy"] or {}), seat: text}
            deal["deck"] = fair.shuffle_deck(out["game"], bytes.fromhex(deal["fair"]["seed"]),
                                             deal["fair"]["context"], deal["fair"]["entropy"])
        deal["actions"] = []
        while True:
            played = play_record({**out, "deals": out["deals"][:d + 1]}, legal=True)
            assert played["ok"], played
            if not played["legal"]:
                break
            acting, choices = sorted(played["legal"].items())[0]
            action = next((a for a in choices if a["action"] != "pass"), choices[0])
            deal["actions"].append({"seat": acting, **action})
    return out
