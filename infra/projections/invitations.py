"""`invitations`: one row per invitation or challenge, and what the account stream says of them.

The `invitation-<id>` streams are the truth (`domain.invitations`); this read model lists a
player's invitations (received or sent), counts a match's pending ones (its limit), and tells
the visibility policy who is invited to a private table. Expiry is a time, not an event: a
row is `pending` until answered, and reads as `expired` once `expires_at` has passed.

`InvitationNotices` puts them on the account streams: `invitation_received` to each invitee,
`invitation_answered` (accepted or declined) to the sender, `invitation_cancelled` to the
invitees who had not sat down yet. Every event carries whom it concerns, so the producer
keeps no table of its own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg

from infra.projections.account_events import AccountProducer, Notice
from infra.projections.base import Change, RowProjection
from infra.projections.match_summaries import jsonb
from infra.store.model import RecordedEvent
from infra.store.postgres import Connection
from infra import streams

EVENTS = frozenset({"invitation_sent", "invitation_accepted", "invitation_declined", "invitation_cancelled"})


def invitation_id_of(event: RecordedEvent) -> str:
    return event.stream_id.removeprefix(streams.INVITATION)


class Invitations(RowProjection):
    name = "invitations"
    table = "invitations"
    version = 1
    event_types = EVENTS
    catch_up_delay = 0.02
    columns = {
        "invitation_id": "text",
        "match_id": "text",
        "game": "text",
        "kind": "text",
        "sender": "text",
        "invitees": "jsonb",        # player id -> seat asked (null: any free seat)
        "accepted": "jsonb",        # player id -> seat taken
        "status": "text",           # pending, accepted, declined, cancelled (expired: read from expires_at)
        "expires_at": "timestamptz",
        "created_at": "timestamptz",
        "updated_at": "timestamptz",
    }
    indexes = ("match_id", "sender, created_at")

    def create(self, names: Mapping[str, str]) -> list[str]:
        table = names[self.table]
        return [*super().create(names),
                f"CREATE INDEX IF NOT EXISTS {table}_invitees_idx ON {table} USING gin (invitees)"]

    def key_of(self, event: RecordedEvent, data: dict[str, Any]) -> str:
        return invitation_id_of(event)

    def fold(self, row: dict[str, Any] | None, event: RecordedEvent, data: dict[str, Any]) -> dict[str, Any] | None:
        if event.type == "invitation_sent":
            return {"invitation_id": data["invitation_id"], "match_id": data["match_id"], "game": data["game"],
                    "kind": data["kind"], "sender": data["by"], "invitees": data["invitees"], "accepted": {},
                    "status": "pending", "expires_at": dt.datetime.fromisoformat(data["expires_at"]),
                    "created_at": event.recorded_at, "updated_at": event.recorded_at}
        if row is None:
            return None
        row = {**row, "updated_at": event.recorded_at}
        if event.type == "invitation_accepted":
            row["accepted"] = {**row["accepted"], data["player_id"]: data["seat"]}
            if set(row["accepted"]) == set(row["invitees"]):
                row["status"] = "accepted"
        elif event.type == "invitation_declined":
            row["status"] = "declined"
        elif event.type == "invitation_cancelled":
            row["status"] = "cancelled"
        return row


class InvitationNotices(AccountProducer):
    name = "invitations"
    event_types = EVENTS

    async def notices(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> list[Notice]:
        out: list[Notice] = []
        for recorded, data in changes:
            if streams.id_of(streams.INVITATION, recorded.stream_id) is None:
                continue
            about = {"invitation_id": data["invitation_id"], "match_id": data["match_id"]}
            if recorded.type == "invitation_sent":
                for player, seat in data["invitees"].items():
                    body = {**about, "game": data["game"], "kind": data["kind"], "by": data["by"], "seat": seat,
                            "expires_at": data["expires_at"]}
                    out.append(Notice(player, "invitation_received", body, recorded))
            elif recorded.type in ("invitation_accepted", "invitation_declined"):
                answer = recorded.type.removeprefix("invitation_")
                out.append(Notice(data["by"], "invitation_answered",
                                  {**about, "player_id": data["player_id"], "answer": answer,
                                   "seat": data.get("seat")}, recorded))
            else:
                out += [Notice(player, "invitation_cancelled", about, recorded) for player in data["invitees"]]
        return out


# --- reads ----------------------------------------------------------------------------------

STATUS = "CASE WHEN status = 'pending' AND expires_at <= now() THEN 'expired' ELSE status END"
LIST = f"""
SELECT invitation_id, match_id, game, kind, sender, invitees, accepted, {STATUS} AS status, expires_at, created_at
FROM invitations
WHERE (CASE WHEN $2 = 'sent' THEN sender = $1 ELSE invitees ? $1 END)
  AND ($3::text IS NULL OR {STATUS} = $3)
  AND ($5::timestamptz IS NULL OR (created_at, invitation_id) < ($5, $6))
