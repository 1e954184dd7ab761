"""An individual Cinch tournament on the real store: eight entries of one player (one of them
a person, seated at his own seat), a Swiss of two rounds with tables of four, played end to
end; the standings are recomputed from the matches' own per-seat scores, and the projection
agrees."""

from __future__ import annotations

import json
import random

from domain import tournaments as t
from domain.tournaments import events as ev
from domain.tournaments import individual, scoring
from services.tournaments.service import TournamentService
from tests.contract.match_support import play_out
from tests.contract.test_tournaments import pool, standings_row, svc  # noqa: F401  (fixtures)
import pytest

pytestmark = [pytest.mark.db]


async def test_an_individual_swiss_of_eight_played_end_to_end(svc: TournamentService, pool) -> None:
    tid = await svc.create("org", "Cut-throat", "cinch", {"mode": "individual", "deals": 1}, "swiss", rounds=2)
    for i in range(8):
        await svc.execute(tid, ev.Register(entry_id=f"e{i}", players=["p-ivy" if i == 0 else "bot:random"]))
    await svc.start(tid)
    state = await svc.load(tid)
    assert state.individual and len(state.current.tables) == 2 and state.current.byes == []
    first = state.current.tables[0]
    seats = (await svc.matches.load(state.current.matches[first.table])).seats
    ivy_seat = next(s for s, e in first.seats.items() if e == "e0")
    assert seats[ivy_seat].kind == "player" and seats[ivy_seat].player_id == "p-ivy"
    assert all(h.kind == "bot" for s, h in seats.items() if s != ivy_seat)
    expected = {f"e{i}": 0.0 for i in range(8)}
    for number in (1, 2):
        state = await svc.load(tid)
        for table in state.current.tables:
            final = await play_out(svc.matches, state.current.matches[table.table], random.Random(number))
            score = final.game.status(final.game_state).match_score
            for seat, entry in table.seats.items():
                expected[entry] += sum(1 if score[seat] > score[s] else 0.5 if score[seat] == score[s] else 0
                                       for s in table.seats if s != seat)
        state = await svc.advance(tid)
    assert state.status == "closed"
    table = scoring.standings(individual.points(list(state.entries), t.results_of(state)), list(state.entries),
                              duplicate=True)
    assert {line["entry"]: line["points"] for line in table} == expected
    row = await standings_row(pool, tid, lambda row: row["status"] == "closed")
    assert row["individual"] and json.loads(row["overall"]) == table
