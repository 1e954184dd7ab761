"""The account stream's producers of the matches and disputes features (the tournaments':
`infra.projections.tournament_notices`).

Each one reads only what its feature's players may know, and addresses each notice to the
players it is about (`infra.projections.account_events` numbers, keeps and publishes them):

* `MatchNotices` (`account_matches`: one row per open, playing or suspended match with its
  seats and `to_act`): `seat_taken` / `seat_left` (to the others at the table),
  `match_started`, `your_turn` (the match's version to act at; one per turn: when a seat
  comes to act, or must act again after its own action), `match_finished` (also for a
  match abandoned or voided, with its `status`), `match_suspended` (the server could not
  move it on: nothing is played until an admin acts; its stable `reason` only, never the
  admin's message) and `match_resumed` (then `your_turn` for whoever must act).
* `DisputeNotices` (`account_disputes`: who filed what): `dispute_ruled`, to the player who
  filed it and the players seated in its match.

A turn is judged per commit (one command's events), not per event: `your_turn` carries the
version after that commit, the `expected_version` of the next action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from domain import match as rules
from infra.projections.account_events import AccountProducer, Notice
from infra.projections.base import Change
from infra.projections.match_states import MatchStates
from infra.projections.publisher import STREAM_PREFIX, all_event_types, decode, fold
from infra.store.model import RecordedEvent
from infra.store.postgres import READ_STREAM, Connection

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode
ENDED = {"match_finished", "match_abandoned", "match_voided"}
KEPT = ("open", "playing", "suspended")


def _players(state: rules.MatchState) -> dict[str, str]:
    """seat -> player id, for the seats players (not bots) hold."""
    return {seat: h.player_id for seat, h in state.seats.items()
            if h is not None and h.kind == "player" and h.player_id}


def _to_act(state: rules.MatchState) -> set[str]:
    return {str(s) for s in state.game.status(state.game_state).to_act} if state.status == "playing" else set()


def _holder(holder: Any) -> dict[str, Any]:
    return {k: v for k, v in (holder or {}).items() if k in ("kind", "player_id", "level") and v is not None}


class MatchNotices(AccountProducer):
    name = "matches"
    tables = ("account_matches",)

    def __init__(self, cache_size: int = 4096) -> None:
        self.event_types = all_event_types()
        self._states = MatchStates(fold, STREAM_PREFIX, cache_size)

    def create(self, names: Mapping[str, str]) -> list[str]:
        table = names["account_matches"]
        return [f"""CREATE TABLE IF NOT EXISTS {table} (match_id text PRIMARY KEY, game text NOT NULL,
                    status text NOT NULL, seats jsonb NOT NULL, players text[] NOT NULL, to_act text[] NOT NULL,
                    version bigint NOT NULL, updated_at timestamptz NOT NULL)""",
                f"CREATE INDEX IF NOT EXISTS {table}_players_idx ON {table} USING gin (players)"]

    async def notices(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> list[Notice]:
        latest: dict[str, tuple[rules.MatchState, RecordedEvent]] = {}
        groups: list[list[tuple[RecordedEvent, dict[str, Any], Any]]] = []   # one commit's events in one match
        starts: list[rules.MatchState] = []     # the match before each group ...
        ends: list[rules.MatchState] = []       # ... and after it
        for recorded, data in changes:
            if not recorded.stream_id.startswith(STREAM_PREFIX):
                continue
            match_id = recorded.stream_id[len(STREAM_PREFIX):]
            state = await self._states.at(conn, match_id, recorded.stream_version - 1)
            if not groups or (groups[-1][0][0].stream_id, groups[-1][0][0].tx_id) != (recorded.stream_id,
                                                                                       recorded.tx_id):
                groups.append([])
                starts.append(state)
                ends.append(state)
            event = decode(state, recorded)
            state = ends[-1] = rules.evolve(state, event)
            self._states.remember(match_id, state)
            latest[match_id] = (state, recorded)
            groups[-1].append((recorded, data, event))
        out: list[Notice] = []
        for i, (group, before, after) in enumerate(zip(groups, starts, ends)):
            out += self._events(before, after, group)
            turn = await self._whole_commit(conn, group, before, after, first=i == 0, last=i == len(groups) - 1)
            if turn is not None:
                out += self._turns(*turn)
        await self._keep(conn, latest, names["account_matches"])
        return out

    async def _whole_commit(self, conn: Connection, group: list[tuple[RecordedEvent, dict[str, Any], Any]],
                            before: rules.MatchState, after: rules.MatchState, *, first: bool, last: bool) -> Any:
        """(state before the commit, after it, seats that acted in it, its last event) — or
        None while the commit goes on past this batch (the next batch judges it whole). A
        batch may cut a commit in two; turns are judged on whole commits so that the notices,
        and their numbers, do not depend on where batches end."""
        head, tail = group[0][0], group[-1][0]
        acted = {str(event.seat) for _, _, event in group if isinstance(event, rules.ActionTaken)}
        if first or last:
            low, high = await conn.fetchrow("SELECT min(stream_version), max(stream_version) FROM events "
                                            "WHERE stream_id = $1 AND tx_id = $2", head.stream_id, head.tx_id)
            if last and high > tail.stream_version:
                return None
            if first and low < head.stream_version:
                match_id = head.stream_id[len(STREAM_PREFIX):]
                before = await self._states.at(conn, match_id, low - 1)
                rows = await conn.fetch(READ_STREAM, head.stream_id, low - 1, head.stream_version - 1)
                acted |= {str(msgspec.json.decode(r[7])["seat"]) for r in rows if r[5] == "action_taken"}
        return before, after, acted, tail

    def _events(self, before: rules.MatchState, after: rules.MatchState,
                group: list[tuple[RecordedEvent, dict[str, Any], Any]]) -> list[Notice]:
        """The notices of one commit's seat, start and end events in one match."""
        match_id, out = after.match_id, []
        for recorded, data, _ in group:
            kind = recorded.type
            if kind in ("seat_taken", "seat_left"):
                body = {"match_id": match_id, "seat": str(data["seat"])}
                if kind == "seat_taken":
                    body["holder"] = _holder(data.get("holder"))
                out += [Notice(pid, kind, body, recorded) for seat, pid in _players(after).items()
                        if seat != body["seat"]]
            elif kind == "match_started":
                out += [Notice(pid, kind, {"match_id": match_id, "game": after.game_name, "seat": seat}, recorded)
                        for seat, pid in _players(after).items()]
            elif kind in ENDED:
                body = {"match_id": match_id, "status": after.status, "winner": data.get("winner"),
                        "match_score": data.get("match_score")}
                out += [Notice(pid, "match_finished", body, recorded) for pid in _players(before).values()]
            elif kind == "match_suspended":
                body = {"match_id": match_id, "reason": str(data.get("reason") or "")}
                out += [Notice(pid, kind, body, recorded) for pid in _players(after).values()]
            elif kind == "match_resumed":
                out += [Notice(pid, kind, {"match_id": match_id, "status": after.status}, recorded)
                        for pid in _players(after).values()]
        return out

    @staticmethod
    def _turns(before: rules.MatchState, after: rules.MatchState, acted: set[str],
               last: RecordedEvent) -> list[Notice]:
        """`your_turn` for each seat that comes to act in this commit, or acted and must act again."""
        was, out = _to_act(before), []
        for seat in sorted(_to_act(after)):
            pid = _players(after).get(seat)
            if pid is not None and (seat not in was or seat in acted):
                out.append(Notice(pid, "your_turn", {"match_id": after.match_id, "match_version": after.version,
                                                     "seat": seat}, last))
        return out

    async def _keep(self, conn: Connection, latest: dict[str, tuple[rules.MatchState, RecordedEvent]],
                    table: str) -> None:
        gone = [m for m, (s, _) in latest.items() if s.status not in KEPT]
        kept = [(s, r) for s, r in latest.values() if s.status in KEPT]
        if gone:
            await conn.execute(f"DELETE FROM {table} WHERE match_id = ANY($1::text[])", gone)
        for state, recorded in kept:
            players = _players(state)
            await conn.execute(
                f"INSERT INTO {table} (match_id, game, status, seats, players, to_act, version, updated_at) "
                f"VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (match_id) DO UPDATE SET status = $3, "
                f"seats = $4, players = $5, to_act = $6, version = $7, updated_at = $8",
                state.match_id, state.game_name, state.status, _encode(players), sorted(set(players.values())),
                sorted(_to_act(state)), state.version, recorded.recorded_at)

    async def snapshot(self, conn: Connection, player_id: str, names: Mapping[str, str]) -> dict[str, Any]:
        rows = await conn.fetch(f"SELECT match_id, game, status, seats, to_act, version FROM "
                                f"{names['account_matches']} WHERE players @> ARRAY[$1::text] ORDER BY updated_at DESC",
                                player_id)
        matches = []
        for r in rows:
            seats = _decode(r["seats"])
            mine = sorted(seat for seat, pid in seats.items() if pid == player_id)
            matches.append({"match_id": r["match_id"], "game": r["game"], "status": r["status"], "seats": mine,
                            "to_act": list(r["to_act"]), "my_turn": bool(set(mine) & set(r["to_act"])),
                            "version": r["version"]})
        return {"matches": matches}


