"""Robot duplicate as a decider: one round open for a window, a table an entrant, the house
table's bots beside the field and in no one's ranking, the round closing with the window."""

from __future__ import annotations

from typing import Any

import pytest

from domain import tournaments as t
from domain.game import RuleViolation
from domain.tournaments import events as ev
from domain.tournaments import robot

OPEN, LATE = "2026-12-03T10:00:00+00:00", "2026-12-04T10:00:00+00:00"


def run(state: t.State, command: Any) -> t.State:
    for event in t.decide(state, command):
        state = t.evolve(state, event)
    return state


def opened(scoring: str = "neuberg", deals: int = 2) -> t.State:
    state = run(t.initial(), ev.Create(tournament_id="r1", organiser="org", name="Daily", game="belote",
                                       options={"deals": deals}, format="robot", scoring=scoring,
                                       closes_at="2026-12-04T00:00:00Z", bots={"level": "basic"}))
    state = run(state, ev.Start(commitment="00" * 32))
    return run(state, ev.PairNext(round=1))


def enter(state: t.State, who: str, now: str = OPEN) -> t.State:
    return run(state, ev.Enter(entry_id=who, players=[f"p-{who}"], name=who, now=now))


def finish(state: t.State, table: int, per_board: dict[str, dict[str, int]]) -> t.State:
    state = run(state, ev.OpenTable(round=1, table=table, match_id=f"m{table}"))
    return run(state, ev.RecordResult(round=1, table=table, match_id=f"m{table}", score={}, boards=per_board,
                                      seeds={}))


def test_an_event_opens_with_its_house_table_and_one_round():
    state = opened()
    assert state.status == "running" and state.rounds == 1 and state.no_show_grace == 0
    assert state.current.tables == [robot.HOUSE_TABLE] and state.current.boards == [1, 2]


def test_each_entrant_gets_his_own_table_at_south():
    state = enter(enter(opened(), "a"), "b")
    assert [(tb.table, tb.seats) for tb in state.current.tables[1:]] == [(2, {"S": "a"}), (3, {"S": "b"})]
    with pytest.raises(RuleViolation) as again:
        run(state, ev.Enter(entry_id="a2", players=["p-a"], name="", now=OPEN))
    assert again.value.code == "already_registered"
    with pytest.raises(RuleViolation) as late:
        enter(state, "c", now=LATE)
    assert late.value.code == "window_closed"
    with pytest.raises(RuleViolation) as register:
        run(state, ev.Register(entry_id="x", players=["p-x"]))
    assert register.value.code == "bad_entry"


def test_the_round_stays_open_until_the_window_closes_and_ranks_the_field_only():
    state = enter(enter(enter(opened("matchpoints"), "a"), "b"), "c")
    state = finish(state, 1, {"1": {"NS": 100, "EW": 62}, "2": {"NS": 0, "EW": 162}})     # the bots
    state = finish(state, 2, {"1": {"NS": 120, "EW": 42}, "2": {"NS": 80, "EW": 82}})
    state = finish(state, 3, {"1": {"NS": 0, "EW": 162}, "2": {"NS": 90, "EW": 72}})
    assert not state.current.closed                               # every table has a result, the window is open
    with pytest.raises(RuleViolation) as early:
        run(state, ev.CloseWindow(now=OPEN, seeds={}))
    assert early.value.code == "window_open"
    # c finished board 1 only when the window closed
    state = run(state, ev.OpenTable(round=1, table=4, match_id="m4"))
    state = run(state, ev.CloseWindow(now=LATE, seeds={"1": "aa", "2": "bb"},
                                      partial={4: {"1": {"NS": 100, "EW": 62}}}))
    assert state.current.closed and state.status == "closed" and state.current.seeds == {"1": "aa", "2": "bb"}
    lines = t.lines(state, closed_only=True)
    assert robot.HOUSE not in lines
    # board 1: a 78, b -162, c 38 -> a 4, c 2, b 0; board 2: a -2, b 18 -> b 2, a 0
    assert (lines["a"].points, lines["b"].points, lines["c"].points) == (4, 2, 2)


def test_neuberg_evens_out_a_board_an_entrant_did_not_finish():
    state = enter(enter(enter(opened("neuberg"), "a"), "b"), "c")
    state = finish(state, 2, {"1": {"NS": 120, "EW": 42}, "2": {"NS": 80, "EW": 82}})
    state = finish(state, 3, {"1": {"NS": 0, "EW": 162}, "2": {"NS": 90, "EW": 72}})
    state = run(state, ev.CloseWindow(now=LATE, seeds={}, partial={4: {"1": {"NS": 100, "EW": 62}}}))
    lines = t.lines(state)
    # board 2 had two results of the fullest three: a 0 -> (0 + 1) * 3/2 - 1, b 2 -> 3.5
    assert (lines["a"].points, lines["b"].points, lines["c"].points) == (4 + 0.5, 0 + 3.5, 2)


def test_a_robot_event_needs_a_window_and_boards():
    for options, closes in (({"deals": 2}, None), ({}, "2026-12-04T00:00:00Z"), ({"deals": 99}, "2026-12-04T00:00:00Z")):
        with pytest.raises(RuleViolation):
            run(t.initial(), ev.Create(tournament_id="r", organiser="o", name="n", game="belote", options=options,
                                       format="robot", closes_at=closes))
