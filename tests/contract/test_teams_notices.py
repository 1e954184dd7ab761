"""A team of four's players hear their own room: each pair's `round_started` names the table
and match it sits at (room 1 for the first pair, room 2 for the second), and the account
stream's snapshot shows each player his pair's table."""

from __future__ import annotations

import json

import pytest

from domain.tournaments import events as ev
from infra.projections import ProjectionRunner
from infra.projections.tournament_notices import TournamentNotices
from infra.store import PostgresEventStore
from infra.vault import Vault
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from tests.contract.test_account_events import notices, pool, projection, settle  # noqa: F401

pytestmark = [pytest.mark.db]


async def test_each_pair_of_a_team_is_told_its_own_room(pool) -> None:  # noqa: F811
    store = PostgresEventStore(pool)
    svc = TournamentService(store, MatchService(store, Vault(pool)))
    runner, account = ProjectionRunner(store, batch_size=500), projection()
    await runner.ensure(account)
    tid = await svc.create("org", "Teams", "belote", {"deals": 1}, "teams", rounds=1, rated=False)
    await svc.execute(tid, ev.Register(entry_id="A", players=["a1", "a2", "a3", "a4"]))
    await svc.execute(tid, ev.Register(entry_id="B", players=["b1", "b2", "bot:basic", "bot:basic"]))
    await svc.start(tid)
    await settle(runner, account)
    state = await svc.load(tid)
    rooms = {t.room: state.current.matches[t.table] for t in state.current.tables}
    started = {p: json.loads(body) for p, _, kind, body in await notices(pool) if kind == "round_started"}
    assert {p: b["match_id"] for p, b in started.items()} == {
        "a1": rooms[1], "a2": rooms[1], "a3": rooms[2], "a4": rooms[2], "b1": rooms[1], "b2": rooms[1]}
    async with pool.acquire() as conn:
        for player, room in (("a1", 1), ("a4", 2)):
            shown = await TournamentNotices().snapshot(conn, player, {"account_tournaments": "account_tournaments"})
            [mine] = [t for t in shown["tournaments"] if t["tournament_id"] == tid]
            assert mine["match_id"] == rooms[room]
