"""A tournament's lines (points, tie-breaks) from its recorded results, by its format: what
the standings, the Swiss pairing and the exports all read.

Why apart from the decider: the formats' scoring grew (duplicate methods, teams of four,
robot duplicate) and the standings projection needs the same numbers without a State.
"""

from __future__ import annotations

from typing import Any

from domain.games import GAMES
from domain.tournaments import imps, individual, robot, scoring, teams


def results_of(state: Any, closed_only: bool = False) -> list[scoring.TableResult]:
    out = []
    for rnd in state.played:
        if closed_only and not rnd.closed:
            continue
        for table in rnd.tables:
            r = rnd.results.get(table.table)
            if r is not None:
                out.append(scoring.TableResult(rnd.number, table.table, table.home, table.away, r.score,
                                               {int(b): s for b, s in r.boards.items()}, r.forfeit, table.seats))
    return out


def lines(state: Any, closed_only: bool = False) -> dict[str, scoring.Line]:
    results = results_of(state, closed_only)
    if state.duplicate:
        return duplicate_lines(state.game, state.options, state.scoring, results, list(state.entries))
    byes = [b for rnd in state.played if rnd.closed or not closed_only for b in rnd.byes]
    if state.teams:
        return teams.lines(list(state.entries), results, byes, scale_of(state.game, state.options)[0])
    if state.individual:
        return individual.points(list(state.entries), results, byes)
    return scoring.match_points(list(state.entries), results, byes)


def duplicate_lines(game: str, options: dict[str, Any], method: str, results: list[scoring.TableResult],
                    entries: list[str]) -> dict[str, scoring.Line]:
    """A duplicate's (or robot duplicate's) lines by its method, on its way of playing's IMP
    scale; the robot event's house table is in no one's field."""
    results = [r for r in results if r.home != robot.HOUSE]
    return scoring.duplicate(results, robot.ranked(entries), method, *scale_of(game, options))


def scale_of(game: str, options: dict[str, Any]) -> tuple[tuple[int, ...], int]:
    """The IMP table and score unit of the way of playing (its game's `imp_scale`); the WBF
    table, in tens, for one that has none."""
    rules = GAMES.get(game)
    fitted = rules.imp_scale(options) if rules is not None and rules.imp_scale is not None else None
    return fitted or (imps.WBF, 10)


def entry_players(state: Any, entry: str) -> list[str]:
    """An entry's players as its tables seat them: in a partnership event one who came alone
    plays beside a bot of the tournament's level (`bot:<level>`)."""
    players = list(state.entries.get(entry, []))
    if len(players) == 1 and not (state.individual or state.robot):
        players.append(f"bot:{state.bots.get('level', 'basic')}")
    return players
