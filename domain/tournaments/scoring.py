"""Scoring, pure: match points, Buchholz, and duplicate matchpoints.

Match points (round robin, Swiss, elimination, manual): a win 2, a tie 1, a loss 0, a bye
2 (as a win). Tie-breaks, in order: Buchholz (the sum of the opponents' match points, a
bye counting nothing), then the score difference (points for minus against, over all
boards), then registration order.

Duplicate: each board is scored by comparison. For a board, an entry's result is its
side's score minus the other side's at its table; it is compared with the result of every
other entry that held the same cards (the same direction) on that board: 2 matchpoints
for each it beats, 1 for each tie. An entry's total is the sum over its boards; ties are
broken by the score difference, then registration order.

Forfeits (a no-show, `domain.tournaments.forfeits`): the entry that came wins 2, the no-show
0, and a double forfeit gives both 0 — neither is a tie. In duplicate, a forfeited table's
boards are not compared: the entry that came scores an average on each (1 for each other
entry that held its cards, as if tied with all of them), the no-show nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from domain.tournaments import boards_scored
from domain.tournaments.imps import WBF

WIN, TIE, LOSS, BYE_POINTS = 2, 1, 0, 2


@dataclass(frozen=True)
class TableResult:
    """One table's result: `home` sat NS, `away` EW; `boards` maps board -> {"NS": x, "EW": y}."""

    round: int
    table: int
    home: str
    away: str
    score: Mapping[str, int]
    boards: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    forfeit: str | None = None     # the entry that forfeited, "both" for a double forfeit
    seats: Mapping[str, str] = field(default_factory=dict)   # an individual table: seat -> entry

    @property
    def double_forfeit(self) -> bool:
        return self.forfeit == "both"

    @property
    def winner(self) -> str | None:
        if self.double_forfeit:
            return None
        if self.forfeit:
            return self.away if self.forfeit == self.home else self.home
        ns, ew = self.score.get("NS", 0), self.score.get("EW", 0)
        return self.home if ns > ew else self.away if ew > ns else None


@dataclass
class Line:
    entry: str
    points: float = 0
    tiebreak: float = 0            # Buchholz (match-points formats)
    diff: int = 0                  # score for minus against
    played: int = 0
    wins: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)


def match_points(entries: Sequence[str], results: Iterable[TableResult],
                 byes: Iterable[str] = ()) -> dict[str, Line]:
    lines = {e: Line(e) for e in entries}
    for r in results:
        home, away = lines.setdefault(r.home, Line(r.home)), lines.setdefault(r.away, Line(r.away))
        ns, ew = r.score.get("NS", 0), r.score.get("EW", 0)
        home.diff += ns - ew
        away.diff += ew - ns
        for me, other in ((home, away), (away, home)):
            me.played += 1
            me.opponents.append(other.entry)
        winner = r.winner
        if r.double_forfeit:
            continue                                   # nobody scores
        if winner is None:
            home.points += TIE
            away.points += TIE
        else:
            lines[winner].points += WIN
            lines[winner].wins += 1
    for entry in byes:
        line = lines.setdefault(entry, Line(entry))
        line.points += BYE_POINTS
        line.byes += 1
    for line in lines.values():
        line.tiebreak = sum(lines[o].points for o in line.opponents)
    return lines


def matchpoints(results: Iterable[TableResult], entries: Sequence[str]) -> dict[str, Line]:
    """Duplicate scoring: see the module's text."""
    lines = {e: Line(e) for e in entries}
    per_board: dict[tuple[int, str], list[tuple[str, int]]] = {}
    forfeited: list[TableResult] = []
    for r in results:
        if r.forfeit and r.winner:
            forfeited.append(r)
        for entry, side, other in ((r.home, "NS", "EW"), (r.away, "EW", "NS")):
            line = lines.setdefault(entry, Line(entry))
            line.played += 1
            line.opponents.append(r.away if entry == r.home else r.home)
            if r.forfeit:
                continue
            for board, score in r.boards.items():
                value = score.get(side, 0) - score.get(other, 0)
                line.diff += value
                per_board.setdefault((int(board), side), []).append((entry, value))
    for field_ in per_board.values():
        for entry, value in field_:
            lines[entry].points += sum(WIN if value > v else TIE if value == v else LOSS
                                       for other, v in field_ if other != entry)
    for r in forfeited:
        came = r.winner or ""
        side = "NS" if came == r.home else "EW"
        for board in r.boards:
            lines[came].points += TIE * len(per_board.get((int(board), side), []))
        lines[came].wins += 1
    return lines