DISPUTE_PREFIX = "dispute-"


class DisputeNotices(AccountProducer):
    name = "disputes"
    tables = ("account_disputes",)
    event_types = frozenset({"dispute_filed", "dispute_ruled"})

    def create(self, names: Mapping[str, str]) -> list[str]:
        return [f"CREATE TABLE IF NOT EXISTS {names['account_disputes']} (dispute_id text PRIMARY KEY, "
                f"match_id text NOT NULL, filed_by text NOT NULL)"]

    async def notices(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> list[Notice]:
        table, out = names["account_disputes"], []
        for recorded, data in changes:
            if not recorded.stream_id.startswith(DISPUTE_PREFIX):
                continue
            if recorded.type == "dispute_filed":
                await conn.execute(f"INSERT INTO {table} VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                                   data["dispute_id"], data["match_id"], data["by"])
                continue
            row = await conn.fetchrow(f"SELECT match_id, filed_by FROM {table} WHERE dispute_id = $1",
                                      data["dispute_id"])
            if row is None:
                continue
            seated = await conn.fetchval(f"SELECT players FROM {names['account_matches']} WHERE match_id = $1",
                                         row["match_id"]) if "account_matches" in names else None
            body = {"dispute_id": data["dispute_id"], "match_id": row["match_id"], "ruling": data["ruling"],
                    "status": "rejected" if data["ruling"] == "reject" else "resolved"}
            out += [Notice(pid, "dispute_ruled", body, recorded)
                    for pid in dict.fromkeys([row["filed_by"], *(seated or ())])]
        return out
