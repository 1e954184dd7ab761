"""No-show forfeits in the decider: refused before the grace has run out, recorded once
after it (one absent entry loses, both absent score nothing), scored in every format."""

from __future__ import annotations

from typing import Any

import pytest

from domain import tournaments as t
from domain.game import RuleViolation
from domain.tournaments import events as ev
from domain.tournaments import scoring

OPENED = "2026-01-01T10:00:00+00:00"
LATER = "2026-01-01T10:05:00+00:00"        # 300 s later
EARLY = "2026-01-01T10:04:59+00:00"


def run(state: t.State, command: Any) -> t.State:
    for event in t.decide(state, command):
        state = t.evolve(state, event)
    return state


def opened(fmt: str = "swiss", n: int = 4, grace: int | None = 300, deals: int = 0) -> t.State:
    state = run(t.initial(), ev.Create(tournament_id="t1", organiser="org", name="Cup", game="belote",
                                       options={"deals": deals} if deals else {}, format=fmt, rounds=2,
                                       no_show_grace=grace))
    for i in range(n):
        state = run(state, ev.Register(entry_id=f"e{i}", players=[f"p{i}"]))
    state = run(state, ev.Start(commitment="00" * 32))
    state = run(state, ev.PairNext(round=1))
    for table in state.current.tables:
        state = run(state, ev.OpenTable(round=1, table=table.table, match_id=f"m{table.table}", opened_at=OPENED))
    return state


def forfeit(state: t.State, table: int, absent: list[str], now: str = LATER) -> t.State:
    return run(state, ev.Forfeit(round=1, table=table, match_id=f"m{table}", absent=absent, now=now, seeds={}))


def test_the_default_grace_is_recorded_at_creation_and_bounded() -> None:
    assert opened(grace=None).no_show_grace == ev.NO_SHOW_GRACE == 600
    assert opened(grace=0).no_show_grace == 0
    with pytest.raises(RuleViolation) as refused:
        opened(grace=ev.MAX_NO_SHOW_GRACE + 1)
    assert refused.value.code == "bad_option"


def test_a_forfeit_waits_for_the_grace_and_is_recorded_once() -> None:
    state = opened()
    table = state.current.tables[0]
    with pytest.raises(RuleViolation) as early:
        forfeit(state, 1, [table.home], now=EARLY)
    assert early.value.code == "grace_running"
    state = forfeit(state, 1, [table.home])
    result = state.current.results[1]
    assert result.forfeit == table.home and result.score == {"NS": 0, "EW": 0}
    with pytest.raises(RuleViolation) as again:                  # a racing worker, or a late match result
        forfeit(state, 1, [table.home])
    assert again.value.code == "result_recorded"
    with pytest.raises(RuleViolation) as late:
        run(state, ev.RecordResult(round=1, table=1, match_id="m1", score={"NS": 9, "EW": 1}, boards={}, seeds={}))
    assert late.value.code == "result_recorded"


def test_refusals_no_grace_no_opening_time_and_strangers() -> None:
    with pytest.raises(RuleViolation) as off:
        forfeit(opened(grace=0), 1, ["e0"])
    assert off.value.code == "no_forfeits"
    state = opened()
    stranger = state.current.tables[1].home
    with pytest.raises(RuleViolation) as bad:
        forfeit(state, 1, [stranger])
    assert bad.value.code == "bad_forfeit"
    legacy = run(t.initial(), ev.Create(tournament_id="t", organiser="o", name="n", game="belote", options={},
                                        format="swiss", rounds=1))
    for i in range(2):
        legacy = run(legacy, ev.Register(entry_id=f"e{i}", players=[f"p{i}"]))
    legacy = run(run(legacy, ev.Start(commitment=None)), ev.PairNext(round=1))
    legacy = run(legacy, ev.OpenTable(round=1, table=1, match_id="m1"))          # no opening time recorded
    with pytest.raises(RuleViolation) as unknown_time:
        forfeit(legacy, 1, ["e0"], now="2099-01-01T00:00:00+00:00")
    assert unknown_time.value.code == "grace_running"


def test_a_forfeit_scores_a_win_and_a_double_forfeit_nothing() -> None:
    state = opened()
    one, two = state.current.tables
    state = forfeit(state, 1, [one.away])
    state = forfeit(state, 2, [two.home, two.away])
    assert state.current.closed and state.current.results[2].forfeit == ev.BOTH
    lines = t.lines(state, closed_only=True)
    assert lines[one.home].points == 2 and lines[one.home].wins == 1
    assert lines[one.away].points == 0
    assert lines[two.home].points == lines[two.away].points == 0 and lines[two.home].played == 1


def test_duplicate_the_entry_that_came_scores_an_average_the_no_show_nothing() -> None:
    state = opened("duplicate", n=6, deals=2)
    tables = state.current.tables
    for table in tables[1:]:
        state = run(state, ev.RecordResult(round=1, table=table.table, match_id=f"m{table.table}",
                                           score={"NS": 20, "EW": 10},
                                           boards={"1": {"NS": 10, "EW": 5}, "2": {"NS": 10, "EW": 5}}, seeds={}))
    state = forfeit(state, 1, [tables[0].away])
    lines = t.lines(state, closed_only=True)
    # Two other tables held each direction of each board: an average is 1 per comparison.
    assert lines[tables[0].home].points == 2 * 2 and lines[tables[0].away].points == 0
    # The others are compared among themselves only: 2 results a direction, one comparison each.
    for table in tables[1:]:
        assert lines[table.home].points + lines[table.away].points == 2 * 2 * 1


def test_elimination_a_forfeit_sends_the_other_through_a_double_forfeit_nobody() -> None:
    state = opened("elimination", n=4)
    one, two = state.current.tables
    state = forfeit(state, 1, [one.home])
    state = forfeit(state, 2, [two.home, two.away])
    state = run(state, ev.PairNext(round=2))
    final = state.current
    assert final.tables == [] and final.byes == [one.away] and final.closed
    assert state.status == "closed"                               # a round of byes alone closes the last round
    assert scoring.TableResult(1, 1, "a", "b", {}, {}, "both").winner is None