ORDER BY created_at DESC, invitation_id DESC LIMIT $4
"""


async def _fetch(pool: Any, sql: str, *args: Any) -> list[Any]:
    try:
        return list(await pool.fetch(sql, *args))
    except asyncpg.UndefinedTableError:   # no projector has run yet
        return []


def _row(r: Any) -> dict[str, Any]:
    return {"invitation_id": r["invitation_id"], "match_id": r["match_id"], "game": r["game"], "kind": r["kind"],
            "by": r["sender"], "invitees": jsonb(r["invitees"]), "accepted": jsonb(r["accepted"]),
            "status": r["status"], "expires_at": r["expires_at"].isoformat(),
            "created_at": r["created_at"].isoformat()}


async def listed(pool: Any, player_id: str, role: str, status: str | None, limit: int,
                 before: tuple[Any, str] | None = None) -> list[dict[str, Any]]:
    """A player's invitations, newest first: those he `received`, or those he `sent`."""
    at, key = before or (None, None)
    return [_row(r) for r in await _fetch(pool, LIST, player_id, role, status, limit, at, key)]


PENDING = "status = 'pending' AND expires_at > now()"


async def pending_count(pool: Any, match_id: str) -> int:
    rows = await _fetch(pool, f"SELECT count(*) AS n FROM invitations WHERE match_id = $1 AND {PENDING}", match_id)
    return int(rows[0]["n"]) if rows else 0


async def invited_players(pool: Any, match_id: str) -> set[str]:
    """The players an invitation admits to this match: every invitee of a pending one, and
    whoever sat down through one (so that he may leave his seat and take it again)."""
    rows = await _fetch(pool, f"SELECT invitees, accepted, {PENDING} AS open FROM invitations WHERE match_id = $1 "
                              f"AND status IN ('pending', 'accepted')", match_id)
    return {p for r in rows for p in (jsonb(r["invitees"]) if r["open"] else jsonb(r["accepted"]))}



# What is pending around one new invitation — its match's, each invitee's, and what its sender
# already asks of each invitee — read as the read model has it plus the `invitation_sent`
# events past its checkpoint (one statement: the table and its checkpoint move together), so
# an invitation sent a moment ago counts before the projector has folded it. An answer past
# the checkpoint is not subtracted yet: the count errs towards refusing, for that moment only.
_SENT_LATELY = """
SELECT e.data->>'invitation_id' AS invitation_id, e.data->>'match_id' AS match_id, e.data->>'by' AS sender,
       e.data->'invitees' AS invitees
FROM events e, (SELECT coalesce(max(tx_id), '0'::xid8) AS tx_id, coalesce(max(position), 0) AS position
                FROM projection_checkpoints WHERE name = 'invitations') cp
WHERE (e.tx_id, e.position) > (cp.tx_id, cp.position) AND e.type = 'invitation_sent'
  AND (e.data->>'match_id' = $1 OR e.data->'invitees' ?| $2::text[])
  AND (e.data->>'expires_at')::timestamptz > now()
"""
AROUND = f"""
SELECT invitation_id, match_id, sender, invitees FROM invitations
WHERE (match_id = $1 OR invitees ?| $2::text[]) AND {PENDING}
UNION {_SENT_LATELY}
"""


async def pending_around(conn: Any, match_id: str, invitees: list[str]) -> list[tuple[str, str, set[str]]]:
    """(match, sender, invitees) of every invitation pending for `match_id` or any of
    `invitees`, sent a moment ago included (see AROUND)."""
    try:
        rows = await conn.fetch(AROUND, match_id, invitees)
    except asyncpg.UndefinedTableError:   # no projector has run yet: the log alone says it
        rows = await conn.fetch(_SENT_LATELY, match_id, invitees)
    return [(r["match_id"], r["sender"], set(jsonb(r["invitees"]))) for r in rows]
