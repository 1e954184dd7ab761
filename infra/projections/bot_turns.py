"""`bot_turns`: whose turn it is in every match being played, and what must happen about it.

The workers' reactor. After each batch of committed events, for every match it touched it
finds the seats the game expects to act (`status.to_act`) and: a bot's seat gets a
`play_turn`; a human's seat in a match with a clock gets a `play_turn` too (which plays a
single legal action at once and does nothing otherwise) and a `clock.expire` at the
deadline. The row it keeps per match (`bot_turns`) is what the sweeper reads to find a
match whose bot or clock is overdue because a task was lost.

Why a projection rather than the store's after-commit hook: it sees every committed event
of every process (API, workers, admin tools) in log order, exactly once per checkpoint, so
a process dying between its commit and the scheduling loses nothing (the batch is read
again); and the sweeper needs this table anyway. Scheduling is injected (`schedule`, an
awaited callable), so `infra` never imports the Celery tasks of `services`; a batch replayed
after a crash may schedule a task twice, which the tasks' idempotency makes harmless.

Clocks are not rules, so they live in their own stream, `clock-<match id>`, whose
`clock_set` events (`{"bid": seconds, "play": seconds}`) this projection also reads.
Nor is a disconnect: the `presence-<match id>` stream (`infra.presence`) says which
players are away (`away`, seat -> since); a human seat in turn whose player has been away
for `grace` seconds is a `takeover` (a `play_turn` at `takeover_at`, which the `basic` bot
plays unless the player is back). `last_event_at` (the match's last event) is what the
sweeper abandons idle matches by.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import asyncpg

import msgspec

from domain import match as rules
from infra.presence import PRESENCE_EVENTS, PRESENCE_PREFIX, SEAT_DISCONNECTED
from infra.projections.base import Change, Projection
from infra.projections.match_states import MatchStates
from infra.projections.publisher import STREAM_PREFIX, all_event_types, decode, fold
from infra.store.model import RecordedEvent
from infra.store.postgres import Connection
from infra import streams

log = logging.getLogger(__name__)

CLOCK_PREFIX = streams.CLOCK
CLOCK_SET = "clock_set"


class Turn(msgspec.Struct, frozen=True):
    """What is due in one match at `version`: `bots` to play, `humans` in turn under a
    clock (`due_in` seconds left, None without a clock), `takeovers`: humans in turn whose
    player is away, for the bot to play in `takeover_in` seconds (the grace left)."""

    match_id: str
    version: int
    bots: tuple[str, ...]
    humans: tuple[str, ...] = ()
    due_in: float | None = None
    takeovers: tuple[str, ...] = ()
    takeover_in: float | None = None


Schedule = Callable[[Sequence[Turn]], Awaitable[Any]]


def phase_of(state: rules.MatchState) -> str:
    """'play' during the card play, 'bid' for every other decision (auction, trumps, kitty)."""
    table = state.game.view(state.game_state, None)
    return "play" if getattr(table, "phase", "") == "play" else "bid"


def turn_of(state: rules.MatchState, clock: Mapping[str, float] | None,
            last_event_at: dt.datetime, now: dt.datetime, away: Mapping[str, float] | None = None,
            grace: float = 60.0) -> tuple[Turn | None, dt.datetime | None]:
    """The turn due in a match (None when nobody is expected) and the clock's deadline.
    `away`: seat -> since when (epoch) its player is disconnected; after `grace` seconds
    the seat is a takeover."""
    if state.status != "playing":
        return None, None
    to_act = state.game.status(state.game_state).to_act
    bots = tuple(str(s) for s in to_act if (h := state.seats.get(str(s))) is not None and h.kind == "bot")
    humans = tuple(str(s) for s in to_act if str(s) not in bots) if clock else ()
    takeovers = tuple(str(s) for s in to_act if str(s) not in bots and str(s) in (away or {}))
    takeover_in = None
    if takeovers:
        takeover_in = max(0.0, min(away[s] for s in takeovers) + grace - now.timestamp())  # type: ignore[index]
    deadline = None
    if humans:
        deadline = last_event_at + dt.timedelta(seconds=float(clock[phase_of(state)]))  # type: ignore[index]
    due_in = None if deadline is None else max(0.0, (deadline - now).total_seconds())
    if not bots and not humans and not takeovers:
        return None, None
    return Turn(state.match_id, state.version, bots, humans, due_in, takeovers, takeover_in), deadline


class BotTurns(Projection):
    name = "bot_turns"
    version = 2  # 2: presence (away, takeovers, takeover_at) and last_event_at
    tables = ("bot_turns",)

    def __init__(self, schedule: Schedule | None = None, *, cache_size: int = 4096, max_age: float = 600.0,
                 grace: float = 60.0, closing: Callable[[], Awaitable[None]] | None = None) -> None:
        self.schedule = schedule
        self._closing = closing       # what the scheduler opened: its claims' client, its sends' thread
        self.grace = grace
        self.event_types = all_event_types() | {CLOCK_SET} | PRESENCE_EVENTS
        self._states = MatchStates(fold, STREAM_PREFIX, cache_size)
        self.max_age = dt.timedelta(seconds=max_age)

    async def close(self) -> None:
        closing, self._closing = self._closing, None
        if closing is not None:
            await closing()

    def create(self, names: Mapping[str, str]) -> list[str]:
        table = names["bot_turns"]
        return [f"""CREATE TABLE IF NOT EXISTS {table} (
                    match_id text PRIMARY KEY, version integer NOT NULL DEFAULT 0,
                    bots text[] NOT NULL DEFAULT '{{}}', humans text[] NOT NULL DEFAULT '{{}}',
                    clock jsonb, due_at timestamptz, updated_at timestamptz NOT NULL DEFAULT now(),
                    away jsonb NOT NULL DEFAULT '{{}}', takeovers text[] NOT NULL DEFAULT '{{}}',
                    takeover_at timestamptz, last_event_at timestamptz)""",
                f"CREATE INDEX IF NOT EXISTS {table}_due_idx ON {table} (updated_at)",
                f"CREATE INDEX IF NOT EXISTS {table}_idle_idx ON {table} (last_event_at)"]

    async def apply(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> None:
        table = names["bot_turns"]
        touched: dict[str, RecordedEvent] = {}         # match -> its last change in the batch
        moved: dict[str, RecordedEvent] = {}           # match -> its last match event in the batch
        latest: dict[str, rules.MatchState] = {}
        for recorded, data in changes:
            if recorded.stream_id.startswith(CLOCK_PREFIX) and recorded.type == CLOCK_SET:
                match_id = recorded.stream_id[len(CLOCK_PREFIX):]
                clock = {"bid": float(data["bid"]), "play": float(data["play"])}
                await conn.execute(f"INSERT INTO {table} (match_id, clock) VALUES ($1, $2::jsonb) ON CONFLICT "
                                   f"(match_id) DO UPDATE SET clock = EXCLUDED.clock",
                                   match_id, msgspec.json.encode(clock))
                touched[match_id] = recorded
            elif recorded.stream_id.startswith(PRESENCE_PREFIX) and recorded.type in PRESENCE_EVENTS:
                match_id = recorded.stream_id[len(PRESENCE_PREFIX):]
                if recorded.type == SEAT_DISCONNECTED:
                    await conn.execute(
                        f"INSERT INTO {table} (match_id, away) VALUES ($1, jsonb_build_object($2::text, $3::float8)) "
                        f"ON CONFLICT (match_id) DO UPDATE SET away = {table}.away || EXCLUDED.away",
                        match_id, str(data["seat"]), float(data["at"]))
                else:
                    await conn.execute(
                        f"INSERT INTO {table} (match_id) VALUES ($1) ON CONFLICT (match_id) "
                        f"DO UPDATE SET away = {table}.away - $2::text", match_id, str(data["seat"]))
                touched[match_id] = recorded
            elif recorded.stream_id.startswith(STREAM_PREFIX):
                match_id = recorded.stream_id[len(STREAM_PREFIX):]
                state = await self._states.at(conn, match_id, recorded.stream_version - 1)
                latest[match_id] = rules.evolve(state, decode(state, recorded))
                self._states.remember(match_id, latest[match_id])
                touched[match_id] = moved[match_id] = recorded
        if not touched:
            return
        now = dt.datetime.now(dt.timezone.utc)
        rows = {r["match_id"]: r for r in await conn.fetch(
            f"SELECT match_id, clock, away, last_event_at FROM {table} WHERE match_id = ANY($1::text[])",
            list(touched))}
        due: list[Turn] = []
        for match_id, last in touched.items():
            state = latest.get(match_id) or await self._states.at(conn, match_id, None)
            row = rows.get(match_id)
            clock = msgspec.json.decode(row["clock"]) if row is not None and row["clock"] else None
            away = msgspec.json.decode(row["away"]) if row is not None and row["away"] else {}
            if state.status not in ("open", "playing"):      # finished, abandoned (or not a match)
                await conn.execute(f"DELETE FROM {table} WHERE match_id = $1", match_id)
                continue
            if match_id in moved:
                last_at = moved[match_id].recorded_at
            else:
                last_at = (row["last_event_at"] if row is not None else None) or last.recorded_at
            turn, deadline = turn_of(state, clock, last_at, now, away, self.grace)
            takeover_at = None if turn is None or turn.takeover_in is None else \
                now + dt.timedelta(seconds=turn.takeover_in)
            await conn.execute(
                f"INSERT INTO {table} (match_id, version, bots, humans, due_at, takeovers, takeover_at, "
                f"last_event_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now()) ON CONFLICT (match_id) "
                f"DO UPDATE SET version = $2, bots = $3, humans = $4, due_at = $5, takeovers = $6, "
                f"takeover_at = $7, last_event_at = $8, updated_at = now()",
                match_id, state.version, list(turn.bots if turn else ()), list(turn.humans if turn else ()),
                deadline, list(turn.takeovers if turn else ()), takeover_at, last_at)
            if turn is not None and now - last.recorded_at < self.max_age:
                due.append(turn)
        if due and self.schedule is not None:
            try:
                await self.schedule(due)
            except Exception:   # the sweeper will find them; never block the projection
                log.exception("could not schedule %d turns", len(due))


# --- reads of the table (the sweeper's) -------------------------------------------------------

OVERDUE = """
SELECT match_id, version, bots, humans, due_at, extract(epoch FROM due_at - now()) AS due_in,
       takeovers, extract(epoch FROM takeover_at - now()) AS takeover_in
