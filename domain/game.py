"""The shape every game shares: a decider plus what the service, the API and records need.

A game is a package under `domain/` whose `__init__` exposes `GAME: GameRules`, listed in
`domain/games.py`. The rules themselves are plain functions over immutable msgspec Structs:

    initial(options)          -> State
    decide(state, command)    -> list[Event]   (raises RuleViolation; never mutates)
    evolve(state, event)      -> State
    legal_actions(state, seat) -> list[dict]   (the shared action vocabulary, compact form)
    view(state, seat | None)  -> a Struct      (the ONLY path to players, spectators, logs, bots)
    redact(event, seat | None) -> Event | None (what one seat may see of an event; None = placeholder)

Randomness never enters: the deck of each deal arrives inside `StartDeal`. Everything a
record player or the game service needs to drive a match from the outside is here too, so
`domain/record.py` and `services/` never know which game they run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Final, Mapping, Sequence

import msgspec

from domain.cards import Card, Direction, Seat


class RuleViolation(Exception):
    """A command the rules refuse. `code` is stable and machine-readable (see
    shared/rules/README.md, conventions 4); `message` is for people."""

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details = dict(details or {})


def verify(condition: bool, code: str, message: str, **details: Any) -> None:
    """PokerKit-style guard: `verify(x in hand, "card_not_in_hand", "...")`."""
    if not condition:
        raise RuleViolation(code, message, details)


def bad_option(name: str, message: str) -> RuleViolation:
    """The one shape of an option error: `bad_option`, naming the option (the API turns it
    into the field path `$.options.<name>`)."""
    return RuleViolation("bad_option", f"option {name!r}: {message}", {"option": name})


POSITIVE_INT: Final[Mapping[str, Any]] = MappingProxyType({"type": "integer", "minimum": 1})
# An option whose null means "not set" (the game's default; for `deals`: play to the target).
# Stored matches and tournaments hold such nulls in their raw options, so they stay accepted.
POSITIVE_INT_OR_UNSET: Final[Mapping[str, Any]] = MappingProxyType(
    {"anyOf": [dict(POSITIVE_INT), {"type": "null"}], "description": "null: not set (the default)"})
"""The JSON Schema of `target` and `deals` in every game's `OPTIONS_SCHEMA` (a new match's
bound, `GameRules.max_target`, is added beside it where the API describes creation)."""


def positive_int_option(name: str, value: Any) -> int:
    """`target` and `deals` in every game: a positive integer, never a bool."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise bad_option(name, f"expected a positive integer, got {value!r}")
    return value


# --- Commands every game accepts -------------------------------------------------------

class StartDeal(msgspec.Struct, frozen=True, tag="start_deal"):
    """Deal the next hand from `deck` (top card first). The service supplies the deck, from
    the verifiable shuffle or a predefined deal; `fair` carries the shuffle's public inputs
    (context, commitment) so the deal's record can be verified later."""

    dealer: Seat
    deck: tuple[Card, ...]
    fair: dict[str, Any] | None = None


class VoidDeal(msgspec.Struct, frozen=True, tag="void_deal"):
    """An admin's ruling: deal `deal` (0-based) no longer counts toward the match score."""

    deal: int
    admin: str = ""
    reason: str = ""


class AdjustScore(msgspec.Struct, frozen=True, tag="adjust_score"):
    """An admin's ruling: add `score` (side -> points, may be negative) after deal `deal`."""

    deal: int
    score: dict[str, int]
    admin: str = ""
    reason: str = ""


class DealVoided(msgspec.Struct, frozen=True, tag="deal_voided"):
    """The event of a VoidDeal ruling; each game folds it (its score history) itself."""

    deal: int
    admin: str = ""
    reason: str = ""


class ScoreAdjusted(msgspec.Struct, frozen=True, tag="score_adjusted"):
    """The event of an AdjustScore ruling."""

    deal: int
    score: dict[str, int]
    admin: str = ""
    reason: str = ""


# --- What drives a match from outside --------------------------------------------------

