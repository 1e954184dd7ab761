"""Individual tournaments in the decider: one player an entry, a Swiss with tables of four
(byes for the rest), scored by place at the table (3, 2, 1, 0; ties split; a bye 1.5)."""

from __future__ import annotations

from typing import Any

import pytest

from domain import tournaments as t
from domain.game import RuleViolation
from domain.tournaments import events as ev
from domain.tournaments import individual, scoring


def run(state: t.State, command: Any) -> t.State:
    for event in t.decide(state, command):
        state = t.evolve(state, event)
    return state


def created(fmt: str = "swiss", n: int = 9, rounds: int = 2) -> t.State:
    state = run(t.initial(), ev.Create(tournament_id="t", organiser="o", name="Cut-throat", game="cinch",
                                       options={"mode": "individual"}, format=fmt, rounds=rounds, individual=True))
    for i in range(n):
        state = run(state, ev.Register(entry_id=f"e{i}", players=[f"p{i}"]))
    return state


def test_only_cinch_individual_counts_as_individual() -> None:
    assert individual.is_individual("cinch", {"mode": "individual"})
    assert not individual.is_individual("cinch", {}) and not individual.is_individual("belote", {})


def test_entries_are_one_player_and_the_format_a_swiss() -> None:
    with pytest.raises(RuleViolation) as pair:
        run(created(), ev.Register(entry_id="x", players=["a", "b"]))
    assert pair.value.code == "bad_entry"
    with pytest.raises(RuleViolation) as fmt:
        created("round_robin")
    assert fmt.value.code == "bad_format"
    with pytest.raises(RuleViolation) as few:
        run(created(n=3), ev.Start(commitment=None))
    assert few.value.code == "too_few_entries"


def test_a_swiss_of_nine_two_tables_of_four_and_a_rotating_bye() -> None:
    state = run(run(created(), ev.Start(commitment=None)), ev.PairNext(round=1))
    rnd = state.current
    assert [sorted(x.seats) for x in rnd.tables] == [["E", "N", "S", "W"]] * 2 and rnd.byes == ["e8"]
    assert rnd.tables[0].seats == {"N": "e0", "E": "e1", "S": "e2", "W": "e3"}
    for x in rnd.tables:
        state = run(state, ev.OpenTable(round=1, table=x.table, match_id=f"m{x.table}"))
    scores = [{"N": 30, "E": 20, "S": 20, "W": 5}, {"N": 1, "E": 2, "S": 3, "W": 4}]
    for x, score in zip(rnd.tables, scores):
        state = run(state, ev.RecordResult(round=1, table=x.table, match_id=f"m{x.table}", score=score, boards={},
                                           seeds={}))
    lines = t.lines(state, closed_only=True)
    assert [lines[e].points for e in ("e0", "e1", "e2", "e3")] == [3, 1.5, 1.5, 0]
    assert [lines[e].points for e in ("e4", "e5", "e6", "e7")] == [0, 1, 2, 3]
    assert lines["e8"].points == individual.BYE_POINTS and lines["e0"].wins == 1
    assert lines["e0"].diff == (30 - 20) + (30 - 20) + (30 - 5)
    state = run(state, ev.PairNext(round=2))
    assert state.current.byes == ["e3"]               # the lowest ranked (0 points, diff -55) without a bye
    first = state.current.tables[0].seats             # by rank: points, then diff (e1 5 > e8 0), then order
    assert set(first.values()) == {"e0", "e7", "e6", "e1"} and first["N"] != "e0"     # seats rotate
    table = scoring.standings(t.lines(state), list(state.entries), duplicate=True)
    assert table[0]["entry"] == "e0" and table[0]["tiebreak"] is None


def test_no_forfeit_at_an_individual_table() -> None:
    state = run(t.initial(), ev.Create(tournament_id="t", organiser="o", name="c", game="cinch",
                                       options={"mode": "individual"}, format="swiss", rounds=1, individual=True,
                                       no_show_grace=10))
    for i in range(4):
        state = run(state, ev.Register(entry_id=f"e{i}", players=[f"p{i}"]))
    state = run(run(state, ev.Start(commitment=None)), ev.PairNext(round=1))
    state = run(state, ev.OpenTable(round=1, table=1, match_id="m1", opened_at="2026-01-01T00:00:00+00:00"))
    with pytest.raises(RuleViolation) as refused:
        run(state, ev.Forfeit(round=1, table=1, match_id="m1", absent=["e0"], now="2026-01-02T00:00:00+00:00",
                              seeds={}))
    assert refused.value.code == "bad_forfeit"
