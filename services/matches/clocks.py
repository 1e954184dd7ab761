"""Per-match turn clocks: a time budget per decision, one for bidding (every decision
before the card play: auction, trumps, discards, the kitty) and one for the play.

A clock is not a rule of the game, so it is not a game option (the games refuse unknown
options) and it does not live in the match stream, whose versions players act on: it is
a `clock_set` event in the match's own `clock-<match id>` stream, written once after the
match is created (`set_clock`), read by the `bot_turns` projection. A match without one
never has anything played for a human. `parse_clock` validates what an API body's
`"clock": {"bid": 30, "play": 15}` carries; `match_clock` gives a rated match its clock.

A rated match always has one, within RATED_BOUNDS: without it a losing side could stall
until the sweeper abandons the match, which then rates nothing (docs/ratings.md). And a seat
whose clock runs out TIMEOUTS_AWAY times in a row counts as away (`after_timeout`), a player
on REST only included, so the ratings' rule for a side all away applies to a side that stalls.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from typing import Any, Final, Mapping

import msgspec

from domain import match as rules
from domain import ratings
from domain.game import RuleViolation
from infra import presence
from infra.projections.bot_turns import CLOCK_SET, turn_of
from infra.store import (
    CommandConflictError,
    ConcurrencyError,
    NewEvent,
    PostgresEventStore,
)
from infra.streams import clock_stream
from services.matches.service import MatchService, stream_of

MAX_SECONDS = 24 * 3600
KNOWN_CLOCKS = 4096
RATED_DEFAULT: Final = {"bid": 60.0, "play": 30.0}
"""The clock of a rated match created without one."""
RATED_BOUNDS: Final = (5.0, 300.0)
"""A rated match's clock, each budget in seconds, both ends included."""
TIMEOUTS_AWAY: Final = 3
"""Times in a row a seat's clock runs out before the seat counts as away."""
TIMEOUTS = uuid.UUID("6d1c3a57-9f0b-4e2a-8c7d-2b5e4f1a9c03")


def parse_clock(raw: Any) -> dict[str, float]:
    """{"bid": seconds, "play": seconds}; each a number > 0 (a missing one takes the other)."""
    if not isinstance(raw, Mapping) or not raw or set(raw) - {"bid", "play"}:
        raise RuleViolation("bad_option", "clock is {\"bid\": seconds, \"play\": seconds}", {"option": "clock"})
    out = {}
    for key in ("bid", "play"):
        value = raw.get(key, raw.get("play" if key == "bid" else "bid"))
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_SECONDS:
            raise RuleViolation("bad_option", f"clock.{key} must be seconds in (0, {MAX_SECONDS}]",
                                {"option": f"clock.{key}"})
        out[key] = float(value)
    return out


def match_clock(clock: Mapping[str, float] | None, *, rated: bool) -> dict[str, float] | None:
    """The clock a new match gets from a parsed `clock` (None: none asked): a casual match
    the one asked; a rated match the one asked within RATED_BOUNDS, or RATED_DEFAULT.
    Out of bounds: `bad_clock` naming the field (a 400 at creation)."""
    if not rated:
        return None if clock is None else dict(clock)
    if clock is None:
        return dict(RATED_DEFAULT)
    low, high = RATED_BOUNDS
    for key in ("play", "bid"):
        if not low <= clock[key] <= high:
            raise RuleViolation("bad_clock", f"a rated match's clock.{key} is {low:g} to {high:g} seconds",
                                {"field": f"$.clock.{key}", "min": low, "max": high})
    return dict(clock)


def rated_clock(clock: Mapping[str, float] | None) -> dict[str, float]:
    """A rated rematch's clock: its match's, brought within RATED_BOUNDS (a match created
    before the bounds may have had any), or RATED_DEFAULT."""
    low, high = RATED_BOUNDS
    return {k: min(high, max(low, float(v))) for k, v in clock.items()} if clock else dict(RATED_DEFAULT)


