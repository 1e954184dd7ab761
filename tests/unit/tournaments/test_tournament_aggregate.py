"""The tournament decider: lifecycle, Swiss rounds, duplicate swap and matchpoints,
elimination advancing, manual pairings replacing the automatic ones."""

from __future__ import annotations

from typing import Any

import pytest

from domain import tournaments as t
from domain.game import RuleViolation
from domain.tournaments import events as ev
from domain.tournaments import scoring


def run(state: t.State, command: Any) -> t.State:
    for event in t.decide(state, command):
        state = t.evolve(state, event)
    return state


def started(fmt: str, n: int, rounds: int | None = None, options: dict[str, Any] | None = None) -> t.State:
    state = run(t.initial(), ev.Create(tournament_id="t1", organiser="org", name="Cup", game="belote",
                                       options=options or {}, format=fmt, rounds=rounds))
    for i in range(n):
        state = run(state, ev.Register(entry_id=f"e{i}", players=[f"p{i}a", f"p{i}b"]))
    return run(state, ev.Start(commitment="00" * 32))


def play_round(state: t.State, winner_of=lambda table: "NS", boards: dict | None = None) -> t.State:
    number = len(state.played) + 1
    state = run(state, ev.PairNext(round=number))
    for table in state.current.tables:
        state = run(state, ev.OpenTable(round=number, table=table.table, match_id=f"m{number}-{table.table}"))
    for table in state.current.tables:
        side = winner_of(table)
        score = {"NS": 10, "EW": 0} if side == "NS" else {"NS": 0, "EW": 10} if side == "EW" else {"NS": 5, "EW": 5}
        per_board = (boards or {}).get(table.table, {str(b): score for b in state.current.boards})
        state = run(state, ev.RecordResult(round=number, table=table.table, match_id=f"m{number}-{table.table}",
                                           score=score, boards=per_board,
                                           seeds={str(b): f"{b:064x}" for b in state.current.boards}))
    return state


def test_swiss_three_rounds_closes_with_standings() -> None:
    state = started("swiss", 8, rounds=3)
    for _ in range(3):
        state = play_round(state)
    assert state.status == "closed" and all(r.closed for r in state.played)
    met = [frozenset((tb.home, tb.away)) for r in state.played for tb in r.tables]
    assert len(met) == len(set(met)) == 12
    table = scoring.standings(t.lines(state), list(state.entries))
    assert table[0]["points"] == 6 and sum(line["points"] for line in table) == 24


def test_commands_after_close_and_wrong_round_are_refused() -> None:
    state = started("swiss", 4, rounds=1)
    with pytest.raises(RuleViolation) as caught:
        t.decide(state, ev.PairNext(round=2))
    assert caught.value.code == "bad_round"
    state = play_round(state)
    with pytest.raises(RuleViolation):
        t.decide(state, ev.PairNext(round=2))


def test_racing_pairers_the_second_is_refused() -> None:
    state = started("swiss", 4, rounds=2)
    state = run(state, ev.PairNext(round=1))
    with pytest.raises(RuleViolation) as caught:
        t.decide(state, ev.PairNext(round=1))
    assert caught.value.code == "bad_round"


def test_manual_pairing_replaces_the_automatic_one() -> None:
    state = started("swiss", 4, rounds=2)
    state = run(state, ev.SubmitPairing(round=1, tables=[["e0", "e3"], ["e2", "e1"]]))
    state = run(state, ev.PairNext(round=1))
    assert [(x.home, x.away) for x in state.current.tables] == [("e0", "e3"), ("e2", "e1")]
    assert state.current.manual
    with pytest.raises(RuleViolation) as caught:
        t.decide(state, ev.SubmitPairing(round=2, tables=[["e0", "e3"]]))
    assert caught.value.code == "bad_pairing"


def test_elimination_advances_winners_to_a_final() -> None:
    state = started("elimination", 4)
    assert state.rounds == 2
    state = play_round(state, winner_of=lambda table: "EW")
    final = state.played[-1]
    assert final.number == 1
    state = play_round(state)
    assert [(x.home, x.away) for x in state.played[1].tables] == [("e3", "e2")]
    assert state.status == "closed"


def test_duplicate_swaps_paired_tables_and_scores_by_matchpoints() -> None:
    state = started("duplicate", 4, rounds=1, options={"deals": 2})
    state = run(state, ev.PairNext(round=1))
    t1, t2 = state.current.tables
    # the Berger pairing is (home, away) at both tables; the second table swaps directions
    assert state.current.boards == [1, 2]
    raw = {t1.table: (t1.home, t1.away), t2.table: (t2.away, t2.home)}
    assert raw[1] != raw[2]
    # Board 1: NS made +20 at table 1 and +10 at table 2; board 2: EW +5 at both (a tie).
    boards = {1: {"1": {"NS": 20, "EW": 0}, "2": {"NS": 0, "EW": 5}},
              2: {"1": {"NS": 10, "EW": 0}, "2": {"NS": 0, "EW": 5}}}
    for table in state.current.tables:
        state = run(state, ev.OpenTable(round=1, table=table.table, match_id=f"m{table.table}"))
    for table in state.current.tables:
        state = run(state, ev.RecordResult(round=1, table=table.table, match_id=f"m{table.table}", score={},
                                           boards=boards[table.table], seeds={"1": "aa", "2": "bb"}))
    pts = {e: line.points for e, line in t.lines(state).items()}
    assert pts[t1.home] == 2 + 1 and pts[t2.home] == 0 + 1      # NS: board 1 beat / lost, board 2 tied
    assert pts[t1.away] == 0 + 1 and pts[t2.away] == 2 + 1      # EW mirror
    assert state.played[0].seeds == {"1": "aa", "2": "bb"}


def test_a_round_closes_only_when_every_table_has_its_result() -> None:
    state = started("swiss", 4, rounds=2, options={"deals": 1})
    state = run(state, ev.PairNext(round=1))
    for table in state.current.tables:
        state = run(state, ev.OpenTable(round=1, table=table.table, match_id=f"m{table.table}"))
    state = run(state, ev.RecordResult(round=1, table=1, match_id="m1", score={"NS": 1, "EW": 0},
                                       boards={}, seeds={"1": "ab"}))
    assert not state.current.closed and state.current.seeds == {}
    with pytest.raises(RuleViolation):
        t.decide(state, ev.PairNext(round=2))


def test_odd_swiss_gives_a_bye_worth_a_win() -> None:
    state = play_round(started("swiss", 5, rounds=1))
    (bye,) = state.played[0].byes
    assert t.lines(state)[bye].points == scoring.BYE_POINTS
