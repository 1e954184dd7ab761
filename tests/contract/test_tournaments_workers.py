"""The tournament tasks' bodies on the real store: beat's tick starts a tournament at its
scheduled time and moves running ones on; a finished match advances its tournament."""

from __future__ import annotations

import datetime as dt
import json
import random

from domain.tournaments import events as ev
from infra.store import AppendResult
from services.tournaments import scheduling as tasks
from tests.contract.match_support import play_out
from tests.contract.test_tournaments import pool, standings_row, svc  # noqa: F401  (fixtures)
import pytest

pytestmark = [pytest.mark.db]


async def test_tick_starts_a_scheduled_tournament_and_a_finished_match_advances_it(svc, pool) -> None:
    past = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=1)).isoformat()
    later = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=1)).isoformat()
    due = await svc.create("org", "Due", "belote", {"deals": 1}, "swiss", rounds=2, schedule=past)
    not_yet = await svc.create("org", "Later", "belote", {"deals": 1}, "swiss", rounds=1, schedule=later)
    for tid in (due, not_yet):
        for i in range(4):
            await svc.execute(tid, ev.Register(entry_id=f"e{i}", players=["bot:random"]))   # bot partner filled in
    for tid in (due, not_yet):                                                          # the tick reads these
        assert await standings_row(pool, tid, lambda row: len(json.loads(row["entries"])) == 4)
    assert (await tasks.tick(svc))["started"] >= 1
    assert (await svc.load(due)).status == "running" and (await svc.load(not_yet)).status == "registering"
    state = await svc.load(due)
    match_ids = list(state.current.matches.values())
    seats = (await svc.matches.load(match_ids[0])).seats
    assert all(h is not None and h.kind == "bot" for h in seats.values())
    for match_id in match_ids:
        await play_out(svc.matches, match_id, random.Random(7))
        events = await svc.store.read_stream(f"match-{match_id}")
        finished = AppendResult(f"match-{match_id}", 1, events[-1].stream_version, events[-1:])
        assert tasks.finished_matches(finished) == [match_id]
        assert await tasks.match_finished(svc, match_id) == due
    state = await svc.load(due)
    assert len(state.played) == 2 and state.played[0].closed and len(state.current.matches) == 2


def test_the_tasks_and_the_beat_entry_are_registered() -> None:
    from infra.settings import Settings
    from services.bootstrap import worker_app

    app = worker_app(Settings())

    assert {"tournaments.tick", "tournaments.advance", "tournaments.match_finished"} <= set(app.tasks)
    assert app.conf.beat_schedule["tournaments"]["task"] == "tournaments.tick"
