"""Teams of four as a decider: two rooms a match, the pairs swapped, IMPs from the rooms'
difference, VPs per match on the WBF continuous scale; Swiss or round robin of teams."""

from __future__ import annotations

from typing import Any

import pytest

from domain import tournaments as t
from domain.game import RuleViolation
from domain.tournaments import events as ev
from domain.tournaments import teams
from domain.tournaments.standing import scale_of
from domain.tournaments.victory_points import victory_points


def run(state: t.State, command: Any) -> t.State:
    for event in t.decide(state, command):
        state = t.evolve(state, event)
    return state


def created(n: int = 4, rounds: int | None = 2) -> t.State:
    state = run(t.initial(), ev.Create(tournament_id="k", organiser="o", name="Teams", game="belote",
                                       options={"deals": 1}, format="teams", rounds=rounds))
    for i in range(n):
        players = [f"t{i}a", f"t{i}b", "bot:basic", "bot:basic"] if i == 0 else [f"t{i}{p}" for p in "abcd"]
        state = run(state, ev.Register(entry_id=f"T{i}", players=players))
    return run(run(state, ev.Start(commitment="00" * 32)), ev.PairNext(round=1))


def record(state: t.State, table: int, ns: int, ew: int) -> t.State:
    state = run(state, ev.OpenTable(round=len(state.played), table=table, match_id=f"m{len(state.played)}-{table}"))
    return run(state, ev.RecordResult(round=len(state.played), table=table, match_id=f"m{len(state.played)}-{table}",
                                      score={"NS": ns, "EW": ew}, boards={str(state.current.boards[0]):
                                                                          {"NS": ns, "EW": ew}}, seeds={}))


def test_a_team_is_two_pairs_and_may_seat_a_bot_pair_not_half_of_one():
    state = created()
    assert state.entries["T0"][2:] == ["bot:basic", "bot:basic"]
    for players in (["a", "b"], ["a", "b", "c", "bot:basic"]):
        with pytest.raises(RuleViolation) as refused:
            run(_registering(), ev.Register(entry_id="x", players=players))
        assert refused.value.code == "bad_entry"


def _registering() -> t.State:
    return run(t.initial(), ev.Create(tournament_id="k2", organiser="o", name="Teams", game="belote",
                                      options={"deals": 1}, format="teams", rounds=1))


def test_each_match_plays_two_rooms_with_the_teams_swapped():
    state = created()
    tables = state.current.tables
    assert [(tb.table, tb.room, tb.home, tb.away) for tb in tables] == [
        (1, 1, "T0", "T1"), (2, 2, "T1", "T0"), (3, 1, "T2", "T3"), (4, 2, "T3", "T2")]
    assert teams.pair_of(["a1", "a2", "b1", "b2"], 1) == ["a1", "a2"]
    assert teams.pair_of(["a1", "a2", "b1", "b2"], 2) == ["b1", "b2"]


def test_imps_from_the_two_rooms_and_vps_per_match():
    # T0 NS in room 1 nets 120 - 42 = 78; in room 2 T0 sits EW and nets 162 - 0: a 240 difference.
    assert teams.board_imps({"NS": 120, "EW": 42}, {"NS": 0, "EW": 162}) == 6          # WBF: 220..260
    scale = scale_of("belote", {})[0]
    won = teams.board_imps({"NS": 120, "EW": 42}, {"NS": 0, "EW": 162}, scale)
    state = created()
    for table, (ns, ew) in zip((1, 2, 3, 4), ((120, 42), (0, 162), (81, 81), (81, 81)), strict=True):
        state = record(state, table, ns, ew)
    assert state.current.closed
    lines = t.lines(state)
    vp = victory_points(won, 1)
    assert (lines["T0"].points, lines["T1"].points) == vp and lines["T0"].diff == won == -lines["T1"].diff
    assert (lines["T2"].points, lines["T3"].points) == (10.0, 10.0)
    state = run(state, ev.PairNext(round=2))                      # Swiss: the winners meet
    assert {frozenset((tb.home, tb.away)) for tb in state.current.tables} in (
        {frozenset(("T0", "T2")), frozenset(("T1", "T3"))}, {frozenset(("T0", "T3")), frozenset(("T1", "T2"))})


def test_a_forfeited_room_gives_the_match_12_vps_to_the_team_that_came():
    state = created()
    state = run(state, ev.OpenTable(round=1, table=1, match_id="m1-1", opened_at="2026-12-03T10:00:00+00:00"))
    state = run(state, ev.Forfeit(round=1, table=1, match_id="m1-1", absent=["T1"], now="2026-12-03T11:00:00+00:00",
                                  seeds={}))
    state = record(state, 2, 10, 152)
    lines = t.lines(state)
    assert (lines["T0"].points, lines["T1"].points) == (12.0, 0)


def test_without_rounds_a_round_robin_of_teams():
    state = created(n=4, rounds=None)
    assert state.rounds == 3


def test_a_travellers_points_are_the_teams_imps_in_both_rooms():
    state = created()
    for table, (ns, ew) in zip((1, 2, 3, 4), ((120, 42), (0, 162), (81, 81), (81, 81)), strict=True):
        state = record(state, table, ns, ew)
    points = teams.board_points(t.results_of(state), 1)
    assert points[(1, "NS")] == {"T0": 6.0, "T1": -6.0, "T2": 0.0, "T3": 0.0}
    assert points[(1, "EW")]["T0"] == 6.0 and points[(1, "EW")]["T1"] == -6.0


def test_an_individual_way_of_playing_has_no_teams():
    with pytest.raises(RuleViolation) as refused:
        run(t.initial(), ev.Create(tournament_id="k3", organiser="o", name="Teams", game="cinch",
                                   options={"deals": 1, "mode": "individual"}, format="teams", rounds=1,
                                   individual=True))
    assert refused.value.code == "bad_format"
