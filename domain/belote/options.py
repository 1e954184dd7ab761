"""Match options (shared/rules/README.md "Match options"), validated once at match creation."""

from __future__ import annotations

from typing import Any, Final, Mapping

import msgspec

from domain.game import POSITIVE_INT_OR_UNSET, RuleViolation, bad_option, positive_int_option

VARIANTS: Final = ("classic", "sans_atout", "coinche")
RULE_SETS: Final = ("house", "official")
DEFAULT_TARGET: Final = {"classic": 1000, "sans_atout": 1000, "coinche": 2000}
SIDES: Final = ("NS", "EW")
CONTRACTS: Final = ("suits", "suits_ta_sa")
"""Coinche's denominations: the four suits, or also tout atout and sans atout."""
OPTIONS_SCHEMA: Final = {"variant": {"enum": list(VARIANTS)}, "rules": {"enum": list(RULE_SETS)},
                         "combinations": {"type": "boolean"}, "target": POSITIVE_INT_OR_UNSET,
                         "deals": POSITIVE_INT_OR_UNSET, "contracts": {"enum": list(CONTRACTS)}}
MAX_TARGET: Final = 10_000
POOLS: Final = tuple(f"belote_{variant}" for variant in VARIANTS)
"""One rating pool per variant; the other options only tune the rules (tout atout and sans
atout are more contracts to bid in the same Coinche, so they share its pool)."""


def rating_pool(raw: Mapping[str, Any]) -> str:
    return "belote_" + str(raw.get("variant") or "classic")


class Options(msgspec.Struct, frozen=True):
    """`official` is the §6 switch; `deals` (when set) replaces the target: the match is
    exactly that many deals and the side ahead wins. `contracts` is Coinche's: "suits_ta_sa"
    lets a bid name tout atout (TA) or sans atout (SA) besides a suit."""

    variant: str = "classic"
    rules: str = "house"
    combinations: bool = True
    target: int = 1000
    deals: int | None = None
    contracts: str = "suits"

    @property
    def official(self) -> bool:
        return self.rules == "official"

    @property
    def ta_sa(self) -> bool:
        return self.contracts == "suits_ta_sa"


_bad = bad_option
_positive_int = positive_int_option


def parse_options(raw: Mapping[str, Any]) -> Options:
    """Options from a match record or the API; an unknown option or bad value names itself."""
    if isinstance(raw, Options):
        return raw
    if not isinstance(raw, Mapping):
        raise RuleViolation("bad_option", "options must be a JSON object", {"option": None})
    known = {"variant", "rules", "combinations", "target", "deals", "contracts"}
    for name in raw:
        if name not in known:
            raise _bad(str(name), f"unknown option; belote options are {', '.join(sorted(known))}")
    variant = raw.get("variant", "classic")
    if variant not in VARIANTS:
        raise _bad("variant", f"expected one of {', '.join(VARIANTS)}, got {variant!r}")
    rules = raw.get("rules", "house")
    if rules not in RULE_SETS:
        raise _bad("rules", f"expected one of {', '.join(RULE_SETS)}, got {rules!r}")
    combinations = raw.get("combinations", True)
    if not isinstance(combinations, bool):
        raise _bad("combinations", f"expected true or false, got {combinations!r}")
    target = raw.get("target")
    target = DEFAULT_TARGET[variant] if target is None else _positive_int("target", target)
    deals = raw.get("deals")
    deals = None if deals is None else _positive_int("deals", deals)
    contracts = raw.get("contracts", "suits")
    if contracts not in CONTRACTS:
        raise _bad("contracts", f"expected one of {', '.join(CONTRACTS)}, got {contracts!r}")
    if contracts != "suits" and variant != "coinche":
        raise _bad("contracts", f"tout atout and sans atout are Coinche bids; {variant} names no contract")
    return Options(variant=variant, rules=rules, combinations=combinations, target=target, deals=deals,
                   contracts=contracts)


def sides(options: Any) -> tuple[str, ...]:
    return SIDES