async def set_clock(store: PostgresEventStore, match_id: str, clock: Mapping[str, Any]) -> dict[str, float]:
    """Give a match its clock (once; a second call with the same clock is a no-op)."""
    parsed = parse_clock(clock)
    stream = clock_stream(match_id)
    await store.append(stream, 0, [NewEvent(type=CLOCK_SET, data=msgspec.json.encode(parsed))],
                       command_id=uuid.uuid5(uuid.NAMESPACE_URL, f"atout:clock:{match_id}"))
    return parsed


def timeouts_in_a_row(events: Iterable[Any], seat: str) -> int:
    """How many times in a row the clock played for `seat`: its `by: "clock"` actions since
    its last own one. A play made for it otherwise (its single legal action, a takeover)
    neither counts nor breaks the run."""
    run = 0
    for event in events:
        if isinstance(event, rules.ActionTaken) and str(event.seat) == seat and event.by in ("clock", "player"):
            run = run + 1 if event.by == "clock" else 0
    return run


async def after_timeout(matches: MatchService, match_id: str, seat: str) -> list[str]:
    """After the clock played for `seat` in a rated match: from its TIMEOUTS_AWAY-th time in
    a row the seat counts as away — a `seat_disconnected` (`reason: "clock"`) in the match's
    presence stream, so a takeover plays it and the ratings see it away, as for a lost
    connection. A side (in Cinch individual, a seat) then all away ends the match, abandoned
    by one command id per match: the ratings rate that a loss for that side
    (docs/ratings.md). What happened: "away", "abandoned"."""
    state = await matches.load(match_id)
    if not state.rated or timeouts_in_a_row((e for _, e, _ in await matches.events(match_id)), seat) < TIMEOUTS_AWAY:
        return []
    out = []
    away = set(await presence.away(matches.store, match_id))
    if seat not in away:
        await presence.record(matches.store, match_id, seat, presence.SEAT_DISCONNECTED, reason="clock")
        away.add(seat)
        out.append("away")
    if state.status == "playing" and ratings.gone_sides(ratings.pool_of(state.game_name, state.raw_options),
                                                        sorted(away)):
        command = rules.Abandon(idle_seconds=0.0, reason="timeouts")
        for _ in range(5):                             # the side present may act meanwhile: decide again
            try:
                await matches.command(match_id, command, kind="clock-abandon",
                                      command_id=uuid.uuid5(TIMEOUTS, match_id))
            except ConcurrencyError:
                continue
            except (RuleViolation, CommandConflictError):
                return out                             # over meanwhile
            out.append("abandoned")
            break
    return out


class Clocks:
    """The clocks of started matches, read once per runtime: a match's clock never changes
    once it has started (it is set before the start), so a runtime keeps what it read, at
    most `size` matches, the oldest forgotten first."""

    def __init__(self, store: PostgresEventStore, size: int = KNOWN_CLOCKS) -> None:
        self.store, self.size = store, size
        self._known: dict[str, dict[str, float] | None] = {}

    async def of(self, match_id: str) -> dict[str, float] | None:
        """A started match's clock ({"bid": s, "play": s}), None without one."""
        if match_id not in self._known:
            events = await self.store.read_stream(clock_stream(match_id))
            clocks = [msgspec.json.decode(e.data) for e in events if e.type == CLOCK_SET and e.data is not None]
            if len(self._known) >= self.size:
                del self._known[next(iter(self._known))]
            self._known[match_id] = clocks[-1] if clocks else None
        return self._known[match_id]


async def deadline_of(store: PostgresEventStore, state: rules.MatchState,
                      clock: Mapping[str, float] | None) -> dt.datetime | None:
    """When the human in turn runs out of time: the commit time of the match's last event plus
    the phase's budget — the rule the clocks' worker applies (`bot_turns.turn_of`), computed
    from the store so that a view read right after a move already has it (the read model
    follows a moment later). None without a clock, or when no human is to act."""
    if clock is None or state.status != "playing" or state.version == 0:
        return None
    [last] = await store.read_stream(stream_of(state.match_id), state.version - 1, state.version)
    return turn_of(state, clock, last.recorded_at, dt.datetime.now(dt.timezone.utc))[1]

