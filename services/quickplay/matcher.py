"""The matching tick: read the queues, ask the rules for tables, open them.

Beat sends `quickplay.tick` every `ATOUT_QUICKPLAY_TICK` seconds (docs/settings.md); one tick
runs at a time (a Postgres advisory lock: a second worker's tick returns at once), so two
ticks never match the same entry. A table is opened in steps that each happen once whoever
repeats them: first the plan is claimed (the table's row and its entries marked `seating`,
in one transaction), then the match is created, seated and started with command ids derived
from the table's id, the players are told their seats (before the start, so a bot-filled
table is known casual before a card is dealt), and the entries are closed. A tick that dies
half-way leaves a `seating` table the next tick finishes.

The rules are `domain.quickplay.match`; this module only reads what they need (entries, the
blocks among the queued players) and gives them a seed of its own drawing, so the seats
cannot be foreseen. A ban is read at the door, as for every table (`services.matches.seating`):
a banned player's entry ends (`quickplay_expired`, reason `banned`) and the others of his
table go back to waiting, first in their queue as before.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
import uuid
from collections import defaultdict
from typing import Any

import asyncpg
import msgspec

from domain import quickplay as rules
from domain import ratings
from domain.cards import Seat
from domain.game import RuleViolation
from infra.store import CommandConflictError, ConcurrencyError
from services.matches import seating
from services.matches.clocks import set_clock
from services.quickplay import notices
from services.runtime import Runtime

log = logging.getLogger(__name__)

LOCK = 0x71706C79  # 'qply'
NS = uuid.UUID("0c3e5f7a-9b1d-4f2e-8a6c-5d4b3a2f1e0d")


async def tick(rt: Runtime, *, seed: bytes | None = None) -> dict[str, int]:
    """One matching round over every queue; what it did, counted."""
    async with rt.pool.acquire() as conn:
        if not await conn.fetchval("SELECT pg_try_advisory_lock($1)", LOCK):
            return {"skipped": 1}
        try:
            return await _tick(rt, seed or os.urandom(16))
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", LOCK)


async def _tick(rt: Runtime, seed: bytes) -> dict[str, int]:
    counts = {"finished": 0, "expired": 0, "tables": 0, "seated": 0, "waiting": 0}
    try:
        pending = await rt.pool.fetch("SELECT * FROM quickplay_tables WHERE status = 'seating' ORDER BY created_at")
    except asyncpg.UndefinedTableError:
        return counts                                 # not migrated yet
    for row in pending:                               # tables a tick before this one claimed but did not open
        counts["finished"] += 1 if await _guarded_open(rt, row) else 0
    counts["expired"] = await _expire(rt)
    planned, counts["waiting"] = await plan(rt.pool, seed)
    for key, pool_name, table in planned:
        row = await _claim(rt, key, pool_name, table)
        if row is not None:
            counts["tables"] += 1
            counts["seated"] += await _guarded_open(rt, row)
    return counts


async def plan(pool: Any, seed: bytes) -> tuple[list[tuple[str, str, rules.Table]], int]:
    """The tables the rules make of every queue as it stands (queue key, pool, table), and how
    many entries wait: the tick's reading and matching, without the opening."""
    rows = await pool.fetch(
        "SELECT entry_id, queue, pool, players, rating, extract(epoch FROM joined_at) AS joined, "
        "extract(epoch FROM ready_at) AS ready, bots_after, bot_level, extract(epoch FROM now()) AS now "
        "FROM quickplay_entries WHERE status = 'waiting'")
    if not rows:
        return [], 0
    now = float(rows[0]["now"])
    blocks = await _blocks(pool, sorted({p for r in rows for p in r["players"]}))
    queues: dict[str, list[rules.Entry]] = defaultdict(list)
    pools: dict[str, str] = {}
    for r in rows:
        pools[r["queue"]] = r["pool"]
        queues[r["queue"]].append(rules.Entry(
            entry_id=r["entry_id"], players=tuple(r["players"]), rating=float(r["rating"]), joined=float(r["joined"]),
            ready=float(r["ready"]), bots_after=r["bots_after"], bot_level=r["bot_level"]))
    planned = []
    for key, entries in queues.items():
        for table in rules.match(entries, now, hashlib.sha256(seed + key.encode()).digest(),
                                 individual=ratings.individual(pools[key]), blocks=blocks):
            planned.append((key, pools[key], table))
    return planned, len(rows)


