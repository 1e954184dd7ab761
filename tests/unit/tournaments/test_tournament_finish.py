"""Ending a running tournament with the round in play: given the tournament's events, when its
organiser finishes it, then the round in play becomes the last and it closes as that round
does (or at once between rounds), with reason `finished_early`."""

from __future__ import annotations

import pytest

from domain import tournaments as t
from domain.game import RuleViolation
from domain.tournaments import events as ev
from domain.tournaments import scoring
from tests.unit.tournaments.test_robot_duplicate import opened
from tests.unit.tournaments.test_tournament_aggregate import play_round, run, started


def refused(state: t.State, command: object) -> str:
    with pytest.raises(RuleViolation) as caught:
        t.decide(state, command)
    return caught.value.code


def test_the_round_in_play_becomes_the_last_and_its_close_ends_the_tournament() -> None:
    state = play_round(started("swiss", 8, rounds=5))
    state = run(state, ev.PairNext(round=2))
    assert t.decide(state, ev.Finish()) == [ev.TournamentShortened(rounds=2)]
    state = run(state, ev.Finish())
    assert (state.status, state.rounds) == ("running", 2)
    assert refused(state, ev.PairNext(round=3)) == "round_open"         # round 2 still plays
    for table in state.current.tables:                                 # the round's tables play on
        state = run(state, ev.OpenTable(round=2, table=table.table, match_id=f"m2-{table.table}"))
    events = []
    for table in state.current.tables:
        events = t.decide(state, ev.RecordResult(round=2, table=table.table, match_id=f"m2-{table.table}",
                                                 score={"NS": 10, "EW": 0},
                                                 boards={str(b): {"NS": 10, "EW": 0} for b in state.current.boards},
                                                 seeds={str(b): f"{b:064x}" for b in state.current.boards}))
        for event in events:
            state = t.evolve(state, event)
    assert events[-2:] == [ev.RoundClosed(round=2, seeds={str(b): f"{b:064x}" for b in state.current.boards}),
                           ev.TournamentClosed(reason="finished_early")]
    assert (state.status, state.closed_reason, len(state.played)) == ("closed", "finished_early", 2)
    table = scoring.standings(t.lines(state), list(state.entries))
    assert sum(line["points"] for line in table) == 8 * 2                 # two rounds scored, no more
    assert refused(state, ev.Finish()) == "tournament_closed"
    assert refused(state, ev.PairNext(round=3)) == "tournament_closed"


def test_between_rounds_it_closes_at_once() -> None:
    state = started("manual", 4, rounds=3)
    state = run(state, ev.SubmitPairing(round=1, tables=[["e0", "e1"], ["e2", "e3"]]))
    state = play_round(state)
    assert state.current.closed and state.status == "running"           # round 2 waits for its pairing
    assert t.decide(state, ev.Finish()) == [ev.TournamentShortened(rounds=1),
                                             ev.TournamentClosed(reason="finished_early")]
    state = run(state, ev.Finish())
    assert (state.status, state.closed_reason, state.rounds) == ("closed", "finished_early", 1)


def test_asked_again_it_changes_nothing_and_the_last_round_is_already_the_last() -> None:
    state = run(run(started("swiss", 4, rounds=3), ev.PairNext(round=1)), ev.Finish())
    assert t.decide(state, ev.Finish()) == []
    last = run(play_round(play_round(started("swiss", 4, rounds=3))), ev.PairNext(round=3))
    assert t.decide(last, ev.Finish()) == []                            # it ends with this round anyway


def test_not_started_brackets_and_robot_events_refuse_it() -> None:
    created = run(t.initial(), ev.Create(tournament_id="t1", organiser="org", name="Cup", game="belote",
                                         options={}, format="swiss", rounds=3))
    assert refused(created, ev.Finish()) == "not_started"
    bracket = run(started("elimination", 8), ev.PairNext(round=1))
    assert refused(bracket, ev.Finish()) == "runs_to_its_end"
    assert refused(opened(), ev.Finish()) == "runs_to_its_end"


def test_a_full_tournament_still_closes_as_completed() -> None:
    state = started("swiss", 4, rounds=2)
    state = play_round(play_round(state))
    assert (state.status, state.closed_reason) == ("closed", "completed")
