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
again); and the sweeper needs this table anyway. Scheduling is injected (`schedule`), so
`infra` never imports the Celery tasks of `services`; a batch replayed after a crash may
schedule a task twice, which the tasks' idempotency makes harmless.

Clocks are not rules, so they live in their own stream, `clock-<match id>`, whose
`clock_set` events (`{"bid": seconds, "play": seconds}`) this projection also reads.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from domain import match as rules
from infra.projections.base import Change, Projection
from infra.projections.publisher import STREAM_PREFIX, all_event_types, decode, fold
from infra.store.model import RecordedEvent
from infra.store.postgres import READ_STREAM, Connection

log = logging.getLogger(__name__)

CLOCK_PREFIX = "clock-"
CLOCK_SET = "clock_set"


class Turn(msgspec.Struct, frozen=True):
    """What is due in one match at `version`: `bots` to play, `humans` in turn under a
    clock (`due_in` seconds left, None without a clock)."""

    match_id: str
    version: int
    bots: tuple[str, ...]
    humans: tuple[str, ...] = ()
    due_in: float | None = None


Schedule = Callable[[Sequence[Turn]], Any]


def phase_of(state: rules.MatchState) -> str:
    """'play' during the card play, 'bid' for every other decision (auction, trumps, kitty)."""
    table = state.game.view(state.game_state, None)
    return "play" if getattr(table, "phase", "") == "play" else "bid"


def turn_of(state: rules.MatchState, clock: Mapping[str, float] | None,
            last_event_at: dt.datetime, now: dt.datetime) -> tuple[Turn | None, dt.datetime | None]:
    """The turn due in a match (None when nobody is expected) and the clock's deadline."""
    if state.status != "playing":
        return None, None
    to_act = state.game.status(state.game_state).to_act
    bots = tuple(str(s) for s in to_act if (h := state.seats.get(str(s))) is not None and h.kind == "bot")
    humans = tuple(str(s) for s in to_act if str(s) not in bots) if clock else ()
    deadline = None
    if humans:
        deadline = last_event_at + dt.timedelta(seconds=float(clock[phase_of(state)]))  # type: ignore[index]
    due_in = None if deadline is None else max(0.0, (deadline - now).total_seconds())
    if not bots and not humans:
        return None, None
    return Turn(state.match_id, state.version, bots, humans, due_in), deadline


class BotTurns(Projection):
    name = "bot_turns"
    version = 1
    tables = ("bot_turns",)

    def __init__(self, schedule: Schedule | None = None, *, cache_size: int = 4096, max_age: float = 600.0) -> None:
        self.schedule = schedule
        self.event_types = all_event_types() | {CLOCK_SET}
        self._cache: OrderedDict[str, rules.MatchState] = OrderedDict()
        self.cache_size = cache_size
        self.max_age = dt.timedelta(seconds=max_age)

    def create(self, names: Mapping[str, str]) -> list[str]:
        table = names["bot_turns"]
        return [f"""CREATE TABLE IF NOT EXISTS {table} (
                    match_id text PRIMARY KEY, version integer NOT NULL DEFAULT 0,
                    bots text[] NOT NULL DEFAULT '{{}}', humans text[] NOT NULL DEFAULT '{{}}',
                    clock jsonb, due_at timestamptz, updated_at timestamptz NOT NULL DEFAULT now())""",
                f"CREATE INDEX IF NOT EXISTS {table}_due_idx ON {table} (updated_at)"]

    async def apply(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> None:
        table = names["bot_turns"]
        touched: dict[str, RecordedEvent] = {}
        latest: dict[str, rules.MatchState] = {}
        for recorded, data in changes:
            if recorded.stream_id.startswith(CLOCK_PREFIX) and recorded.type == CLOCK_SET:
                match_id = recorded.stream_id[len(CLOCK_PREFIX):]
                clock = {"bid": float(data["bid"]), "play": float(data["play"])}
                await conn.execute(f"INSERT INTO {table} (match_id, clock) VALUES ($1, $2::jsonb) ON CONFLICT "
                                   f"(match_id) DO UPDATE SET clock = EXCLUDED.clock",
                                   match_id, msgspec.json.encode(clock))
                touched.setdefault(match_id, recorded)
            elif recorded.stream_id.startswith(STREAM_PREFIX):
                match_id = recorded.stream_id[len(STREAM_PREFIX):]
                state = await self._state(conn, match_id, recorded.stream_version - 1)
                latest[match_id] = rules.evolve(state, decode(state, recorded))
                self._remember(match_id, latest[match_id])
                touched[match_id] = recorded
        if not touched:
            return
        now = dt.datetime.now(dt.timezone.utc)
        rows = {r["match_id"]: r for r in await conn.fetch(
            f"SELECT match_id, clock FROM {table} WHERE match_id = ANY($1::text[])", list(touched))}
        due: list[Turn] = []
        for match_id, last in touched.items():
            state = latest.get(match_id) or await self._state(conn, match_id, None)
            row = rows.get(match_id)
            clock = msgspec.json.decode(row["clock"]) if row is not None and row["clock"] else None
            if state.status == "finished":
                await conn.execute(f"DELETE FROM {table} WHERE match_id = $1", match_id)
                continue
            turn, deadline = turn_of(state, clock, last.recorded_at, now)
            await conn.execute(
                f"INSERT INTO {table} (match_id, version, bots, humans, due_at, updated_at) "
                f"VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (match_id) DO UPDATE SET version = $2, "
                f"bots = $3, humans = $4, due_at = $5, updated_at = now()",
                match_id, state.version, list(turn.bots if turn else ()), list(turn.humans if turn else ()),
                deadline)
            if turn is not None and now - last.recorded_at < self.max_age:
                due.append(turn)
        if due and self.schedule is not None:
            try:
                self.schedule(due)
            except Exception:   # the sweeper will find them; never block the projection
                log.exception("could not schedule %d turns", len(due))

    async def _state(self, conn: Connection, match_id: str, version: int | None) -> rules.MatchState:
        """The match folded to `version` (None: as far as the store goes)."""
        state = self._cache.get(match_id)
        if state is None or (version is not None and state.version > version):
            state = rules.initial()
        upper = 2**31 if version is None else version
        if state.version < upper:
            rows = await conn.fetch(READ_STREAM, STREAM_PREFIX + match_id, state.version, upper)
            state = fold(state, [RecordedEvent(*row) for row in rows])
        return state

    def _remember(self, match_id: str, state: rules.MatchState) -> None:
        if state.status == "finished":
            self._cache.pop(match_id, None)
            return
        self._cache[match_id] = state
        self._cache.move_to_end(match_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