async def _blocks(pool: Any, players: list[str]) -> list[tuple[str, str]]:
    try:
        rows = await pool.fetch("SELECT player_id, other_id FROM social_ties WHERE kind = 'block' "
                                "AND player_id = ANY($1::text[]) AND other_id = ANY($1::text[])", players)
    except asyncpg.UndefinedTableError:               # no projector has run: nobody blocks anyone yet
        return []
    return [(r["player_id"], r["other_id"]) for r in rows]


async def _expire(rt: Runtime) -> int:
    """Entries past `ATOUT_QUICKPLAY_EXPIRY`: told first, then closed (a crash between the two
    tells nobody twice: the notice's command id is the entry's)."""
    rows = await rt.pool.fetch(
        "SELECT entry_id, players FROM quickplay_entries WHERE status IN ('waiting', 'partner') "
        "AND joined_at < now() - make_interval(secs => $1)", rt.settings.quickplay_expiry)
    for row in rows:
        await notices.expired(rt.store, row["entry_id"], {p: "timeout" for p in row["players"]})
        await _close(rt.pool, row["entry_id"], "expired")
    return len(rows)


async def _close(pool: Any, entry_id: str, status: str) -> None:
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute("UPDATE quickplay_entries SET status = $2, ended_at = now() WHERE entry_id = $1 "
                           "AND status IN ('waiting', 'partner', 'seating')", entry_id, status)
        await conn.execute("UPDATE quickplay_members SET live = false WHERE entry_id = $1", entry_id)


async def _claim(rt: Runtime, queue: str, pool_name: str, table: rules.Table) -> Any:
    """The table's plan kept and its entries marked `seating`, or None when one of them
    left meanwhile (it stays for the next tick)."""
    table_id = str(uuid.uuid5(NS, ":".join(sorted(table.entries)) + f":{time.time_ns()}"))
    try:
        return await _claimed(rt, table_id, queue, pool_name, table)
    except _Undo:
        return None


async def _claimed(rt: Runtime, table_id: str, queue: str, pool_name: str, table: rules.Table) -> Any:
    async with rt.pool.acquire() as conn, conn.transaction():
        first = await conn.fetchrow("SELECT game, options, rated, clock FROM quickplay_entries WHERE entry_id = $1",
                                    table.entries[0])
        claimed = await conn.fetch("UPDATE quickplay_entries SET status = 'seating', table_id = $1 "
                                   "WHERE entry_id = ANY($2::text[]) AND status = 'waiting' RETURNING entry_id",
                                   table_id, list(table.entries))
        if len(claimed) != len(table.entries):
            raise _Undo()
        match_id = str(uuid.uuid5(uuid.uuid5(NS, f"{table_id}:create"), "match"))
        return await conn.fetchrow(
            "INSERT INTO quickplay_tables (table_id, match_id, queue, pool, seats, entries, bots, rated, spread, "
            "status) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'seating') RETURNING *",
            table_id, match_id, queue, pool_name, msgspec.json.encode(table.seats), list(table.entries), table.bots,
            first["rated"] and not table.bots, table.spread)


class _Undo(Exception):
    pass


async def _guarded_open(rt: Runtime, row: Any) -> int:
    try:
        return await open_table(rt, row)
    except Exception:
        log.exception("quick-play table %s could not open yet", row["table_id"])
        return 0


