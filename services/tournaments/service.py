"""The tournament service: load, decide, append on the stream `tournament-<id>`, and drive
rounds: pair, create each table's match (exactly once), record results, reveal boards.

Exactly once with racing workers: every append carries the expected version, so of two
workers pairing round r only one appends `round_paired` (the other reloads and finds the
round paired); a table's match id is derived from (tournament, round, table) and created
with a command id, so a second creation replays the first; `table_opened` and
`result_recorded` are refused by the rules when already there. `advance` is idempotent:
call it as often as you like (after-commit hook, beat sweeper, a retried task).
"""

from __future__ import annotations

import datetime as dt
import secrets
import uuid
from collections.abc import Callable
from typing import Any

import asyncpg

from domain import fair
from domain import match as match_rules
from domain import tournaments as rules
from domain.bots import LEVELS
from domain.game import RuleViolation
from domain.tournaments import events as ev
from domain.tournaments import forfeits, individual, robot
from domain.tournaments.fold import fold
from infra import streams
from infra.projections import rating_queries
from infra.serialization import EventRegistry
from infra.store import ConcurrencyError, PostgresEventStore
from services.matches import seating
from services.matches.service import MatchService, UnknownMatch
from services.tournaments import boards as tournament_boards
from services.tournaments import no_shows
from services.tournaments import tables as tournament_tables
from services.tournaments.boards import board_scores

REGISTRY = EventRegistry()
REGISTRY.register_all(rules.EVENTS)
PREFIX = streams.TOURNAMENT
NS = uuid.UUID("0b8f2f6e-2b0a-4f51-8f0e-6a1f7d3c9a21")
SKIP = {"bad_round", "round_open", "no_more_rounds", "awaiting_pairing", "not_running", "tournament_closed",
        "table_open", "result_recorded", "unknown_table", "grace_running", "window_open"}


class UnknownTournament(LookupError):
    def __init__(self, tournament_id: str) -> None:
        super().__init__(f"no tournament {tournament_id!r}")
        self.tournament_id = tournament_id


def stream_of(tournament_id: str) -> str:
    return f"{PREFIX}{tournament_id}"


def table_command(tournament_id: str, round_: int, table: int, what: str) -> uuid.UUID:
    return uuid.uuid5(NS, f"{tournament_id}/{round_}/{table}/{what}")