FROM bot_turns
WHERE (cardinality(bots) > 0 AND updated_at < now() - make_interval(secs => $1))
   OR (cardinality(humans) > 0 AND due_at IS NOT NULL AND due_at < now() - make_interval(secs => 1))
   OR (cardinality(takeovers) > 0 AND takeover_at IS NOT NULL AND takeover_at < now() - make_interval(secs => 1))
ORDER BY updated_at LIMIT $2
"""

IDLE = """
SELECT match_id, version FROM bot_turns
WHERE last_event_at < now() - make_interval(secs => $1)
ORDER BY last_event_at LIMIT $2
"""


def _left(seconds: Any) -> float | None:
    return None if seconds is None else max(0.0, float(seconds))


async def overdue_turns(pool: Any, overdue: float, limit: int = 1000) -> list[Turn]:
    """The turns whose bot has waited `overdue` seconds, or whose clock or takeover is past
    due (a lost task): empty before the projector has created the table."""
    try:
        rows = await pool.fetch(OVERDUE, overdue, limit)
    except asyncpg.UndefinedTableError:
        return []
    return [Turn(r["match_id"], r["version"], tuple(r["bots"]), tuple(r["humans"]), _left(r["due_in"]),
                 tuple(r["takeovers"]), _left(r["takeover_in"])) for r in rows]


async def idle_matches(pool: Any, after: float, limit: int = 1000) -> list[tuple[str, int]]:
    """(match id, version) of the matches with no event for `after` seconds."""
    try:
        rows = await pool.fetch(IDLE, after, limit)
    except asyncpg.UndefinedTableError:
        return []
    return [(r["match_id"], r["version"]) for r in rows]