async def open_table(rt: Runtime, row: Any) -> int:
    """Create, seat, tell and start a claimed table (each step once); the people seated."""
    table_id, match_id = row["table_id"], row["match_id"]
    seats: dict[str, str] = _decoded(row["seats"])
    people = {p: s for s, p in seats.items() if not p.startswith("bot:")}
    banned = [p for p in people if (await seating.sanctions(rt.store, p)).banned]
    if banned:
        return await _drop(rt, row, banned)
    entries = await rt.pool.fetch("SELECT entry_id, players, game, options, clock FROM quickplay_entries "
                                  "WHERE table_id = $1", table_id)
    game, options, clock = entries[0]["game"], _decoded(entries[0]["options"]), _decoded(entries[0]["clock"])
    command = uuid.uuid5(NS, f"{table_id}:create")
    specs = {s: (p if p.startswith("bot:") else "open") for s, p in seats.items()}
    await rt.matches.create_match(game, options, specs, rated=row["rated"], command_id=command)
    if clock is not None:
        await set_clock(rt.store, match_id, clock)
    try:
        for player, seat in people.items():
            await _seat(rt, match_id, seat, player, uuid.uuid5(NS, f"{table_id}:{seat}"))
    except RuleViolation as violation:
        if violation.code not in ("seat_taken", "match_not_open"):
            raise
        # Someone from the lobby sat first in the moment the table was open: it is his now,
        # and this table's entries wait again, first in their queue as before.
        log.warning("quick-play table %s lost a seat to the lobby: %s", table_id, violation.code)
        return await _drop(rt, row, [])
    for entry in entries:
        mine = {p: people[p] for p in entry["players"] if p in people}
        await notices.seated(rt.store, entry["entry_id"], table_id=table_id, match_id=match_id, game=game,
                             pool=row["pool"], rated=row["rated"], bots=row["bots"], seats=mine)
    state = await rt.matches.load(match_id)
    if state.status == "open":
        try:
            await rt.matches.start(match_id, command_id=uuid.uuid5(NS, f"{table_id}:start"))
        except (ConcurrencyError, RuleViolation, CommandConflictError):
            pass                                       # started meanwhile
    async with rt.pool.acquire() as conn, conn.transaction():
        await conn.executemany("INSERT INTO quickplay_seats (player_id, match_id, seat) VALUES ($1, $2, $3) "
                               "ON CONFLICT DO NOTHING", [(p, match_id, s) for p, s in people.items()])
        await conn.execute("UPDATE quickplay_entries SET status = 'seated', match_id = $2, ended_at = now() "
                           "WHERE table_id = $1 AND status = 'seating'", table_id, match_id)
        await conn.execute("UPDATE quickplay_members SET live = false WHERE entry_id = ANY($1::text[])",
                           list(row["entries"]))
        await conn.execute("UPDATE quickplay_tables SET status = 'open' WHERE table_id = $1", table_id)
    return len(people)


async def _seat(rt: Runtime, match_id: str, seat: str, player: str, command_id: uuid.UUID) -> None:
    state = await rt.matches.load(match_id)
    holder = state.seats.get(seat)
    if holder is not None and holder.player_id == player:
        return
    await rt.matches.take_seat(match_id, Seat(seat), player_id=player, command_id=command_id)


async def _drop(rt: Runtime, row: Any, banned: list[str]) -> int:
    """A table that cannot open (one of its players banned since he joined, or a seat taken
    from the lobby first): a banned player's entry ends, the others wait again."""
    async with rt.pool.acquire() as conn, conn.transaction():
        entries = await conn.fetch("SELECT entry_id, players FROM quickplay_entries WHERE table_id = $1 "
                                   "AND status = 'seating'", row["table_id"])
        await conn.execute("UPDATE quickplay_tables SET status = 'dropped' WHERE table_id = $1", row["table_id"])
        await conn.execute("UPDATE quickplay_entries SET status = 'waiting', table_id = NULL WHERE table_id = $1 "
                           "AND status = 'seating'", row["table_id"])
    for entry in entries:
        if set(entry["players"]) & set(banned):         # his partner is not told why
            await notices.expired(rt.store, entry["entry_id"],
                                  {p: "banned" if p in banned else "partner_unavailable" for p in entry["players"]})
            await _close(rt.pool, entry["entry_id"], "expired")
    return 0


def _decoded(value: Any) -> Any:
    return msgspec.json.decode(value) if isinstance(value, (bytes, str)) else value
