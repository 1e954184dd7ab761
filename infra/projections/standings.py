"""`tournament_standings`: one row per tournament, folded from its stream's events.

Standings count only rounds that have closed at every table: a table's result is hidden
from players until then (docs/tournaments.md), so `overall` and `by_round` move only at
`round_closed`. `results` keeps every recorded result for the organiser; the API shows a
player only those of closed rounds. Scoring is the domain's (`domain.tournaments.scoring`).
"""

from __future__ import annotations

from typing import Any

import asyncpg

from domain.tournaments import individual, scoring, teams
from domain.tournaments.standing import duplicate_lines, scale_of
from infra.projections.base import RowProjection
from infra.projections.match_summaries import jsonb
from infra.store.model import RecordedEvent
from infra import streams

PREFIX = streams.TOURNAMENT
EVENTS = frozenset({"tournament_created", "entry_registered", "entry_withdrawn", "tournament_started",
                    "round_paired", "table_added", "table_opened", "result_recorded", "round_closed",
                    "tournament_closed"})


def compute(row: dict[str, Any], up_to: int) -> list[dict[str, Any]]:
    """The standings after round `up_to`, from the row's closed rounds."""
    results = [scoring.TableResult(r["round"], r["table"], r["home"], r["away"], r["score"],
                                   {int(b): s for b, s in r["boards"].items()}, r.get("forfeit"), r.get("seats") or {})
               for r in row["results"] if r["round"] <= up_to]
    entries = list(row["entries"])
    if row["format"] in ("duplicate", "robot"):
        lines = duplicate_lines(row["game"], row.get("options") or {}, row.get("scoring") or "matchpoints",
                                results, entries)
        return scoring.standings(lines, entries, duplicate=True)
    byes = [b for rnd, bs in row["byes"].items() if int(rnd) <= up_to for b in bs]
    if row["format"] == "teams":
        lines = teams.lines(entries, results, byes, scale_of(row["game"], row.get("options") or {})[0])
        return scoring.standings(lines, entries, duplicate=True)
    if any(r.seats for r in results) or row.get("individual"):     # tables of four, each for himself
        return scoring.standings(individual.points(entries, results, byes), entries, duplicate=True)
    return scoring.standings(scoring.match_points(entries, results, byes), entries)


class TournamentStandings(RowProjection):
    name = "tournament_standings"
    version = 4                    # 2: individual tournaments (seats, the `individual` column), forfeits;
                                   # 3: `created_at`, the listing's order; 4: duplicate scoring methods, robot
                                   # duplicate's tables (`options`, `scoring`), teams of four
    table = "tournament_standings"
    event_types = EVENTS
    columns = {
        "tournament_id": "text",
        "organiser": "text",
        "name": "text",
        "game": "text",
        "format": "text",
        "individual": "boolean",
        "status": "text",
        "options": "jsonb",
        "scoring": "text",
        "schedule": "timestamptz",
        "entries": "jsonb",        # entry id -> {"players": [...], "name": ..., "withdrawn": bool}
        "tables": "jsonb",         # round -> {table: {"home", "away", "match_id"}}
        "byes": "jsonb",           # round -> [entry]
        "results": "jsonb",        # [{"round", "table", "home", "away", "score", "boards", "forfeit"}]
        "closed_rounds": "integer",
        "by_round": "jsonb",       # round -> standings after it
        "overall": "jsonb",
        "version": "bigint",
        "created_at": "timestamptz",
    }
    indexes = ("status, schedule", "created_at")

    def key_of(self, event: RecordedEvent, data: dict[str, Any]) -> str:
        return event.stream_id.removeprefix(PREFIX)

    def fold(self, row: dict[str, Any] | None, event: RecordedEvent, data: dict[str, Any]) -> dict[str, Any] | None:
        if not event.stream_id.startswith(PREFIX):
            return row
        if event.type == "tournament_created":
            import datetime as dt

            schedule = dt.datetime.fromisoformat(data["schedule"]) if data.get("schedule") else None
            row = {"tournament_id": data["tournament_id"], "organiser": data["organiser"], "name": data["name"],
                   "game": data["game"], "format": data["format"], "individual": bool(data.get("individual")),
                   "status": "registering", "schedule": schedule, "options": data.get("options") or {},
                   "scoring": data.get("scoring") or "matchpoints",
                   "entries": {}, "tables": {}, "byes": {}, "results": [], "closed_rounds": 0,
                   "by_round": {}, "overall": [], "created_at": event.recorded_at}
        elif row is None:
            return None
        else:
            row = dict(row)
            t = event.type
            if t == "entry_registered":
                row["entries"] = {**row["entries"], data["entry_id"]: {"players": data["players"],
                                                                       "name": data.get("name") or data["entry_id"],
                                                                       "withdrawn": False}}
            elif t == "entry_withdrawn":
                row["entries"] = {**row["entries"], data["entry_id"]: {**row["entries"][data["entry_id"]],
                                                                       "withdrawn": True}}
            elif t == "tournament_started":
                row["status"] = "running"
            elif t == "round_paired":
                r = str(data["round"])
                row["tables"] = {**row["tables"], r: {str(tb["table"]): {"home": tb["home"], "away": tb["away"],
                                                                         "seats": tb.get("seats") or {},
                                                                         "match_id": None} for tb in data["tables"]}}
                row["byes"] = {**row["byes"], r: data["byes"]}
            elif t == "table_added":
                r, tb = str(data["round"]), data["table"]
                row["tables"] = {**row["tables"], r: {**row["tables"].get(r, {}), str(tb["table"]): {
                    "home": tb["home"], "away": tb["away"], "seats": tb.get("seats") or {}, "match_id": None}}}
            elif t == "table_opened":
                r, tb = str(data["round"]), str(data["table"])
                row["tables"] = {**row["tables"], r: {**row["tables"][r],
                                                      tb: {**row["tables"][r][tb], "match_id": data["match_id"]}}}
            elif t == "result_recorded":
                seat = row["tables"][str(data["round"])][str(data["table"])]
                row["results"] = [*row["results"], {"round": data["round"], "table": data["table"],
                                                    "home": seat["home"], "away": seat["away"],
                                                    "seats": seat.get("seats") or {},
                                                    "match_id": data["match_id"], "score": data["score"],
                                                    "boards": data["boards"], "forfeit": data.get("forfeit")}]
            elif t == "round_closed":
                row["closed_rounds"] = data["round"]
                row["overall"] = compute(row, data["round"])
                row["by_round"] = {**row["by_round"], str(data["round"]): row["overall"]}
            elif t == "tournament_closed":
                row["status"] = "closed"
        row["version"] = event.stream_version
        return row



