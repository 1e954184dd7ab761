"""A scheduled tournament the rules will not let start (too few entries) closes at its time
with that reason, once: the tick neither retries it nor logs a traceback on every run, the
standings no longer list it as due, and its entrant hears `tournament_closed` with the reason
on his account stream. A database of its own (test_account_events' fixture): the account
projection runs here."""

from __future__ import annotations

import datetime as dt
import logging

import msgspec
import pytest

from domain.tournaments import events as ev
from infra.projections import ProjectionRunner
from infra.projections.account_events import head, since
from infra.projections.standings import TournamentStandings, due_tournaments
from infra.store import PostgresEventStore
from infra.vault import Vault
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from services.tournaments import scheduling as tasks
from tests.contract.test_account_events import pool, projection, settle  # noqa: F401  (pool: a fixture)

pytestmark = [pytest.mark.db]


async def test_a_scheduled_tournament_with_too_few_entries_closes_once_and_says_why(pool, caplog) -> None:
    store = PostgresEventStore(pool)
    svc = TournamentService(store, MatchService(store, Vault(pool)))
    past = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=1)).isoformat()
    lonely = await svc.create("org", "Lonely", "belote", {"deals": 1}, "swiss", rounds=1, schedule=past)
    await svc.execute(lonely, ev.Register(entry_id="e0", players=["alice", "bot:random"]))
    empty = await svc.create("org", "Empty", "belote", {"deals": 1}, "swiss", rounds=1, schedule=past)
    full = await svc.create("org", "Full", "belote", {"deals": 1}, "swiss", rounds=1, schedule=past)
    for i in range(2):
        await svc.execute(full, ev.Register(entry_id=f"e{i}", players=["bot:random"]))
    runner = ProjectionRunner(store, batch_size=500)
    standings = TournamentStandings()
    await runner.ensure(standings)
    await settle(runner, standings)

    with caplog.at_level(logging.INFO, logger="services.tournaments.scheduling"):
        assert await tasks.tick(svc) == {"started": 1, "advanced": 0, "closed": 2}
        await settle(runner, standings)
        assert await tasks.tick(svc) == {"started": 0, "advanced": 1, "closed": 0}   # only the one playing
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info], caplog.text
    assert sum("closed at its scheduled start: too_few_entries" in r.getMessage() for r in caplog.records) == 2
    for tid in (lonely, empty):
        state = await svc.load(tid)
        assert (state.status, state.closed_reason) == ("closed", "too_few_entries")
    assert (await svc.load(full)).status == "running"
    assert [t for t, _ in await due_tournaments(pool)] == [full]

    account = projection()
    await runner.ensure(account)
    await settle(runner, account)
    async with pool.acquire() as conn:
        said = [msgspec.json.decode(m)["event"] for m in await since(conn, "alice", 0, await head(conn, "alice"))]
    assert [(n["type"], n["tournament_id"], n["reason"]) for n in said] == [("tournament_closed", lonely, "too_few_entries")]
