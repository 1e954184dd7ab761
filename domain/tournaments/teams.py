"""Teams of four, pure: a team is two pairs; a match between two teams plays the same boards
in two rooms with the pairs seated opposite ways, each board scored in IMPs from the two
rooms' difference, the match's IMP margin converted to Victory Points (the WBF continuous
20-point scale, `domain.tournaments.victory_points`).

Why two rooms: in each, one team holds NS and the other EW; swapped in the other room, each
team has held both hands of every board, so the luck of the cards cancels and the IMPs
measure the play alone.

Seating (bridge's "open" and "closed" rooms): an entry's players are its first pair then
its second, `[a1, a2, b1, b2]` (`bot:LEVEL` for a bot; a team may seat a bot pair, which the
standings state). Room 1: the home team's first pair NS against the away team's first pair
EW; room 2: the away team's second pair NS against the home team's second pair EW.

A board's difference for the home team: its net score (own minus opponents') in room 1,
where it sat NS, plus its net score in room 2, where it sat EW. A team match is scored once
both rooms have a result. Forfeits and byes follow the WBF General Conditions of Contest: a
team that forfeits a match (fails to show in either room) gets 0 VPs and its opponents 12; a
bye is worth 12 VPs; a match both teams forfeit gives neither anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from domain.game import verify
from domain.tournaments.events import Table
from domain.tournaments.imps import WBF, imps
from domain.tournaments.scoring import Line, TableResult
from domain.tournaments.victory_points import victory_points

FORFEIT_VPS = BYE_VPS = 12.0


def check_entry(players: Sequence[str]) -> None:
    verify(len(players) == 4, "bad_entry", "a team is four players, its first pair then its second (bot:LEVEL for "
                                           "a bot)")
    for pair in (players[:2], players[2:]):
        verify(all(p.startswith("bot:") for p in pair) or not any(p.startswith("bot:") for p in pair), "bad_entry",
               "a team seats a bot pair, not one bot beside a person")


def pair_of(players: Sequence[str], room: int) -> list[str]:
    """The pair of an entry that sits in `room`: its first pair in room 1, its second in 2."""
    return list(players[:2] if room == 1 else players[2:])


def tables(pairs: Iterable[tuple[str, str]]) -> list[Table]:
    out = []
    for k, (home, away) in enumerate(pairs):
        out += [Table(table=2 * k + 1, home=home, away=away, room=1),
                Table(table=2 * k + 2, home=away, away=home, room=2)]
    return out


def has_bots(players: Sequence[str]) -> bool:
    return any(p.startswith("bot:") for p in players)


def board_imps(open_room: Mapping[str, int], closed_room: Mapping[str, int], scale: Sequence[int] = WBF) -> int:
    """The home team's IMPs on a board: NS in the open room, EW in the closed one."""
    difference = (open_room.get("NS", 0) - open_room.get("EW", 0)) + (closed_room.get("EW", 0) - closed_room.get("NS", 0))
    return imps(difference, scale)


def board_points(results: Iterable[TableResult], board: int, scale: Sequence[int] = WBF
                 ) -> dict[tuple[int, str], dict[str, float]]:
    """What each team earned on `board` in IMPs, by direction (a traveller's points): a team
    holds NS in one room and EW in the other, with the same IMPs in both."""
    out: dict[tuple[int, str], dict[str, float]] = {(board, "NS"): {}, (board, "EW"): {}}
    for open_room, closed_room in matches(results):
        if open_room.forfeit or closed_room.forfeit or board not in open_room.boards \
                or board not in closed_room.boards:
            continue
        won = float(board_imps(open_room.boards[board], closed_room.boards[board], scale))
        home, away = open_room.home, open_room.away
        out[(board, "NS")].update({home: won, away: -won})
        out[(board, "EW")].update({away: -won, home: won})
    return out


def matches(results: Iterable[TableResult]) -> list[tuple[TableResult, TableResult]]:
    """The team matches whose two rooms both have a result: (open room, closed room)."""
    rooms: dict[tuple[int, int], dict[int, TableResult]] = {}
    for r in results:
        rooms.setdefault((r.round, (r.table + 1) // 2), {})[1 if r.table % 2 else 2] = r
    return [(pair[1], pair[2]) for _, pair in sorted(rooms.items()) if 1 in pair and 2 in pair]


def lines(entries: Sequence[str], results: Iterable[TableResult], byes: Iterable[str],
          scale: Sequence[int] = WBF) -> dict[str, Line]:
    """Each team's VPs (`points`), its IMP margin over all matches (`diff`, the tie-break)
    and matches won (more than 10 VPs)."""
    out = {e: Line(e) for e in entries}
    for open_room, closed_room in matches(results):
        home, away = open_room.home, open_room.away
        for me, other in ((home, away), (away, home)):
            line = out.setdefault(me, Line(me))
            line.played += 1
            line.opponents.append(other)
        forfeited = {r.forfeit for r in (open_room, closed_room) if r.forfeit}
        if forfeited:
            offenders = {home, away} if "both" in forfeited else forfeited & {home, away}
            for team in {home, away} - offenders:
                out[team].points += FORFEIT_VPS
                out[team].wins += 1
            continue
        margin = sum(board_imps(open_room.boards[b], closed_room.boards[b], scale)
                     for b in open_room.boards if b in closed_room.boards)
        home_vp, away_vp = victory_points(margin, max(1, len(open_room.boards)))
        for team, vps, imp in ((home, home_vp, margin), (away, away_vp, -margin)):
            out[team].points = round(out[team].points + vps, 2)
            out[team].diff += imp
            out[team].wins += 1 if vps > 10 else 0
    for team in byes:
        line = out.setdefault(team, Line(team))
        line.points += BYE_VPS
        line.byes += 1
    for line in out.values():
        line.tiebreak = line.diff
    return out
