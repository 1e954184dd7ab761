"""The account stream's producer of the tournaments feature: `TournamentNotices`
(`account_tournaments`: entries, pairings, the current round) says `tournament_started`,
`round_started` (the entry's table and match, or a bye), `round_closed` and
`tournament_closed` to the players of the entries concerned, and gives the snapshot its
`tournaments` (mine, not closed, with my entry's table this round).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from infra.projections.account_events import AccountProducer, Notice
from infra.projections.base import Change
from infra.store.model import RecordedEvent
from infra.store.postgres import Connection

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode

TOURNAMENT_PREFIX = "tournament-"
TOURNAMENT_EVENTS = frozenset({"tournament_created", "entry_registered", "entry_withdrawn", "tournament_started",
                               "round_paired", "table_added", "table_opened", "round_closed",
                               "tournament_closed"})


class TournamentNotices(AccountProducer):
    name = "tournaments"
    tables = ("account_tournaments",)
    event_types = TOURNAMENT_EVENTS

    def create(self, names: Mapping[str, str]) -> list[str]:
        table = names["account_tournaments"]
        return [f"""CREATE TABLE IF NOT EXISTS {table} (tournament_id text PRIMARY KEY, name text NOT NULL,
                    game text NOT NULL, status text NOT NULL, round integer NOT NULL DEFAULT 0,
                    entries jsonb NOT NULL, seating jsonb NOT NULL, players text[] NOT NULL)""",
                f"CREATE INDEX IF NOT EXISTS {table}_players_idx ON {table} USING gin (players)"]

    async def notices(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> list[Notice]:
        table, out = names["account_tournaments"], []
        ids = list(dict.fromkeys(r.stream_id[len(TOURNAMENT_PREFIX):] for r, _ in changes
                                 if r.stream_id.startswith(TOURNAMENT_PREFIX)))
        rows = {r["tournament_id"]: {**dict(r), "entries": _decode(r["entries"]), "tables": _decode(r["seating"])}
                for r in await conn.fetch(f"SELECT tournament_id, name, game, status, round, entries, seating "
                                          f"FROM {table} WHERE tournament_id = ANY($1::text[])", ids)}
        for recorded, data in changes:
            if not recorded.stream_id.startswith(TOURNAMENT_PREFIX):
                continue
            tid, kind = recorded.stream_id[len(TOURNAMENT_PREFIX):], recorded.type
            if kind == "tournament_created":
                rows[tid] = {"tournament_id": tid, "name": data["name"], "game": data["game"],
                             "status": "registering", "round": 0, "entries": {}, "tables": {}}
                continue
            row = rows.get(tid)
            if row is None:
                continue
            entries: dict[str, Any] = row["entries"]
            if kind == "entry_registered":
                entries[data["entry_id"]] = {"players": [p for p in data["players"] if not p.startswith("bot:")],
                                             "withdrawn": False}
                if len(data["players"]) == 4:     # a team of four: its pairs sit in different rooms
                    entries[data["entry_id"]]["pairs"] = [[p for p in pair if not p.startswith("bot:")]
                                                          for pair in (data["players"][:2], data["players"][2:])]
            elif kind == "entry_withdrawn" and data["entry_id"] in entries:
                entries[data["entry_id"]]["withdrawn"] = True
            elif kind == "round_paired":
                row["round"] = data["round"]
                row["tables"] = {}
                for tb in data["tables"]:
                    for entry in {tb["home"], tb["away"], *(tb.get("seats") or {}).values()} - {""}:
                        key = f"{entry}/{tb['room']}" if tb.get("room") else entry    # a team: one pair a room
                        row["tables"][key] = {"table": tb["table"], "match_id": None}
                for entry in data["byes"]:
                    out += self._to(row, [entry], "round_started", {"round": data["round"], "bye": True}, recorded)
            elif kind == "table_added":          # a robot duplicate entrant's own table
                for entry in {data["table"]["home"], *(data["table"].get("seats") or {}).values()} - {""}:
                    row["tables"][entry] = {"table": data["table"]["table"], "match_id": None}
            elif kind == "table_opened":
                at = [e for e, t in row["tables"].items() if t["table"] == data["table"]]
                for entry in at:
                    row["tables"][entry]["match_id"] = data["match_id"]
                out += self._to(row, at, "round_started", {"round": data["round"], "table": data["table"],
                                                           "match_id": data["match_id"]}, recorded)
            else:
                if kind == "tournament_started":
                    row["status"] = "running"
                elif kind == "tournament_closed":
                    row["status"] = "closed"
                body = ({"round": data["round"]} if kind == "round_closed" else
                        {"reason": data.get("reason", "completed")} if kind == "tournament_closed" else {})
                live = [e for e, v in entries.items() if not v["withdrawn"]]
                out += self._to(row, live, kind, body, recorded)
        for row in rows.values():
            players = sorted({p for v in row["entries"].values() if not v["withdrawn"] for p in v["players"]})
            await conn.execute(
                f"INSERT INTO {table} (tournament_id, name, game, status, round, entries, seating, players) "
                f"VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (tournament_id) DO UPDATE SET status = $4, "
                f"round = $5, entries = $6, seating = $7, players = $8",
                row["tournament_id"], row["name"], row["game"], row["status"], row["round"],
                _encode(row["entries"]), _encode(row["tables"]), players)
        return out

    @staticmethod
    def _to(row: dict[str, Any], entries: list[str], kind: str, body: dict[str, Any],
            recorded: RecordedEvent) -> list[Notice]:
        body = {"tournament_id": row["tournament_id"], **body}
        return [Notice(pid, kind, body, recorded) for e in entries for pid in _players(row, e)]

    @staticmethod
    def _seat_of(entry: str | None, entries: dict[str, Any], tables: dict[str, Any], player_id: str) -> Any:
        """The table of `entry` that seats `player_id` (a team's pair's room, or the entry's)."""
        if entry is None:
            return None
        for room, pair in enumerate(entries[entry].get("pairs") or [], 1):
            if player_id in pair and f"{entry}/{room}" in tables:
                return tables[f"{entry}/{room}"]
        return tables.get(entry)

    async def snapshot(self, conn: Connection, player_id: str, names: Mapping[str, str]) -> dict[str, Any]:
        rows = await conn.fetch(f"SELECT tournament_id, name, game, status, round, entries, seating FROM "
                                f"{names['account_tournaments']} WHERE players @> ARRAY[$1::text] AND status <> 'closed' "
                                f"ORDER BY tournament_id", player_id)
        out = []
        for r in rows:
            entries, tables = _decode(r["entries"]), _decode(r["seating"])
            entry = next((e for e, v in entries.items() if player_id in v["players"] and not v["withdrawn"]), None)
            at = self._seat_of(entry, entries, tables, player_id)
            out.append({"tournament_id": r["tournament_id"], "name": r["name"], "game": r["game"],
                        "status": r["status"], "entry_id": entry, "round": r["round"],
                        "table": at and at["table"], "match_id": at and at["match_id"]})
        return {"tournaments": out}


def _players(row: dict[str, Any], key: str) -> list[str]:
    """Who a notice about `key` goes to: an entry's people, or (`entry/room`) a team's pair."""
    entry, _, room = key.partition("/")
    got = row["entries"].get(entry, {})
    if room and got.get("pairs"):
        return list(got["pairs"][int(room) - 1])
    return list(got.get("players", []))
