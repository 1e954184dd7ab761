"""The bids of the continuous auction and their one total order (B.3.3, B.3.4).

A bid is its position in `BIDS`: "higher" is simply a larger index, so the auction never
compares values (misère is worth 250 yet loses to 8♠ at 240; open misère sits between 10♦
and 10♥). Scoring reads the value from the same entry.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from domain.five_hundred.ranking import DENOMINATIONS, NO_TRUMP

TRICKS: Final = "tricks"
MISERE: Final = "misere"
OPEN_MISERE: Final = "open_misere"


class BidSpec(NamedTuple):
    index: int
    kind: str               # "tricks", "misere" or "open_misere"
    tricks: int | None      # 6..10 for a trick contract
    suit: str | None        # S C D H NT for a trick contract
    value: int              # Avondale value (B.3.3)
    trump: str | None       # the trump suit; None in NT and misère (the Joker alone is trump)
    denomination: str       # what the trick machinery plays at: the trump suit, or NT (misère too, B.6.1)
    misere: bool

    def action(self) -> dict[str, Any]:
        """The bid in the shared action vocabulary (without the seat)."""
        if self.kind == TRICKS:
            return {"action": "bid", "tricks": self.tricks, "suit": self.suit}
        return {"action": "bid", "contract": self.kind}

    def describe(self) -> str:
        return f"{self.tricks}{self.suit}" if self.kind == TRICKS else self.kind.replace("_", " ")


def avondale(tricks: int, suit: str) -> int:
    """value(n, d) = 100·(n − 6) + 40 + 20·d, d = 0 ♠, 1 ♣, 2 ♦, 3 ♥, 4 NT."""
    return 100 * (tricks - 6) + 40 + 20 * DENOMINATIONS.index(suit)


def _order() -> tuple[BidSpec, ...]:
    keys: list[tuple[str, int | None, str | None, int]] = []
    for tricks in range(6, 11):
        for suit in DENOMINATIONS:
            if tricks == 10 and suit == "H":
                keys.append((OPEN_MISERE, None, None, 500))  # between 10♦ and 10♥
            keys.append((TRICKS, tricks, suit, avondale(tricks, suit)))
        if tricks == 7:
            keys.append((MISERE, None, None, 250))  # over every 7-bid, under every 8-bid
    return tuple(BidSpec(i, kind, tricks, suit, value,
                         suit if kind == TRICKS and suit != NO_TRUMP else None,
                         suit if kind == TRICKS else NO_TRUMP,  # type: ignore[arg-type]
                         kind != TRICKS)
                 for i, (kind, tricks, suit, value) in enumerate(keys))


BIDS: Final = _order()
HIGHEST: Final = len(BIDS) - 1
"""10NT: nothing ranks higher, so it closes the auction at once (Clarifications)."""

_INDEX: Final = {(b.kind, b.tricks, b.suit): b.index for b in BIDS}
SEVEN_LEVEL: Final = frozenset(b.index for b in BIDS if b.tricks == 7)
MISERE_INDEX: Final = _INDEX[(MISERE, None, None)]
OPEN_MISERE_INDEX: Final = _INDEX[(OPEN_MISERE, None, None)]
ACTIONS: Final = tuple(b.action() for b in BIDS)


def find(tricks: int | None, suit: str | None, contract: str | None) -> int | None:
    """The index of the bid named by an action's fields, None when they name no bid."""
    if contract is not None:
        return _INDEX.get((contract, None, None)) if tricks is None and suit is None else None
    return _INDEX.get((TRICKS, tricks, suit))


def why_not(index: int, high: int, misere_allowed: bool) -> str | None:
    """None when `index` may be bid over the current highest bid `high` (-1: no bid yet);
    otherwise the reason, for `illegal_bid`."""
    bid = BIDS[index]
    if bid.misere and not misere_allowed:
        return "misère is not played in this match (option misere: false)"
    if index <= high:
        return f"{bid.describe()} does not outrank the current bid {BIDS[high].describe()}"
    if index == MISERE_INDEX and high not in SEVEN_LEVEL:
        return "misère may be bid only when the highest bid is a 7-bid (B.3.5)"
    return None


def biddable(high: int, misere_allowed: bool) -> list[int]:
    """Every bid that may be made over `high`, low to high."""
    out = [i for i in range(high + 1, len(BIDS)) if i not in (MISERE_INDEX, OPEN_MISERE_INDEX)]
    if misere_allowed:
        if high in SEVEN_LEVEL:
            out.append(MISERE_INDEX)
        if high < OPEN_MISERE_INDEX:
            out.append(OPEN_MISERE_INDEX)
        out.sort()
    return out
