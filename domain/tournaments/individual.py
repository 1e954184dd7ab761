"""Individual tournaments, pure: entries of one player, four entries a table, each for himself.

For games with an individual mode (Cinch `mode: individual`, where the match score is kept per
seat). Why its own module: a table here seats four entries (`Table.seats`, N/E/S/W -> entry),
not two partnerships, so pairing and scoring differ; everything else (rounds, boards, results,
hidden results, the live stream) is the same aggregate.

Pairing (Swiss): entries ranked by points, then score, then registration order; the lowest
ranked `n mod 4` without a bye yet sit out (a bye); the rest sit in groups of four in rank
order (1–4, 5–8, …), seats rotating a place each round. Rematches are not avoided.
Scoring: at each table an entry gets 1 point for each of the three others it outscored and
½ for each it tied with (so 3, 2, 1, 0 by place); a bye is worth 1.5 (the average). `diff` is
the entry's score minus each other's, summed; `wins` counts tables it won outright.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.cards import Seat
from domain.games import load
from domain.tournaments.events import Table
from domain.tournaments.scoring import Line, TableResult

SEATS = ("N", "E", "S", "W")
BYE_POINTS = 1.5


def is_individual(game: str, options: Mapping[str, Any]) -> bool:
    """Does this game, with these options, keep its match score per seat?"""
    rules = load(game)
    status = rules.status(rules.initial(rules.parse_options(dict(options))))
    return set(status.match_score) == {str(s) for s in Seat}


def swiss(ranked: Sequence[str], had_bye: set[str], number: int) -> tuple[list[Table], list[str]]:
    """Tables of four in rank order, byes for the lowest-ranked who have not had one."""
    pool = list(ranked)
    byes: list[str] = []
    for _ in range(len(pool) % 4):
        candidates = [e for e in reversed(pool) if e not in had_bye] or [pool[-1]]
        byes.append(candidates[0])
        pool.remove(candidates[0])
    tables = []
    for i in range(0, len(pool), 4):
        group = pool[i:i + 4]
        turn = (number - 1) % 4
        group = group[-turn:] + group[:-turn] if turn else group
        tables.append(Table(table=i // 4 + 1, home="", away="", seats=dict(zip(SEATS, group))))
    return tables, byes


def points(entries: Sequence[str], results: Iterable[TableResult], byes: Iterable[str] = ()) -> dict[str, Line]:
    lines = {e: Line(e) for e in entries}
    for r in results:
        sitting = [(seat, entry) for seat, entry in r.seats.items()]
        for seat, entry in sitting:
            line = lines.setdefault(entry, Line(entry))
            mine = r.score.get(seat, 0)
            others = [(o, r.score.get(s, 0)) for s, o in sitting if o != entry]
            line.played += 1
            line.opponents += [o for o, _ in others]
            line.points += sum(1 if mine > v else 0.5 if mine == v else 0 for _, v in others)
            line.diff += sum(mine - v for _, v in others)
            line.wins += all(mine > v for _, v in others)
    for entry in byes:
        line = lines.setdefault(entry, Line(entry))
        line.points += BYE_POINTS
        line.byes += 1
    return lines
