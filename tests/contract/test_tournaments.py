"""Tournaments on the real store: a Swiss of eight bot entries played end to end with the
right standings, duplicate boards provably the same at every table and hidden until the
round closes, racing workers creating a round once, a manual pairing replacing the
automatic one."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from domain import fair
from domain import match as match_rules
from domain import tournaments as t
from domain.cards import Seat
from domain.game import RuleViolation
from domain.tournaments import events as ev
from domain.tournaments import scoring
from infra.projections import ProjectionRunner
from infra.projections.standings import TournamentStandings
from infra.store import PostgresEventStore, create_pool
from infra.vault import Vault
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from tests.contract.match_support import play_out
from tests.eventually import projected

pytestmark = [pytest.mark.db]


async def standings_row(pool, tid: str, check=lambda row: row is not None):
    """The tournament's `tournament_standings` row once the projection has caught up as the
    projector would and `check` holds of it (a deadline, not one try: see tests/eventually.py)."""
    runner = ProjectionRunner(PostgresEventStore(pool), batch_size=500)
    return await projected(runner, lambda: [TournamentStandings()],
                           lambda: pool.fetchrow("SELECT * FROM tournament_standings WHERE tournament_id = $1", tid),
                           lambda row: row is not None and check(row))


OPTIONS = {"deals": 1}


@pytest.fixture(scope="module")
async def pool(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=6)
    yield pool
    await pool.close()


@pytest.fixture
def svc(pool) -> TournamentService:
    store = PostgresEventStore(pool)
    return TournamentService(store, MatchService(store, Vault(pool)))


async def bot_tournament(svc: TournamentService, fmt: str, n: int, rounds: int, options=OPTIONS) -> str:
    tid = await svc.create("organiser-1", "Cup", "belote", options, fmt, rounds=rounds)
    for i in range(n):
        await svc.execute(tid, ev.Register(entry_id=f"e{i}", players=["bot:random", "bot:random"]))
    return tid


async def play_round(svc: TournamentService, tid: str, seed: int) -> t.State:
    state = await svc.load(tid)
    for match_id in state.current.matches.values():
        await play_out(svc.matches, match_id, random.Random(seed))
    return await svc.advance(tid)


async def test_swiss_of_eight_bot_entries_three_rounds_end_to_end(svc: TournamentService, pool) -> None:
    tid = await bot_tournament(svc, "swiss", 8, 3)
    await svc.start(tid)
    for r in range(3):
        state = await svc.load(tid)
        assert len(state.played) == r + 1 and len(state.current.matches) == 4
        state = await play_round(svc, tid, r)
    assert state.status == "closed"
    met = [frozenset((x.home, x.away)) for rnd in state.played for x in rnd.tables]
    assert len(set(met)) == 12                                   # no rematch
    # The right standings: recomputed by hand from the matches' own final scores.
    points = {e: 0 for e in state.entries}
    for rnd in state.played:
        for x in rnd.tables:
            final = (await svc.matches.load(rnd.matches[x.table])).game_state
            score = (await svc.matches.load(rnd.matches[x.table])).game.status(final).match_score
            ns, ew = score["NS"], score["EW"]
            points[x.home] += 2 if ns > ew else 1 if ns == ew else 0
            points[x.away] += 2 if ew > ns else 1 if ns == ew else 0
    table = scoring.standings(t.lines(state), list(state.entries))
    assert {line["entry"]: line["points"] for line in table} == points
    assert [line["points"] for line in table] == sorted(points.values(), reverse=True)
    # The projection agrees, round by round.
    row = await standings_row(pool, tid, lambda row: row["status"] == "closed")
    assert row["status"] == "closed" and row["closed_rounds"] == 3
    assert json.loads(row["overall"]) == table
    assert set(json.loads(row["by_round"])) == {"1", "2", "3"}


async def test_duplicate_boards_are_the_same_at_every_table_and_hidden_until_the_round_closes(
        svc: TournamentService) -> None:
    tid = await bot_tournament(svc, "duplicate", 4, 1, options={"deals": 2})
    await svc.start(tid)
    state = await svc.load(tid)
    rnd = state.current
    assert rnd.boards == [1, 2] and state.commitment
    first, second = rnd.matches[1], rnd.matches[2]
    assert not await svc.board_public(first)
    await play_out(svc.matches, first, random.Random(1))
    await svc.advance(tid)
    assert not (await svc.load(tid)).current.closed
    assert not await svc.board_public(first)                      # board still played at table 2
    table_one = await svc.matches.load(first)
    assert table_one.sealed
    for _, event, _ in await svc.matches.events(first):           # what table 1's seats are shown
        for seat in (*Seat, None):
            shown = match_rules.redact(table_one, event, seat)
            if isinstance(event, match_rules.DealFinished):
                assert shown.deck == () and shown.actions == () and shown.fair is None
            assert not isinstance(shown, match_rules.SeedRevealed)
    await play_out(svc.matches, second, random.Random(2))
    state = await svc.advance(tid)
    assert state.status == "closed" and await svc.board_public(first)
    seeds = state.played[0].seeds
    decks = []
    for match_id in (first, second):
        dealt = [e for _, e, _ in await svc.matches.events(match_id) if isinstance(e, match_rules.DealFinished)]
        decks.append([list(d.deck) for d in dealt])
    assert decks[0] == decks[1]                                   # the same boards at both tables
    for b, deck in enumerate(decks[0], 1):                        # ...provably: from the committed seeds
        seed = bytes.fromhex(seeds[str(b)])
        assert fair.verify_seed(seed, bytes.fromhex(state.commitment), steps=b)
        assert fair.shuffle_deck("belote", seed, fair.tournament_context(tid, b)) == deck
    lines = t.lines(state)
    assert sum(line.points for line in lines.values()) == 2 * 2 * 2  # 2 boards x 2 directions x one comparison


async def test_racing_workers_create_a_round_once(svc: TournamentService, pool) -> None:
    tid = await bot_tournament(svc, "swiss", 4, 2)
    await svc.start(tid, advance=False)
    other = TournamentService(PostgresEventStore(pool), MatchService(PostgresEventStore(pool), Vault(pool)))
    await asyncio.gather(svc.advance(tid), other.advance(tid), svc.advance(tid))
    events = [e for _, e in await svc.events(tid)]
    assert sum(isinstance(e, ev.RoundPaired) for e in events) == 1
    assert sum(isinstance(e, ev.TableOpened) for e in events) == 2
    rows = await pool.fetchval("SELECT count(*) FROM tournament_matches WHERE tournament_id = $1", tid)
    assert rows == 2
    for match_id in (await svc.load(tid)).current.matches.values():
        assert (await svc.matches.load(match_id)).status == "playing"


async def test_an_organisers_manual_pairing_replaces_the_automatic_one(svc: TournamentService) -> None:
    tid = await bot_tournament(svc, "swiss", 4, 2)
    await svc.start(tid)
    await svc.execute(tid, ev.SubmitPairing(round=2, tables=[["e3", "e0"], ["e1", "e2"]]))
    state = await play_round(svc, tid, 5)
    played_first = {frozenset((x.home, x.away)) for x in state.played[0].tables}
    assert state.played[1].manual
    assert [(x.home, x.away) for x in state.played[1].tables] == [("e3", "e0"), ("e1", "e2")]
    assert played_first  # round 1 stays as it was


async def test_the_organisers_stand_in_plays_for_an_absent_person_at_every_table(svc: TournamentService) -> None:
    """`bots.standin`: the level that plays for a person away past the grace (a takeover) or
    out of time, at each of the tournament's tables; a level outside the list is refused."""
    from domain.bots.master import Master
    from services.bots import turns
    from infra import presence

    with pytest.raises(RuleViolation) as refused:
        await svc.create("organiser-1", "Cup", "belote", OPTIONS, "swiss", rounds=1, bots={"standin": "grandmaster"})
    assert refused.value.code == "bad_bots" and refused.value.details == {"field": "$.bots.standin"}
    tid = await svc.create("organiser-1", "Cup", "belote", OPTIONS, "swiss", rounds=1,
                           bots={"level": "random", "standin": "master"})
    await svc.execute(tid, ev.Register(entry_id="people", players=["ann", "bob"]))
    await svc.execute(tid, ev.Register(entry_id="bots", players=["bot:random", "bot:random"]))
    await svc.start(tid)
    match_id = next(iter((await svc.load(tid)).current.matches.values()))
    state = await svc.matches.load(match_id)
    assert state.standin == "master" and isinstance(turns.standin(state), Master)
    assert state.status == "playing"
    people = [s for s, h in state.seats.items() if h is not None and h.kind == "player"]
    for _ in range(40):                                         # bots play until a person is to act
        state = await svc.matches.load(match_id)
        seat = str(state.game.status(state.game_state).to_act[0])
        if seat in people:
            break
        await turns.play_turn(svc.matches, match_id, seat, state.version)
    await presence.record(svc.matches.store, match_id, seat, presence.SEAT_DISCONNECTED)
    assert await turns.play_turn(svc.matches, match_id, seat, state.version, takeover=True, grace=0) == "played"
    played = [e for _, e, _ in await svc.matches.events(match_id)
              if isinstance(e, match_rules.ActionTaken) and e.seat == Seat(seat)]
    assert played[-1].by == "takeover"
