"""The ratings fold: one batch of match, presence and tournament events applied to the ratings tables.

Shared by the `ratings` projection (`infra.projections.ratings`, whose docstring says what it
computes and why in this order) and the account stream's `rating_changed` producer
(`infra.projections.rating_notices`), which runs it on tables of its own; the rules around
the arithmetic are `domain.ratings`, the arithmetic openskill's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from openskill.models import PlackettLuce

from domain import ratings as rules
from infra.projections import rating_rows as rows_io
from infra.projections.base import Change
from infra.store.postgres import Connection

MODEL = PlackettLuce()
WINDOW = dt.timedelta(seconds=rules.REPEAT_WINDOW_SECONDS)

class Moved(NamedTuple):
    """A player's display rating in `pool` moved because of `cause` (an event of the log):
    `match_id` rated (or, `rerated`, a ruling on it rated the pool again)."""

    cause: Any
    pool: str
    player_id: str
    match_id: str
    old: float
    new: float
    games: int
    rerated: bool


def rate(before: Mapping[str, tuple[float, float]], result: Sequence[tuple[Sequence[str], int]],
         weight: float | Mapping[str, float] = 1.0) -> dict[str, tuple[float, float]]:
    """Each player's (mu, sigma) after `result` ([(players of a team, rank)]): openskill's
    update, moved only `weight` of the way (one for all, or per player: `rules.weights`)
    when the match counts less."""
    teams = [[MODEL.rating(mu=before[p][0], sigma=before[p][1]) for p in team] for team, _ in result]
    rated = MODEL.rate(teams, ranks=[rank for _, rank in result])
    out: dict[str, tuple[float, float]] = {}
    for (team, _), new in zip(result, rated):
        for player, r in zip(team, new):
            mu0, s0 = before[player]
            w = weight[player] if isinstance(weight, Mapping) else weight
            out[player] = (r.mu, r.sigma) if w == 1.0 else (mu0 + w * (r.mu - mu0), s0 + w * (r.sigma - s0))
    return out


class RatingBatch:
    """One batch: the rows it touches loaded once, folded in order, written back once. A
    re-rating writes what is pending first, then works on the tables directly. `changed`
    says whose display rating moved, for the account stream (`rating_notices`), which runs
    this same fold on tables of its own."""

    def __init__(self, conn: Connection, names: Sequence[str], prefixes: tuple[str, str, str]) -> None:
        self.conn, (self.m, self.r, self.h), (self.match, self.presence, self.tournament) = conn, names, prefixes
        self.matches: dict[str, dict[str, Any] | None] = {}
        self.players: dict[tuple[str, str], dict[str, Any]] = {}
        self.history: list[tuple[Any, ...]] = []
        self.dirty: set[str] = set()
        self.known_players: set[str] = set()          # players whose every pool is in `players`
        self.moved: set[tuple[str, str]] = set()      # (pool, player) rated in this batch, to write
        self.recent: dict[tuple[str, str], dict[str, tuple[int, Any]]] = {}  # rated results of four players
        self.known_foursomes: set[str] = set()        # foursomes whose every pool is in `recent`
        self.changed: list[Moved] = []                # display ratings moved by this batch's events
        self.cause: Any = None                        # the event being folded
        self.rerating = False

    async def run(self, changes: Sequence[Change]) -> None:
        ids = list(dict.fromkeys(e.stream_id.removeprefix(self.match).removeprefix(self.presence) for e, _ in changes
                                 if not e.stream_id.startswith(self.tournament)))
        await self._load_matches(ids)
        await self._prefetch(changes)
        for event, data in changes:
            self.cause = event
            await self._fold(event, data)
        await self._flush()

    async def _load_matches(self, ids: list[str]) -> None:
        rows = await self.conn.fetch(f"SELECT {rows_io.COLUMNS} FROM {self.m} WHERE match_id = ANY($1::text[])",
                                     ids)
        for record in rows:
            row = rows_io.row_of(record)
            self.matches[row["match_id"]] = row
        for i in ids:
            self.matches.setdefault(i, None)

    async def _prefetch(self, changes: Sequence[Change]) -> None:
        """The ratings and recent results of every player the batch may rate, in two queries."""
        seats = {i: dict(r["seats"]) for i, r in self.matches.items() if r is not None}
        for event, data in changes:
            match_id = event.stream_id.removeprefix(self.match)
            if event.type == "match_created":
                seats[match_id] = {s: (h or {}).get("player_id") for s, h in (data.get("seats") or {}).items()}
            elif event.type == "seat_taken" and match_id in seats:
                seats[match_id][data["seat"]] = (data.get("holder") or {}).get("player_id")
        players = {p for table in seats.values() for p in table.values() if p}
        foursomes = {",".join(sorted(table.values())) for table in seats.values()
                     if len(table) == 4 and all(table.values())}
        for rec in await self.conn.fetch(f"SELECT pool, player_id, mu, sigma, games, wins, seq FROM {self.r}"
                                         " WHERE player_id = ANY($1::text[])", list(players)):
            self.players.setdefault((rec["pool"], rec["player_id"]), {k: rec[k] for k in ("mu", "sigma", "games",
                                                                                          "wins", "seq")})
        self.known_players |= players
        await self._load_recent(list(foursomes))

    async def _load_recent(self, foursomes: list[str]) -> None:
        for rec in await self.conn.fetch(f"SELECT match_id, pool, foursome, seq, finished_at FROM {self.m}"
                                         " WHERE foursome = ANY($1::text[]) AND result IS NOT NULL"
                                         " AND seq IS NOT NULL", foursomes):
            self.recent.setdefault((rec["pool"], rec["foursome"]), {})[rec["match_id"]] = (rec["seq"],
                                                                                          rec["finished_at"])
        self.known_foursomes |= set(foursomes)

    async def _fold(self, event: Any, data: dict[str, Any]) -> None:
        t, stream = event.type, event.stream_id
        if stream.startswith(self.tournament):
            if t == "round_closed":
                await self._release(rows_io.held_key(stream.removeprefix(self.tournament), int(data["round"])), event)
            return
        if stream.startswith(self.presence):
            row = self.matches.get(stream.removeprefix(self.presence))
            if row is not None and row["status"] in ("open", "playing"):
                away = set(row["away"])
                (away.add if t == "seat_disconnected" else away.discard)(str(data["seat"]))
                self._put({**row, "away": sorted(away)})
            return
        if not stream.startswith(self.match):
            return
        match_id = stream.removeprefix(self.match)
        row = self.matches.get(match_id)
        if t == "match_created":
            seats = {s: (h or {}).get("player_id") for s, h in (data.get("seats") or {}).items()}
            tournament = data.get("tournament")
            self._put({"match_id": match_id, "pool": rules.pool_of(data["game"], data.get("options") or {}),
                       "rated": bool(data.get("rated")), "seats": seats, "away": [], "status": "open", "seq": None,
                       "finished_at": None, "result": None, "weight": None, "foursome": None,
                       "tally": {"deals": 0, "taken": {}, "made": {}, "points": {}},
                       "held": rows_io.held_key(tournament["tournament_id"], tournament["round"]) if tournament else None,
                       "private": bool(data.get("private"))})
            return
        if row is None:
            return
        if t == "seat_taken":
            self._put({**row, "seats": {**row["seats"], data["seat"]: (data.get("holder") or {}).get("player_id")}})
        elif t == "seat_left":
            self._put({**row, "seats": {**row["seats"], data["seat"]: None}})
        elif t == "deal_finished":
            self._put({**row, "status": "playing", "tally": rows_io.tally_of(row["tally"], data.get("summary") or {})})
        elif t == "match_finished":
            result = rules.places(row["pool"], data.get("winner"), data.get("match_score") or {})
            row = {**row, "tally": {**row["tally"], "winner": data.get("winner")}}
            await self._result(row, "finished", result, event)
        elif t == "match_abandoned":
            result = rules.abandoned_places(row["pool"], row["away"])
            await self._result(row, "abandoned", result, event)
        elif t in ("match_reopened", "match_voided"):
            await self._result(row, "playing" if t == "match_reopened" else "void", None, event)

    async def _result(self, row: dict[str, Any], status: str, result: list[Any] | None, event: Any) -> None:
        players = [row["seats"].get(s) for s in rules.SEATS]
        rateable = row["rated"] and all(players)
        named = [[[row["seats"][s] for s in team], rank] for team, rank in result] if result and rateable else None
        if row["seq"] is not None:                       # already rated: a ruling moved it
            self._put({**row, "status": status, "result": named})
            await self._rerate(row["pool"], row["seq"], row["match_id"])
            return
        foursome = ",".join(sorted(players)) if named else None  # type: ignore[arg-type]
        if row.get("held") is not None:                  # its round is open: kept, rated when it closes
            self._put({**row, "status": status, "result": named, "foursome": foursome,
                       "finished_at": event.recorded_at if named else None})
            return
        if named is None:
            self._put({**row, "status": status})
            return
        row = {**row, "status": status, "result": named, "seq": event.position, "finished_at": event.recorded_at,
               "foursome": foursome}
        row["weight"] = rules.repeat_weight(await self._earlier(row))
        self._put(row)
        await self._rate_one(row)

    async def _release(self, key: str, event: Any) -> None:
        """A tournament round closed at every table: its tables' results are public from this
        position on, and rated here, in match-id order (they share no player)."""
        await self._flush()
        for record in await self.conn.fetch(f"SELECT {rows_io.COLUMNS} FROM {self.m} WHERE held = $1"
                                            " ORDER BY match_id", key):
            row = {**rows_io.row_of(record), "held": None}
            if row["result"] is None or row["seq"] is not None:
                self._put(row)
                continue
            row["seq"] = event.position
            row["weight"] = rules.repeat_weight(await self._earlier(row))
            self._put(row)
            await self._rate_one(row)

    async def _earlier(self, row: dict[str, Any]) -> int:
        """Rated results of the same four players in the pool within the day before this one."""
        if row["foursome"] not in self.known_foursomes:
            await self._load_recent([row["foursome"]])
        since = row["finished_at"] - WINDOW
        return sum(1 for match_id, (seq, at) in self.recent.get((row["pool"], row["foursome"]), {}).items()
                   if match_id != row["match_id"] and seq < row["seq"] and at > since)

    async def _player(self, pool: str, player: str) -> dict[str, Any]:
        key = (pool, player)
        if key not in self.players:
            rec = None if player in self.known_players else await self.conn.fetchrow(
                f"SELECT mu, sigma, games, wins FROM {self.r} WHERE pool = $1 AND player_id = $2", pool, player)
            self.players[key] = dict(rec) if rec else {"mu": MODEL.mu, "sigma": MODEL.sigma, "games": 0, "wins": 0}
        return self.players[key]

    async def _rate_one(self, row: dict[str, Any]) -> None:
        pool, result = row["pool"], row["result"]
        self.recent.setdefault((pool, row["foursome"]), {})[row["match_id"]] = (row["seq"], row["finished_at"])
        before = {p: await self._player(pool, p) for team, _ in result for p in team}
        weights = rules.weights({p: v["games"] for p, v in before.items()}, row["weight"])
        after = rate({p: (v["mu"], v["sigma"]) for p, v in before.items()}, [(team, rank) for team, rank in result],
                     weights)
        for team, rank in result:
            for p in team:
                mu, sigma = after[p]
                v = {"mu": mu, "sigma": sigma, "games": before[p]["games"] + 1,
                     "wins": before[p]["wins"] + (1 if rank == 1 else 0), "seq": row["seq"]}
                self.players[(pool, p)] = v
                self.moved.add((pool, p))
                if not self.rerating:
                    self._changed(pool, p, row["match_id"], rules.display(before[p]["mu"], before[p]["sigma"]),
                                  rules.display(mu, sigma), v["games"])
                self.history.append((pool, p, row["seq"], row["match_id"], row["finished_at"], mu, sigma,
                                     rules.display(mu, sigma), v["games"], v["wins"], weights[p]))

    def _changed(self, pool: str, player: str, match_id: str, old: float, new: float, games: int) -> None:
        if old != new:
            self.changed.append(Moved(self.cause, pool, player, match_id, old, new, games, False))

    async def _rerate(self, pool: str, seq: int, match_id: str) -> None:
        """Rate `pool` again from the result at `seq` on, from the history before it (each
        player whose display rating ends up elsewhere is one `Moved`, for the ruled match)."""
        await self._flush()
        was = {r["player_id"]: r["rating"] for r in await self.conn.fetch(
            f"SELECT player_id, rating FROM {self.r} WHERE pool = $1 AND player_id IN "
            f"(SELECT player_id FROM {self.h} WHERE pool = $1 AND seq >= $2)", pool, seq)}
        self.rerating = True
        try:
            await self._rerate_from(pool, seq)
        finally:
            self.rerating = False
        for player, old in sorted(was.items()):
            now = self.players.get((pool, player))
            new = rules.display(now["mu"], now["sigma"]) if now else 0.0
            if new != old:
                self.changed.append(Moved(self.cause, pool, player, match_id, old, new,
                                          now["games"] if now else 0, True))

    async def _rerate_from(self, pool: str, seq: int) -> None:
        self.players.clear()
        self.recent.clear()
        self.known_players.clear()
        self.known_foursomes.clear()
        touched = await self.conn.fetch(f"SELECT DISTINCT player_id FROM {self.h} WHERE pool = $1 AND seq >= $2",
                                        pool, seq)
        await self.conn.execute(f"DELETE FROM {self.h} WHERE pool = $1 AND seq >= $2", pool, seq)
        for rec in touched:
            last = await self.conn.fetchrow(f"SELECT mu, sigma, games, wins, seq FROM {self.h} WHERE pool = $1 AND "
                                            "player_id = $2 ORDER BY seq DESC LIMIT 1", pool, rec["player_id"])
            if last is None:
                await self.conn.execute(f"DELETE FROM {self.r} WHERE pool = $1 AND player_id = $2", pool,
                                        rec["player_id"])
            else:
                self.players[(pool, rec["player_id"])] = dict(last)
                self.moved.add((pool, rec["player_id"]))
        later = await self.conn.fetch(f"SELECT {rows_io.COLUMNS} FROM {self.m} WHERE pool = $1 AND seq >= $2"
                                      " ORDER BY seq, match_id", pool, seq)
        for record in later:
            row = rows_io.row_of(record)
            if row["result"] is None:
                continue
            row["weight"] = rules.repeat_weight(await self._earlier(row))
            self._put(row)
            await self._rate_one(row)

    def _put(self, row: dict[str, Any]) -> None:
        self.matches[row["match_id"]] = row
        self.dirty.add(row["match_id"])

    async def _flush(self) -> None:
        rows = [self.matches[i] for i in self.dirty if self.matches.get(i) is not None]
        self.dirty.clear()
        items = [(k, self.players[k]) for k in self.moved]
        self.moved.clear()
        history, self.history = self.history, []
        await rows_io.write(self.conn, (self.m, self.r, self.h), rows, items, history)