DUE = """
SELECT tournament_id, status FROM tournament_standings
WHERE (status = 'registering' AND schedule IS NOT NULL AND schedule <= now()) OR status = 'running'
ORDER BY schedule NULLS LAST LIMIT $1
"""


async def due_tournaments(pool: Any, limit: int = 200) -> list[tuple[str, str]]:
    """(tournament id, status) of the tournaments to start (their schedule has passed) or
    to move on (running); empty before the projector has created the table."""
    try:
        rows = await pool.fetch(DUE, limit)
    except asyncpg.UndefinedTableError:
        return []
    return [(r["tournament_id"], r["status"]) for r in rows]


LIST = """
SELECT tournament_id, name, game, format, individual, status, schedule, organiser, entries, created_at
FROM tournament_standings
WHERE ($1::text IS NULL OR status = $1)
  AND ($2::text IS NULL OR organiser = $2
       OR EXISTS (SELECT 1 FROM jsonb_each(entries) e WHERE e.value->'players' ? $2))
  AND ($4::timestamptz IS NULL OR (created_at, tournament_id) < ($4, $5))
ORDER BY created_at DESC, tournament_id DESC LIMIT $3
"""


async def listing(pool: Any, status: str | None = None, player_id: str | None = None, limit: int = 50,
                  before: tuple[Any, str] | None = None) -> list[dict[str, Any]]:
    """Tournaments newest first: of one status (or all), that `player_id` organises or plays
    an entry in (or anyone's), older than the key `before` (created_at, id: a page's cursor);
    empty before the projector has created the table."""
    at, key = before or (None, None)
    try:
        rows = await pool.fetch(LIST, status, player_id, limit, at, key)
    except asyncpg.UndefinedTableError:
        return []
    out = []
    for r in rows:
        entries = jsonb(r["entries"]) or {}
        out.append({"tournament_id": r["tournament_id"], "name": r["name"], "game": r["game"], "format": r["format"],
                    "individual": r["individual"], "status": r["status"], "organiser": r["organiser"],
                    "schedule": r["schedule"].isoformat() if r["schedule"] else None,
                    "entries": sum(1 for e in entries.values() if not e.get("withdrawn")),
                    "created_at": r["created_at"].isoformat() if r["created_at"] else None})
    return out
