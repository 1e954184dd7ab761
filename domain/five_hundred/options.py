"""Match options of Five Hundred (shared/rules/README.md, "Match options")."""

from __future__ import annotations

from typing import Any, Mapping

import msgspec

from domain.game import RuleViolation


class Options(msgspec.Struct, frozen=True):
    target: int = 500          # win at or over it by making a contract; lose at -target (B.8)
    misere: bool = True        # misère and open misère may be bid
    deals: int | None = None   # exactly N deals (duplicate boards): the side ahead wins


_KNOWN = ("target", "misere", "deals")


def _bad(option: str, message: str) -> RuleViolation:
    return RuleViolation("bad_option", f"option {option!r}: {message}", {"option": option})


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def parse_options(raw: Mapping[str, Any]) -> Options:
    if not isinstance(raw, Mapping):
        raise RuleViolation("bad_option", "options must be a JSON object")
    for name in raw:
        if name not in _KNOWN:
            raise _bad(str(name), f"unknown option for five_hundred; known: {', '.join(_KNOWN)}")
    target = raw.get("target", 500)
    if not _positive_int(target):
        raise _bad("target", f"must be a positive integer, got {target!r}")
    misere = raw.get("misere", True)
    if not isinstance(misere, bool):
        raise _bad("misere", f"must be true or false, got {misere!r}")
    deals = raw.get("deals")
    if deals is not None and not _positive_int(deals):
        raise _bad("deals", f"must be a positive integer number of deals, got {deals!r}")
    return Options(target=target, misere=misere, deals=deals)
