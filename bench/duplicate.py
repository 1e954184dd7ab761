"""Duplicate scoring figures; prints JSON, one core.

1. Scoring one round of 200 tables x 24 boards (400 entries, each board's two fields of
   200 results) by every method (target: 1 s each).
2. Closing a robot duplicate event of 10,000 entries x 8 boards from synthetic results, as
   the service does: fold the event's stream (entries, tables, results), decide the window's
   close, then the standings and all 8 travellers (target: 30 s in all).

Usage: `.venv/bin/python bench/duplicate.py [--tables 200] [--boards 24] [--entries 10000]`.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from domain import tournaments as t
from domain.tournaments import scoring, standing, travellers
from domain.tournaments import events as ev
from domain.tournaments.fold import fold

CLOSES = "2026-12-04T00:00:00+00:00"


def synthetic_score(rng: random.Random) -> dict[str, int]:
    ns = rng.choice((0, 20, 60, 82, 100, 120, 162, 250))
    return {"NS": ns, "EW": max(0, 162 - ns)}


def round_figures(tables: int, boards: int, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    results = [scoring.TableResult(1, k, f"n{k}", f"e{k}", {}, {b: synthetic_score(rng) for b in range(1, boards + 1)})
               for k in range(1, tables + 1)]
    entries = [e for r in results for e in (r.home, r.away)]
    out = {}
    for method in scoring.METHODS:
        started = time.perf_counter()
        lines = standing.duplicate_lines("belote", {}, method, results, entries)
        scoring.standings(lines, entries, duplicate=True)
        out[method] = round(time.perf_counter() - started, 3)
    return out


def robot_figures(entries: int, boards: int, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    stream = [ev.TournamentCreated(tournament_id="r", organiser="o", name="Daily", game="belote",
                                   options={"deals": boards}, format="robot", rounds=1, schedule=None,
                                   bots={"level": "basic"}, no_show_grace=0, scoring="neuberg", closes_at=CLOSES),
              ev.TournamentStarted(rounds=1, boards_per_round=boards, board_count=boards, commitment="00" * 32)]
    state = t.initial()
    for event in stream:
        state = t.evolve(state, event)
    stream = t.decide(state, ev.PairNext(round=1))
    numbers = list(range(1, boards + 1))
    for k in range(entries):
        entry, table = f"e{k}", k + 2
        stream += [ev.EntryRegistered(entry_id=entry, players=[f"p{k}"]),
                   ev.TableAdded(round=1, table=ev.Table(table=table, home=entry, away="", seats={"S": entry})),
                   ev.TableOpened(round=1, table=table, match_id=f"m{k}")]
        if k % 50:                                   # one in fifty still playing when the window closes
            stream.append(ev.ResultRecorded(round=1, table=table, match_id=f"m{k}", score={},
                                            boards={str(b): synthetic_score(rng) for b in numbers}))
    started = time.perf_counter()
    state = fold(state, stream)                      # as the service loads it
    folded = time.perf_counter() - started
    started = time.perf_counter()
    partial = {k + 2: {"1": synthetic_score(rng)} for k in range(0, entries, 50)}
    for event in t.decide(state, ev.CloseWindow(now="2026-12-05T00:00:00+00:00", seeds={}, partial=partial)):
        state = t.evolve(state, event)
    decided = time.perf_counter() - started
    started = time.perf_counter()
    lines = t.lines(state, closed_only=True)
    table = scoring.standings(lines, list(state.entries), duplicate=True)
    ranked = time.perf_counter() - started
    started = time.perf_counter()
    results = standing.results_of(state)
    fields = scoring.fields([r for r in results if r.home != "house"])
    scored = scoring.scored_fields(fields, state.scoring, *standing.scale_of(state.game, state.options))
    summaries = {r.table: {"contract": {"seat": "S"}, "result": "made"} for r in results}
    rows = [travellers.rows(b, results, summaries, scored) for b in numbers]
    travelled = time.perf_counter() - started
    assert len(table) == entries and all(len(r) >= entries * 0.98 for r in rows)
    return {"events_folded": len(stream), "fold_s": round(folded, 2), "close_s": round(decided, 2),
            "standings_s": round(ranked, 2), "travellers_s": round(travelled, 2),
            "total_s": round(folded + decided + ranked + travelled, 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--boards", type=int, default=24)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--robot-boards", type=int, default=8)
    args = parser.parse_args()
    print(json.dumps({"round": {"tables": args.tables, "boards": args.boards,
                                "seconds": round_figures(args.tables, args.boards)},
                      "robot_close": {"entries": args.entries, "boards": args.robot_boards,
                                      **robot_figures(args.entries, args.robot_boards)}}))


if __name__ == "__main__":
    main()
