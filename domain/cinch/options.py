"""Match options of Cinch (shared/rules/README.md, "Match options"), validated once when a
match is created, so the rules never meet a value they do not understand."""

from __future__ import annotations

from typing import Any, Final, Mapping

import msgspec

from domain.cards import SEATS, TEAM, Seat
from domain.game import POSITIVE_INT, POSITIVE_INT_OR_UNSET, RuleViolation, bad_option, positive_int_option

CHOICES: Final = {
    "mode": ("partnership", "individual"),
    "failure_scoring": ("shortfall", "points_plus_bid"),
    "low_point": ("trick_winner", "holder"),
}
KNOWN: Final = ("mode", "target", "min_bid", "failure_scoring", "low_point", "deals")
TEAMS: Final = ("NS", "EW")
SEAT_SIDES: Final = tuple(str(s) for s in SEATS)
OPTIONS_SCHEMA: Final = {"mode": {"enum": list(CHOICES["mode"])}, "target": POSITIVE_INT,
                         "min_bid": {"type": "integer", "minimum": 1, "maximum": 14},
                         "failure_scoring": {"enum": list(CHOICES["failure_scoring"])},
                         "low_point": {"enum": list(CHOICES["low_point"])}, "deals": POSITIVE_INT_OR_UNSET}
MAX_TARGET: Final = 500
POOLS: Final = tuple(f"cinch_{mode}" for mode in CHOICES["mode"])
"""One rating pool per mode; the other options only tune the rules."""
INDIVIDUAL_POOLS: Final = ("cinch_individual",)


def rating_pool(raw: Mapping[str, Any]) -> str:
    return "cinch_" + str(raw.get("mode") or "partnership")


class Options(msgspec.Struct, frozen=True):
    """`deals` (when set) replaces the target: exactly that many deals, the side ahead wins."""

    mode: str = "partnership"
    target: int = 51
    min_bid: int = 1
    failure_scoring: str = "shortfall"
    low_point: str = "trick_winner"
    deals: int | None = None

    @property
    def individual(self) -> bool:
        return self.mode == "individual"


_bad = bad_option
_positive_int = positive_int_option


def parse_options(raw: Mapping[str, Any] | Options | None) -> Options:
    """Options from a match record or the API; an unknown option or a bad value names itself."""
    if isinstance(raw, Options):
        return raw
    if raw is None:
        return Options()
    if not isinstance(raw, Mapping):
        raise RuleViolation("bad_option", "options must be a JSON object", {"option": None})
    for name in raw:
        if name not in KNOWN:
            raise _bad(str(name), f"unknown option; cinch options are {', '.join(KNOWN)}")
    values: dict[str, Any] = {}
    for name, allowed in CHOICES.items():
        value = raw.get(name, allowed[0])
        if value not in allowed:
            raise _bad(name, f"expected one of {', '.join(allowed)}, got {value!r}")
        values[name] = value
    values["target"] = _positive_int("target", raw.get("target", 51))
    min_bid = raw.get("min_bid", 1)
    if isinstance(min_bid, bool) or not isinstance(min_bid, int) or not 1 <= min_bid <= 14:
        raise _bad("min_bid", f"expected an integer from 1 to 14, got {min_bid!r}")
    values["min_bid"] = min_bid
    deals = raw.get("deals")
    values["deals"] = None if deals is None else _positive_int("deals", deals)
    return Options(**values)


def sides(options: Any) -> tuple[str, ...]:
    """The scoring sides: the two partnerships, or the four seats each for himself (A.7)."""
    return SEAT_SIDES if parse_options(options).individual else TEAMS


_SIDE_OF: Final = {
    False: {s: TEAM[s] for s in SEATS},
    True: {s: str(s) for s in SEATS},
}


def side_table(options: Options) -> Mapping[Seat, str]:
    """seat -> the side it scores for, under these options."""
    return _SIDE_OF[options.individual]