class MatchStatus(msgspec.Struct, frozen=True):
    """Where a match stands, in terms any driver understands.

    phase: "awaiting_deal" (between deals; `next_dealer` says who must deal, None when
    free), "in_deal", or "match_over". `deals_played` counts deals started (0-based index
    of the current deal is deals_played - 1)."""

    phase: str
    deals_played: int
    next_dealer: Seat | None
    match_score: dict[str, int]
    winner: str | None
    to_act: tuple[Seat, ...] = ()      # the seats publicly expected to act now (out of turn too)


@dataclass(frozen=True)
class GameRules:
    """One game, as seen by everything outside `domain/`."""

    name: str                      # "belote", "cinch", "five_hundred"
    direction: Direction
    deck: tuple[Card, ...]         # the canonical deck this game shuffles
    sides: Callable[[Any], tuple[str, ...]]            # options -> ("NS", "EW") or the four seats
    parse_options: Callable[[Mapping[str, Any]], Any]  # raises RuleViolation("bad_option")
    initial: Callable[[Any], Any]
    decide: Callable[[Any, Any], list[Any]]
    evolve: Callable[[Any, Any], Any]
    legal_actions: Callable[[Any, Seat], list[dict[str, Any]]]
    view: Callable[[Any, Seat | None], Any]
    redact: Callable[[Any, Seat | None], Any]
    parse_action: Callable[[Mapping[str, Any]], Any]   # {"seat","action",...} -> command; bad_action
    status: Callable[[Any], MatchStatus]
    deal_summary: Callable[[Any], dict[str, Any]]      # record-play output for the current/last deal
    command_types: tuple[type, ...]                    # for msgspec decoding
    event_types: tuple[type, ...]                      # every event Struct, each with a unique tag
    # The game's facts the rest of Atout reads (nothing outside the game's package keeps its own copy):
    options_schema: Mapping[str, Any]                  # JSON Schema of each option at creation, in order
    max_target: int                                    # a new match's bound on `target` (about ten times the usual)
    pools: tuple[str, ...]                             # the rating pools, one per way of playing
    rating_pool: Callable[[Mapping[str, Any]], str]    # accepted raw options -> their pool
    view_aliases: Mapping[str, str]                    # deprecated view field -> the envelope field it equals
    individual_pools: tuple[str, ...] = ()             # pools where each seat is rated alone, not a side
    deals_started_field: str | None = None             # a deprecated view field counting deals started (deal_index + 1)
    # The wire shapes the API's documents type the game by (`domain/<game>/schema.py`): each
    # legal action's JSON Schema, the view fields its Struct holds as plain values, and the
    # event Structs a seat may be sent (redacted shapes in, the raw deal out).
    action_shapes: tuple[Mapping[str, Any], ...] = ()
    view_fields: Mapping[str, Any] = field(default_factory=dict)
    shown_events: tuple[type, ...] = ()
    # The game's double-dummy solver (`domain/<game>/doubledummy.py`): a module with
    # solve(state) -> Solution, value(state) -> int and contract_table(state) (domain/doubledummy).
    double_dummy: Any = None
    # The game's IMP table for duplicate (`domain/<game>/imp_scale.py`): options -> (the 24
    # thresholds, the score's unit), or None for a way of playing with no partnerships.
    imp_scale: Callable[[Mapping[str, Any]], Any] | None = None
    # A board's par (`domain/<game>/par.py`, `domain/par.py`): (parsed options, dealer, deck)
    # -> its contract, score and what each side takes with the auction and the play perfect
    # (None where a way of playing has no partnerships).
    par: Callable[[Any, Seat, Sequence[Card]], Any] | None = None

    def fold(self, options: Any, events: Sequence[Any]) -> Any:
        state = self.initial(options)
        for event in events:
            state = self.evolve(state, event)
        return state

    def apply(self, state: Any, command: Any) -> tuple[Any, list[Any]]:
        """decide then evolve: what a service or a record player does with one command."""
        events = self.decide(state, command)
        for event in events:
            state = self.evolve(state, event)
        return state, events
