"""Match options of Five Hundred (shared/rules/README.md, "Match options")."""

from __future__ import annotations

from typing import Any, Final, Mapping

import msgspec

from domain.game import POSITIVE_INT, POSITIVE_INT_OR_UNSET, RuleViolation, bad_option, positive_int_option


class Options(msgspec.Struct, frozen=True):
    target: int = 500          # win at or over it by making a contract; lose at -target (B.8)
    misere: bool = True        # misère and open misère may be bid
    deals: int | None = None   # exactly N deals (duplicate boards): the side ahead wins


_KNOWN = ("target", "misere", "deals")
OPTIONS_SCHEMA: Final = {"target": POSITIVE_INT, "misere": {"type": "boolean"}, "deals": POSITIVE_INT_OR_UNSET}
MAX_TARGET: Final = 5_000
POOLS: Final = ("five_hundred",)


def rating_pool(raw: Mapping[str, Any]) -> str:
    return "five_hundred"


_bad = bad_option


def parse_options(raw: Mapping[str, Any]) -> Options:
    if not isinstance(raw, Mapping):
        raise RuleViolation("bad_option", "options must be a JSON object")
    for name in raw:
        if name not in _KNOWN:
            raise _bad(str(name), f"unknown option for five_hundred; known: {', '.join(_KNOWN)}")
    target = positive_int_option("target", raw.get("target", 500))
    misere = raw.get("misere", True)
    if not isinstance(misere, bool):
        raise _bad("misere", f"must be true or false, got {misere!r}")
    deals = raw.get("deals")
    deals = None if deals is None else positive_int_option("deals", deals)
    return Options(target=target, misere=misere, deals=deals)


def sides(options: Any) -> tuple[str, ...]:
    """The two partnerships score; there is no individual mode."""
    return ("NS", "EW")