class TournamentService:
    def __init__(self, store: PostgresEventStore, matches: MatchService,
                 clock: Callable[[], dt.datetime] | None = None) -> None:
        self.store, self.matches, self.pool = store, matches, store.pool
        self.clock = clock or (lambda: dt.datetime.now(dt.timezone.utc))   # tests move time on

    async def load(self, tournament_id: str) -> rules.State:
        recorded = await self.store.read_stream(stream_of(tournament_id))
        state = fold(rules.initial(), (REGISTRY.decode_recorded(r) for r in recorded))
        if state.status == "new":
            raise UnknownTournament(tournament_id)
        return state

    async def events(self, tournament_id: str) -> list[tuple[int, Any]]:
        return [(r.stream_version, REGISTRY.decode_recorded(r))
                for r in await self.store.read_stream(stream_of(tournament_id))]

    async def execute(self, tournament_id: str, command: Any, *, command_id: uuid.UUID | None = None,
                      tries: int = 5) -> list[Any]:
        """Decide on the latest state and append with its version; on a lost race, reload and
        decide again (the rules then refuse what another writer already did)."""
        for attempt in range(tries):
            state = rules.initial() if isinstance(command, ev.Create) else await self.load(tournament_id)
            try:
                events = rules.decide(state, command)
            except RuleViolation:
                if command_id is not None:
                    first = await self.store.command_result(stream_of(tournament_id), command_id, _hash(command))
                    if first is not None:
                        return [REGISTRY.decode_recorded(r) for r in first.events]
                raise
            if not events:                   # nothing to change (a repeat the rules answer with no event)
                return []
            try:
                result = await self.store.append(stream_of(tournament_id), state.version,
                                                 [REGISTRY.encode(e) for e in events],
                                                 command_id=command_id or uuid.uuid4(), request_hash=_hash(command))
            except ConcurrencyError:
                if attempt == tries - 1:
                    raise
                continue
            return [REGISTRY.decode_recorded(r) for r in result.events] if result.replayed else events
        raise AssertionError("unreachable")

    # --- organiser and player commands (who may call is checked by the API) --------------

    async def create(self, organiser: str, name: str, game: str, options: dict[str, Any], format: str,
                     rounds: int | None = None, schedule: str | None = None, bots: dict[str, Any] | None = None,
                     command_id: uuid.UUID | None = None, no_show_grace: int | None = None,
                     boards: Any = None, rated: bool = True, seeding: str = "registration",
                     scoring: str = "matchpoints", closes_at: str | None = None) -> str:
        """`boards`: a match record whose decks are the boards (instead of the shuffle). A
        robot duplicate event (`format` `robot`) opens at once: started, its house table dealt."""
        tid = str(uuid.uuid4() if command_id is None else uuid.uuid5(command_id, "tournament"))
        for key in ("level", "standin"):
            if (bots or {}).get(key, "basic") not in LEVELS:
                raise RuleViolation("bad_bots", f"bots.{key} is one of {', '.join(LEVELS)}", {"field": f"$.bots.{key}"})
        match_rules.create("check", game, dict(options), dict.fromkeys("NESW"), None, 1)  # options valid?
        if format == "robot" and closes_at is not None:
            window = (robot.when(closes_at) - self.clock()).total_seconds()
            if not 0 < window <= robot.MAX_WINDOW:
                raise RuleViolation("bad_window", f"closes_at must be in the next {robot.MAX_WINDOW} seconds",
                                    {"field": "$.closes_at", "max_seconds": robot.MAX_WINDOW})
        imported, alone = 0, individual.is_individual(game, options)
        if boards is not None:
            imported = await tournament_boards.keep(self.pool, tid, game, boards, int(options.get("deals") or 0))
        await self.execute(tid, ev.Create(tournament_id=tid, organiser=organiser, name=name, game=game,
                                          options=dict(options), format=format, rounds=rounds, schedule=schedule,
                                          bots={"level": "basic", "fill": True, **(bots or {})},
                                          no_show_grace=no_show_grace, imported_boards=imported,
                                          individual=alone, rated=rated and format != "robot", seeding=seeding,
                                          scoring=scoring, closes_at=closes_at),
                           command_id=command_id)
        if format == "robot":
            await self.start(tid)
        return tid

    async def enter(self, tournament_id: str, entry_id: str, players: list[str], name: str, *, asker: str,
                    command_id: uuid.UUID | None = None) -> None:
        """Register an entry, whose rounds will seat its players: they pass the one door to a
        seat first (`services.matches.seating`: none banned, no block between the partners)."""
        await seating.admit(self.store, [p for p in players if not p.startswith("bot:")], asker=asker, named=players)
        await self.execute(tournament_id, ev.Register(entry_id=entry_id, players=players, name=name),
                           command_id=command_id)

    async def start(self, tournament_id: str, *, advance: bool = True) -> None:
        """Commit to every board (a hash chain over them all, its tip published now), start,
        and pair round 1."""
        state = await self.load(tournament_id)
        if state.status == "registering":
            rounds, per_round = rules.plan(state)
            commitment, digests = None, []
            if per_round and rounds > 0:    # no entries yet: the Start below refuses it (too_few_entries)
                if rounds * per_round > fair.MAX_CHAIN_LENGTH:
                    raise RuleViolation("too_many_boards", f"{rounds} rounds of {per_round} boards exceed the "
                                        f"{fair.MAX_CHAIN_LENGTH} boards one commitment covers",
                                        {"boards": rounds * per_round, "max": fair.MAX_CHAIN_LENGTH})
                secret = await self._keep_secret(tournament_id, rounds * per_round)
                commitment = fair.make_chain_tip(secret, rounds * per_round).hex()
                if state.imported_boards:
                    digests = await tournament_boards.digests(self.pool, tournament_id, secret, rounds * per_round)
            try:
                seeds = await self._rating_seeds(state) if state.seeding == "rating" else []
                await self.execute(tournament_id, ev.Start(commitment=commitment, board_digests=digests, seeds=seeds))
            except RuleViolation as violation:
                if violation.code != "already_started":
                    raise
        if advance:
            await self.advance(tournament_id)

    async def _rating_seeds(self, state: rules.State) -> list[str]:
        """Active entries best first by the mean display rating of their people in the
        tournament's pool (a newcomer counts 0, as his display rating); ties keep registration
        order. Recorded in the start event, so the seeding replays whatever ratings do later."""
        from domain import ratings

        pool = ratings.pool_of(state.game, state.options)
        people = [p for e in state.active for p in state.entries[e] if not p.startswith("bot:")]
        rating = await rating_queries.display_ratings(self.pool, pool, people)

        def strength(entry: str) -> float:
            humans = [p for p in state.entries[entry] if not p.startswith("bot:")]
            return sum(rating.get(p, 0.0) for p in humans) / len(humans) if humans else 0.0

        return sorted(state.active, key=lambda e: -strength(e))

    async def _keep_secret(self, tournament_id: str, board_count: int) -> bytes:
        await self.pool.execute("INSERT INTO tournament_secrets (tournament_id, secret, board_count)"
                                " VALUES ($1, $2, $3) ON CONFLICT (tournament_id) DO NOTHING",
                                tournament_id, secrets.token_bytes(fair.SEED_BYTES), board_count)
        return await self._secret(tournament_id)

    async def _secret(self, tournament_id: str) -> bytes:
        return bytes(await self.pool.fetchval("SELECT secret FROM tournament_secrets WHERE tournament_id = $1",
                                              tournament_id))

    # --- driving the rounds ---------------------------------------------------------------

    async def advance(self, tournament_id: str) -> rules.State:
        """Bring the tournament forward as far as it can go now; safe to call at any time."""
        for _ in range(100):
            state = await self.load(tournament_id)
            rnd = state.current
            if state.status != "running":
                return state
            if rnd is None or rnd.closed:
                if not await self._try(tournament_id, ev.PairNext(round=len(state.played) + 1)):
                    return state
                continue
            if state.robot and not robot.open_now(state, self.clock().isoformat()):
                await self._close_window(state, rnd)
                continue
            opened = [await self._open(state, rnd, t) for t in rnd.tables if t.table not in rnd.matches]
            recorded = [await self._record(state, rnd, t.table) or await self._no_show(state, rnd, t)
                        for t in rnd.tables if t.table in rnd.matches and t.table not in rnd.results]
            if not any(opened) and not any(recorded):
                return state
        return await self.load(tournament_id)

    async def _try(self, tournament_id: str, command: Any) -> bool:
        try:
            await self.execute(tournament_id, command)
            return True
        except RuleViolation as violation:
            if violation.code in SKIP:
                return False
            raise

    async def _open(self, state: rules.State, rnd: rules.aggregate.Round, table: ev.Table) -> bool:
        match_id = await tournament_tables.open_match(
            self.matches, self.pool, state, rnd, table, lambda: self._secret(state.tournament_id),
            lambda what: table_command(state.tournament_id, rnd.number, table.table, what))
        return await self._try(state.tournament_id, ev.OpenTable(round=rnd.number, table=table.table, match_id=match_id,
                                                                 opened_at=self.clock().isoformat()))

    async def _record(self, state: rules.State, rnd: rules.aggregate.Round, table: int) -> bool:
        match_id = rnd.matches[table]
        try:
            match = await self.matches.load(match_id)
        except UnknownMatch:
            return False
        if match.status != "finished":
            return False
        boards = board_scores(await self.matches.events(match_id), rnd.boards)
        score = dict(match.game.status(match.game_state).match_score)
        return await self._try(state.tournament_id, ev.RecordResult(
            round=rnd.number, table=table, match_id=match_id, score=score, boards=boards,
            seeds=await self._seeds(state, rnd)))

    async def _no_show(self, state: rules.State, rnd: rules.aggregate.Round, table: ev.Table) -> bool:
        """A forfeit for an entry that has not acted at its table in person within the grace
        (docs/tournaments.md); the rules refuse it when another worker recorded first."""
        now = self.clock()
        if not forfeits.due(rnd.opened.get(table.table), state.no_show_grace, now):
            return False
        match_id = rnd.matches[table.table]
        absent = await no_shows.absent(self.matches, match_id, table)
        if not absent:
            return False
        done = await self._try(state.tournament_id, ev.Forfeit(
            round=rnd.number, table=table.table, match_id=match_id, absent=absent, now=now.isoformat(),
            seeds=await self._seeds(state, rnd)))
        if done:
            await no_shows.stop(self.matches, match_id, state.no_show_grace)
        return done

    async def _close_window(self, state: rules.State, rnd: rules.aggregate.Round) -> None:
        """A robot event's window has closed: record what every table still playing has
        finished, close the round (its seeds revealed) and stop those matches."""
        await self._record_finished(state, rnd)
        state = await self.load(state.tournament_id)
        rnd = state.current
        assert rnd is not None
        partial, playing = {}, []
        for table, match_id in rnd.matches.items():
            if table in rnd.results:
                continue
            try:
                partial[table] = board_scores(await self.matches.events(match_id), rnd.boards)
                playing.append(match_id)
            except UnknownMatch:
                partial[table] = {}
        await self._try(state.tournament_id, ev.CloseWindow(now=self.clock().isoformat(),
                                                            seeds=await self._seeds(state, rnd), partial=partial))
        for match_id in playing:
            await no_shows.stop(self.matches, match_id, 0)

    async def _record_finished(self, state: rules.State, rnd: rules.aggregate.Round) -> None:
        for table in rnd.tables:
            if table.table in rnd.matches and table.table not in rnd.results:
                await self._record(state, rnd, table.table)
                state = await self.load(state.tournament_id)
                rnd = state.current or rnd

    async def _seeds(self, state: rules.State, rnd: rules.aggregate.Round) -> dict[str, str]:
        if not rnd.boards:
            return {}
        secret = await self._secret(state.tournament_id)
        return {str(b): fair.chain_element(secret, state.board_count, b).hex() for b in rnd.boards}

    # --- lookups --------------------------------------------------------------------------

    async def tournament_of(self, match_id: str) -> str | None:
        return await self.pool.fetchval("SELECT tournament_id FROM tournament_matches WHERE match_id = $1", match_id)

    async def organiser_of(self, match_id: str) -> str | None:
        tid = await self.tournament_of(match_id)
        return None if tid is None else (await self.load(tid)).organiser

    async def entrants_of(self, match_id: str) -> set[str]:
        """Who plays in the match's tournament: the players of every entry (withdrawn ones too)."""
        tid = await self.tournament_of(match_id)
        if tid is None:
            return set()
        return {p for players in (await self.load(tid)).entries.values() for p in players if not p.startswith("bot:")}

    async def board_public(self, match_id: str) -> bool:
        """A tournament match's deals are public only once its round has closed at every table."""
        row = await self.pool.fetchrow("SELECT tournament_id, round FROM tournament_matches WHERE match_id = $1",
                                       match_id)
        if row is None:
            return True
        state = await self.load(row["tournament_id"])
        return any(r.number == row["round"] and r.closed for r in state.played)

    async def running(self) -> list[str]:
        try:
            rows = await self.pool.fetch("SELECT DISTINCT tournament_id FROM tournament_matches")
        except asyncpg.UndefinedTableError:
            return []
        return [r["tournament_id"] for r in rows]


def _hash(command: Any) -> bytes:
    import hashlib

    import msgspec

    return hashlib.sha256(type(command).__name__.encode() + msgspec.json.encode(command)).digest()
