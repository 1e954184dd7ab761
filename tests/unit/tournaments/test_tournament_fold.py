"""Folding a stream at once gives exactly the state `evolve` gives event by event."""

from __future__ import annotations

import functools
from typing import Any

from domain import tournaments as t
from domain.tournaments import events as ev
from domain.tournaments.fold import fold


def stream(commands: list[Any]) -> list[Any]:
    state, out = t.initial(), []
    for command in commands:
        for event in t.decide(state, command):
            state = t.evolve(state, event)
            out.append(event)
    return out


def same(events: list[Any]) -> None:
    one_by_one = functools.reduce(t.evolve, events, t.initial())
    assert fold(t.initial(), events) == one_by_one
    for cut in range(0, len(events), 3):                  # folded on top of a state already folded
        assert fold(fold(t.initial(), events[:cut]), events[cut:]) == one_by_one


def test_a_robot_event() -> None:
    commands: list[Any] = [ev.Create(tournament_id="r", organiser="o", name="Daily", game="belote",
                                     options={"deals": 2}, format="robot", closes_at="2026-12-04T00:00:00Z"),
                           ev.Start(commitment="00" * 32), ev.PairNext(round=1)]
    for k in range(12):
        commands.append(ev.Enter(entry_id=f"e{k}", players=[f"p{k}"], name="", now="2026-12-03T10:00:00+00:00"))
        commands.append(ev.OpenTable(round=1, table=k + 2, match_id=f"m{k}", opened_at="2026-12-03T10:00:00+00:00"))
        if k % 3:
            commands.append(ev.RecordResult(round=1, table=k + 2, match_id=f"m{k}", score={},
                                            boards={"1": {"NS": k, "EW": 3}, "2": {"NS": 1, "EW": k}}, seeds={}))
    commands.append(ev.CloseWindow(now="2026-12-05T00:00:00+00:00", seeds={"1": "aa"}, partial={3: {"1": {"NS": 1}}}))
    same(stream(commands))


def test_a_swiss_and_a_teams_match_with_a_withdrawal() -> None:
    commands: list[Any] = [ev.Create(tournament_id="s", organiser="o", name="Cup", game="belote", options={"deals": 1},
                                     format="teams", rounds=2)]
    commands += [ev.Register(entry_id=f"T{i}", players=[f"t{i}{p}" for p in "abcd"]) for i in range(5)]
    commands += [ev.Withdraw(entry_id="T4"), ev.Start(commitment="00" * 32), ev.PairNext(round=1)]
    for table in (1, 2, 3, 4):
        commands += [ev.OpenTable(round=1, table=table, match_id=f"m{table}"),
                     ev.RecordResult(round=1, table=table, match_id=f"m{table}", score={"NS": 10, "EW": 0},
                                     boards={"1": {"NS": 10 * table, "EW": 0}}, seeds={"1": "bb"})]
    commands.append(ev.PairNext(round=2))
    same(stream(commands))
