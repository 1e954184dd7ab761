"""The state a belote match folds to, and the turn order it moves in. Frozen Structs,
replaced field by field (copy on write).

`Deal` holds everything about the current deal — or the last one, until the next starts, so
that `deal_summary` and views can still show it. `State` holds the match: options, the
per-deal score history that rulings act on, the litige pool and the winner. Turns pass
counter-clockwise, N -> W -> S -> E (belote.md §1.2), through lookup tables.
"""

from __future__ import annotations

from typing import Final

import msgspec

from domain.cards import PARTNER, SEAT_INDEX, SEATS, TEAM, Direction, Hands, Seat, next_seat, seats_from
from domain.game import RuleViolation
from domain.tricks import Trick

from domain.belote.events import Combination, Contract
from domain.belote.options import Options

DIRECTION: Final[Direction] = "counter_clockwise"
NEXT: Final[dict[Seat, Seat]] = {s: next_seat(s, DIRECTION) for s in SEATS}
FROM: Final[dict[Seat, tuple[Seat, ...]]] = {s: seats_from(s, DIRECTION) for s in SEATS}
OTHER_TEAM: Final = {"NS": "EW", "EW": "NS"}

VARIANTS: Final = ("classic", "sans_atout", "coinche")
TAKE_OR_PASS: Final = ("classic", "sans_atout")
COINCHE: Final = ("coinche",)

__all__ = ["DIRECTION", "NEXT", "FROM", "OTHER_TEAM", "PARTNER", "TEAM", "VARIANTS", "TAKE_OR_PASS", "COINCHE",
           "Auction", "Call", "Deal", "State", "deal_in", "in_deal", "initial", "no_points", "verify_turn"]


def no_points() -> dict[str, int]:
    return {"NS": 0, "EW": 0}


class Call(msgspec.Struct, frozen=True, omit_defaults=True):
    """One public auction action, as the players saw it."""
    seat: Seat
    action: str
    suit: str | None = None
    value: int | str | None = None


class Auction(msgspec.Struct, frozen=True):
    """`passes` counts consecutive passes: in the round (classic, sans atout), or since the
    last bid (Coinche; since the start while nobody has bid). After a coinche, `spoken`
    lists the contracting players who passed."""
    round: int = 1
    passes: int = 0
    high: Call | None = None
    coincher: Seat | None = None
    spoken: tuple[Seat, ...] = ()


class Deal(msgspec.Struct, frozen=True):
    number: int
    dealer: Seat
    eldest: Seat
    phase: str                                   # "auction", "play", "over"
    turn: Seat | None
    hands: Hands                                 # by seat, in SEATS order
    stock: tuple[str, ...] = ()                  # cards dealt after the auction
    turn_up: str | None = None
    auction: Auction = Auction()
    calls: tuple[Call, ...] = ()
    contract: Contract | None = None
    trick: Trick | None = None
    tricks: tuple[Trick, ...] = ()
    points: dict[str, int] = msgspec.field(default_factory=no_points)   # card points of completed tricks
    belote_holder: Seat | None = None
    belote: str = ""                             # "", "announced", "declined", "done"
    announces: tuple[tuple[Seat, str], ...] = ()
    combinations: dict[Seat, tuple[Combination, ...]] = {}   # hidden: each hand's own
    declared: dict[Seat, str] = {}               # seat -> kind said at trick 1
    declined: tuple[Seat, ...] = ()
    combination_team: str | None = None
    shown: tuple[Combination, ...] = ()
    combination_points: int = 0
    result: str | None = None                    # "made", "failed", "litige", "thrown_in"
    score: dict[str, int] = msgspec.field(default_factory=no_points)

    def hand(self, seat: Seat) -> tuple[str, ...]:
        return self.hands[SEAT_INDEX[seat]]


class State(msgspec.Struct, frozen=True):
    options: Options
    deal: Deal | None = None
    deals_played: int = 0
    next_dealer: Seat | None = None
    history: tuple[dict[str, int], ...] = ()     # what each deal added (0/0 when thrown in)
    voided: tuple[int, ...] = ()
    adjustments: tuple[tuple[int, dict[str, int]], ...] = ()
    match_score: dict[str, int] = msgspec.field(default_factory=no_points)
    pool: int = 0                                # litige points waiting for the next winner
    winner: str | None = None
    over: bool = False


def initial(options: Options) -> State:
    return State(options=options)


def in_deal(state: State) -> bool:
    return state.deal is not None and state.deal.phase != "over"


def verify_turn(turn: Seat | None, seat: Seat) -> None:
    if turn != seat:
        raise RuleViolation("not_your_turn", f"it is {turn}'s turn, not {seat}'s",
                            {"turn": None if turn is None else str(turn), "seat": str(seat)})


def deal_in(state: State, phase: str, action: str, variants: tuple[str, ...] = VARIANTS) -> Deal:
    """The deal under way in `phase`, or the reason why not, in the README's order: an action
    of another variant is malformed, then deal over, then wrong phase (the turn and the
    legality are each rule's own)."""
    if state.options.variant not in variants:
        raise RuleViolation("bad_action", f"'{action}' is not an action of {state.options.variant} belote")
    deal = state.deal
    if deal is None or deal.phase == "over" or state.over:
        raise RuleViolation("deal_over", f"no deal is under way; '{action}' has nothing to act on")
    if deal.phase != phase:
        raise RuleViolation("wrong_phase", f"'{action}' belongs to the {phase}; the deal is in its {deal.phase}")
    return deal
