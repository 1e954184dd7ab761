"""Joining and leaving a quick-play queue, and a player's own entry.

A queue is one way of playing (a rating pool) with the options that change the game for the
players at it — the options given, rated or casual, the clock — so its key is those, written
canonically (`queue_key`). An entry is one player, or two partners: a player naming a partner
waits (`status: "partner"`) until that partner joins the same queue naming him back, so
nobody is queued by someone else's request. A player has at most one live entry (a unique
index holds it whatever races). A retried join (the same `command_id`) is answered with the
entry as it stands; the same id with another body is 409 `command_conflict`.

What a join checks, and why here rather than in the matcher: the options (400 naming the
field, as at `POST /v1/matches`), bots only in a casual queue (a rated table is people only),
the one door to a seat (`services.matches.seating`: a banned player joins nothing, partners
who block each other are no partnership), the cooldown after leaving, and the penalty for
quick-play tables left early (`domain.quickplay.penalty`), which delays when the entry may be
matched rather than refusing it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from typing import Any

import asyncpg
import msgspec

from domain import quickplay as rules
from domain import ratings
from domain.bots import LEVELS
from domain.game import RuleViolation
from domain.games import GAMES
from domain.match_bounds import check_bounds
from infra.players import Principal
from infra.projections import rating_queries
from services.matches import seating
from services.matches.clocks import match_clock, parse_clock
from services.refusals import BadField, Conflict, NotFound, NotNow, TooMany
from services.runtime import Runtime

NS = uuid.UUID("3f0b8a52-4c1e-4d7a-9e26-7b5d0c9a1e44")
LIVE = ("partner", "waiting", "seating")


class Join(msgspec.Struct, frozen=True, kw_only=True):
    """What a player asks for (the route's body)."""

    game: str
    options: dict[str, Any] = {}
    rated: bool = False
    clock: dict[str, Any] | None = None
    partner: str | None = None
    bots_after: float | None = None
    bot_level: str = "basic"
    command_id: uuid.UUID | None = None


class Queue(msgspec.Struct, frozen=True):
    key: str
    game: str
    options: dict[str, Any]
    pool: str
    rated: bool
    clock: dict[str, float] | None


def queue_of(join: Join) -> Queue:
    """The queue a join asks for, checked: 400s naming the field."""
    game = GAMES.get(join.game)
    if game is None:
        raise BadField("unknown_game", f"no game {join.game!r}; games are {', '.join(sorted(GAMES))}",
                       {"field": "$.game"})
    try:
        game.parse_options(dict(join.options))
        check_bounds(join.game, join.options)
    except RuleViolation as violation:
        option = violation.details.get("option") or violation.details.get("field", "").removeprefix("$.options.")
        raise BadField(violation.code, violation.message,
                       {**violation.details, "field": f"$.options.{option}" if option else "$.options"}) from None
    try:
        clock = match_clock(None if join.clock is None else parse_clock(join.clock), rated=join.rated)
    except RuleViolation as violation:
        raise BadField("bad_clock", violation.message,
                       {"field": violation.details.get("field", f"$.{violation.details.get('option', 'clock')}")}) from None
    pool = ratings.pool_of(join.game, join.options)
    canonical = msgspec.json.encode({"game": join.game, "options": dict(sorted(join.options.items())),
                                     "rated": join.rated, "clock": clock}, order="sorted").decode()
    return Queue(key=canonical, game=join.game, options=dict(join.options), pool=pool, rated=join.rated, clock=clock)


def _check(join: Join, queue: Queue, player_id: str) -> None:
    if join.bots_after is not None:
        if join.rated:
            raise BadField("bots_not_rated", "a rated table is people only: bots may fill casual tables alone",
                           {"field": "$.bots_after"})
        low, high = rules.BOTS_AFTER_BOUNDS
        if not low <= join.bots_after <= high:
            raise BadField("bad_bots_after", f"bots_after is {low:g} to {high:g} seconds",
                           {"field": "$.bots_after", "min": low, "max": high})
    if join.bot_level not in LEVELS:
        raise BadField("bad_bot_level", f"bot levels are {', '.join(LEVELS)}", {"field": "$.bot_level"})
    if join.partner is not None:
        if ratings.individual(queue.pool):
            raise BadField("no_partners", "every player plays for himself in this way of playing",
                           {"field": "$.partner"})
        if join.partner == player_id:
            raise BadField("cannot_partner_yourself", "name another player as your partner", {"field": "$.partner"})


def _fingerprint(join: Join) -> bytes:
    return hashlib.sha256(msgspec.json.encode(msgspec.structs.replace(join, command_id=None), order="sorted")).digest()


async def join(runtime: Runtime, principal: Principal, request: Join) -> dict[str, Any]:
    """Queue the caller (see the module doc); his entry as it now stands."""
    me = principal.player_id
    queue = queue_of(request)
    _check(request, queue, me)
    entry_id = str(uuid.uuid5(NS, f"{me}:{request.command_id}") if request.command_id else uuid.uuid4())
    fingerprint = _fingerprint(request)
    pool = runtime.pool
    if await _answered(runtime, entry_id, fingerprint):
        return await entry(runtime, me, entry_id)
    until = await pool.fetchval("SELECT until FROM quickplay_cooldowns WHERE player_id = $1 AND until > now()", me)
    if until is not None:
        wait = max(1, round((until - dt.datetime.now(dt.timezone.utc)).total_seconds()))
        raise TooMany("quickplay_cooldown", f"you left a queue just now: join again in {wait} s",
                      {"retry_after": wait})
    if request.partner is not None and await runtime.players.get(request.partner) is None:
        raise NotFound("unknown_player", f"no player {request.partner!r}", {"player_id": request.partner})
    partners = [me] if request.partner is None else [me, request.partner]
    await seating.admit(runtime.store, partners, asker=me, named=partners[1:])
    delay = rules.penalty(await leaves(pool, me))
    rating = (await rating_queries.display_ratings(pool, queue.pool, [me])).get(me, 0.0)
    try:
        await _enter(runtime, me, entry_id, request, queue, fingerprint, rating, delay)
    except _Retried:
        await _answered(runtime, entry_id, fingerprint)
    return await entry(runtime, me, entry_id)


class _Retried(Exception):
    pass


async def _answered(runtime: Runtime, entry_id: str, fingerprint: bytes) -> bool:
    """Whether this join was already recorded (409 `command_conflict` when with another body)."""
    earlier = await runtime.pool.fetchval("SELECT request_hash FROM quickplay_entries WHERE entry_id = $1", entry_id)
    if earlier is None:
        return False
    if bytes(earlier) != fingerprint:
        raise Conflict("command_conflict", "this command_id was used for another request", {})
    return True


async def _enter(runtime: Runtime, me: str, entry_id: str, request: Join, queue: Queue, fingerprint: bytes,
                 rating: float, delay: float) -> None:
    """The entry written, merged with a waiting partner's: all of it or nothing."""
    async with runtime.pool.acquire() as conn, conn.transaction():
        mate = None
        if request.partner is not None:
            mate = await conn.fetchrow(
                "SELECT entry_id, rating FROM quickplay_entries WHERE status = 'partner' AND partner = $1 "
                "AND players = ARRAY[$2]::text[] AND queue = $3 FOR UPDATE", me, request.partner, queue.key)
        status = "merged" if mate else ("partner" if request.partner else "waiting")
        inserted = await conn.fetchval(
            "INSERT INTO quickplay_entries (entry_id, queue, game, options, pool, rated, clock, players, partner, "
            "rating, bots_after, bot_level, status, request_hash, ready_at, merged_into) VALUES ($1, $2, $3, $4, $5, $6, "
            "$7, $8, $9, $10, $11, $12, $13, $14, now() + make_interval(secs => $15), $16) "
            "ON CONFLICT (entry_id) DO NOTHING RETURNING entry_id",
            entry_id, queue.key, queue.game, _json(queue.options), queue.pool, queue.rated, _json(queue.clock),
            [me], request.partner, rating, request.bots_after, request.bot_level, status, fingerprint, delay,
            mate["entry_id"] if mate else None)
        if inserted is None:                          # the same command, retried at the same moment
            raise _Retried()
        live_entry = mate["entry_id"] if mate else entry_id
        try:
            async with conn.transaction():            # a savepoint: the refusal reads on
                await conn.execute("INSERT INTO quickplay_members (player_id, entry_id) VALUES ($1, $2)", me,
                                   live_entry)
        except asyncpg.UniqueViolationError:
            current = await conn.fetchval("SELECT entry_id FROM quickplay_members WHERE player_id = $1 AND live", me)
            raise Conflict("already_queued", "you are in a queue already: leave it first (DELETE /v1/quickplay)",
                           {"entry_id": current}) from None
        if mate:
            # Two partners are one entry: the first one's, with both players, matched from now on.
            await conn.execute(
                "UPDATE quickplay_entries SET players = players || $2::text, partner = NULL, status = 'waiting', "
                "rating = (rating + $3) / 2, ready_at = greatest(ready_at, now() + make_interval(secs => $4)), "
                "bots_after = coalesce(bots_after, $5) WHERE entry_id = $1", mate["entry_id"], me, rating, delay,
                request.bots_after)


async def leave(runtime: Runtime, principal: Principal) -> dict[str, Any]:
    """Leave my live entry (a partnership's leaves for both: the other is told it ended). The
    cooldown starts now."""
    me = principal.player_id
    async with runtime.pool.acquire() as conn, conn.transaction():
        row = await conn.fetchrow(
            "SELECT e.entry_id, e.status, e.players FROM quickplay_members m JOIN quickplay_entries e USING (entry_id) "
            "WHERE m.player_id = $1 AND m.live FOR UPDATE OF e", me)
        if row is None:
            raise NotFound("not_queued", "you are in no quick-play queue", {})
        if row["status"] == "seating":
            raise NotNow("quickplay_seating", "your table is being opened: it is too late to leave the queue",
                         {"entry_id": row["entry_id"]})
        await conn.execute("UPDATE quickplay_entries SET status = 'left', ended_at = now() WHERE entry_id = $1",
                           row["entry_id"])
        await conn.execute("UPDATE quickplay_members SET live = false WHERE entry_id = $1", row["entry_id"])
        await conn.execute(
            "INSERT INTO quickplay_cooldowns (player_id, until) VALUES ($1, now() + make_interval(secs => $2)) "
            "ON CONFLICT (player_id) DO UPDATE SET until = excluded.until", me, runtime.settings.quickplay_cooldown)
    others = [p for p in row["players"] if p != me]
    if others:
        from services.quickplay import notices
        await notices.expired(runtime.store, row["entry_id"], {p: "partner_left" for p in others})
    return await entry(runtime, me, row["entry_id"])


async def mine(runtime: Runtime, principal: Principal) -> dict[str, Any]:
    """My live entry, else my latest one (seated, expired, left); 404 `not_queued` for none."""
    entry_id = await runtime.pool.fetchval(
        "SELECT m.entry_id FROM quickplay_members m JOIN quickplay_entries e USING (entry_id) WHERE m.player_id = $1 "
        "ORDER BY m.live DESC, e.joined_at DESC LIMIT 1", principal.player_id)
    if entry_id is None:
        raise NotFound("not_queued", "you have joined no quick-play queue", {})
    return await entry(runtime, principal.player_id, entry_id)


async def entry(runtime: Runtime, player_id: str, entry_id: str) -> dict[str, Any]:
    """An entry as its player sees it: the merged half of a partnership shows the pair's entry."""
    row = await runtime.pool.fetchrow("SELECT *, extract(epoch FROM now()) AS now FROM quickplay_entries "
                                      "WHERE entry_id = $1", entry_id)
    if row["status"] == "merged":
        row = await runtime.pool.fetchrow("SELECT *, extract(epoch FROM now()) AS now FROM quickplay_entries "
                                          "WHERE entry_id = $1", row["merged_into"])
    seat = None
    if row["match_id"] is not None:
        seat = await runtime.pool.fetchval("SELECT seat FROM quickplay_seats WHERE player_id = $1 AND match_id = $2",
                                           player_id, row["match_id"])
    joined = row["joined_at"].timestamp()
    waited = max(0.0, float(row["now"]) - joined)
    width = rules.band(waited)
    return {"entry_id": row["entry_id"], "status": row["status"], "game": row["game"],
            "options": _decoded(row["options"]),
            "pool": row["pool"], "rated": row["rated"], "clock": _decoded(row["clock"]), "players": list(row["players"]),
            "partner": row["partner"], "rating": row["rating"], "bots_after": row["bots_after"],
            "bot_level": row["bot_level"], "casual_with_bots": row["bots_after"] is not None,
            "joined_at": row["joined_at"].isoformat(), "ready_at": row["ready_at"].isoformat(),
            "waited": round(waited, 3), "band": None if width == float("inf") else round(width, 3),
            "match_id": row["match_id"], "seat": seat}


async def leaves(pool: Any, player_id: str) -> int:
    """The quick-play tables this player left within the window: a seat a bot took over
    (`by: "takeover"`: he was away past the grace) at least once."""
    return int(await pool.fetchval(
        "SELECT count(*) FROM quickplay_seats s WHERE s.player_id = $1 "
        "AND s.seated_at > now() - make_interval(secs => $2) AND EXISTS (SELECT 1 FROM events e "
        "WHERE e.stream_id = 'match-' || s.match_id AND e.type = 'action_taken' AND e.data->>'by' = 'takeover' "
        "AND e.data->>'seat' = s.seat)", player_id, rules.LEAVE_WINDOW))


def _json(value: Any) -> bytes | None:
    return None if value is None else msgspec.json.encode(value)


def _decoded(value: Any) -> Any:
    return msgspec.json.decode(value) if isinstance(value, (str, bytes)) else value