METHODS = ("matchpoints", "neuberg", "butler", "cross_imps")
"""How an organiser may have a duplicate scored: `matchpoints` (above, a missing result
being nobody's), `neuberg` (matchpoints, each board rescaled to the fullest board's field,
`domain.tournaments.boards_scored`), `butler` and `cross_imps` (IMPs on the way of playing's
scale, `domain.tournaments.imps`)."""


def fields(results: Iterable[TableResult]) -> dict[tuple[int, str], dict[str, int]]:
    """(board, direction) -> {entry: its result}, over the tables that played (not forfeited)."""
    out: dict[tuple[int, str], dict[str, int]] = {}
    for r in results:
        if r.forfeit:
            continue
        for entry, side, other in ((r.home, "NS", "EW"), (r.away, "EW", "NS")):
            if not entry:                  # a robot table's bots: no entry
                continue
            for board, score in r.boards.items():
                out.setdefault((int(board), side), {})[entry] = score.get(side, 0) - score.get(other, 0)
    return out


def scored_fields(fields_: Mapping[tuple[int, str], Mapping[str, int]], method: str,
                  scale: Sequence[int] = WBF, unit: int = 10) -> dict[tuple[int, str], dict[str, float]]:
    """Each field's entries scored by `method` (see METHODS)."""
    full = max((len(f) for f in fields_.values()), default=0)
    out: dict[tuple[int, str], dict[str, float]] = {}
    for key, field_ in fields_.items():
        if method == "butler":
            out[key] = boards_scored.butler(field_, scale, unit)
        elif method == "cross_imps":
            out[key] = boards_scored.cross_imps(field_, scale)
        elif method == "neuberg":
            out[key] = boards_scored.matchpoints_neuberg(field_, full)
        else:
            out[key] = boards_scored.matchpoints(field_)
    return out


def duplicate(results: Iterable[TableResult], entries: Sequence[str], method: str = "matchpoints",
              scale: Sequence[int] = WBF, unit: int = 10) -> dict[str, Line]:
    """Duplicate totals by `method`. A forfeited table's entry that came scores an average on
    each of its boards (matchpoints: 1 a comparison; neuberg: 1 a comparison in the fullest
    field; IMPs: 0, the datum), the no-show nothing."""
    results = list(results)
    if method == "matchpoints" and all(r.home and r.away for r in results):
        return matchpoints(results, entries)
    lines = {e: Line(e) for e in entries}
    fields_ = fields(results)
    full = max((len(f) for f in fields_.values()), default=1)
    for r in results:
        for entry in (r.home, r.away):
            if not entry:
                continue
            line = lines.setdefault(entry, Line(entry))
            line.played += 1
            line.opponents.append(r.away if entry == r.home else r.home)
        if r.forfeit and r.winner:
            lines[r.winner].wins += 1
            if method == "neuberg":
                lines[r.winner].points += TIE * (full - 1) * len(r.boards)
    for field_ in fields_.values():
        for entry, value in field_.items():
            lines[entry].diff += value
    for scored in scored_fields(fields_, method, scale, unit).values():
        for entry, points in scored.items():
            lines[entry].points += points
    for line in lines.values():
        line.points = round(line.points, 2)
    return lines


def standings(lines: Mapping[str, Line], entries: Sequence[str], duplicate: bool = False) -> list[dict]:
    """The ranked table, best first, as plain dicts (for the projection and exports)."""
    order = {e: i for i, e in enumerate(entries)}
    ranked = sorted(lines.values(), key=lambda ln: (-ln.points, 0 if duplicate else -ln.tiebreak, -ln.diff,
                                                    order.get(ln.entry, len(order))))
    out = []
    for place, line in enumerate(ranked, 1):
        out.append({"place": place, "entry": line.entry, "points": line.points,
                    "tiebreak": None if duplicate else line.tiebreak, "diff": line.diff,
                    "played": line.played, "wins": line.wins, "byes": line.byes})
    return out
