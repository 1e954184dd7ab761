"""`account_events`: each player's own notifications, numbered by a sequence of his own.

The account stream (`GET /v1/stream/me`, `WS /v1/stream/me/ws`, docs/live.md) is fed from
here. The projection reads the log as every read model does (committed, in log order,
exactly once per checkpoint) and hands each batch to its *producers*: one per feature that
has something to tell a player (a match's turns and seats, a tournament's rounds, a
dispute's ruling; `infra.projections.account_producers`). A producer turns events into
`Notice`s (player, type, body) and may keep tables of its own (who sits where), which also
give the stream's first message its part (`snapshot`). The projection numbers each
player's notices 1, 2, 3, … in log order (`account_heads` holds the last number), keeps
them in `account_events` for `retention` seconds, and publishes each one on Redis
(`<prefix>:account:<player id>`) for the API processes' live streams.

Numbers are a function of the log alone, so a batch read again after a crash, or a rebuild,
gives every notice the number it had: delivery is at least once (published before the
checkpoint commits, like the publisher's) and clients dedupe by `version`. Notices older
than `retention` when projected are numbered but not stored (a rebuild over an old log).

A notice is a player's own and says no more than his seat's view would: never a card, never
another table's result before its round closed (producers only read public match-layer
events and tournament events, and address each notice to the players it is about).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import msgspec
import redis.asyncio as aioredis

from infra.projections.base import Change, Projection
from infra.store.model import RecordedEvent
from infra.store.postgres import Connection

log = logging.getLogger(__name__)

RETENTION = 86_400.0     # seconds a notice is kept for after= (ATOUT_ACCOUNT_RETENTION)
BACKLOG_LIMIT = 1000     # notices one resume may replay; more is a resync
PRUNE_EVERY = 60.0       # seconds between two deletions of expired notices
PUBLISH_ALL = "for i = 1, #ARGV, 2 do redis.call('PUBLISH', ARGV[i], ARGV[i + 1]) end return #ARGV / 2"

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


class Notice(NamedTuple):
    """One thing to tell one player, because of `source` (which orders and dates it)."""

    player_id: str
    type: str
    body: dict[str, Any]
    source: RecordedEvent


class AccountProducer:
    """What a feature adds to the account stream. Set `name` and `event_types`; implement
    `notices` (and `tables`/`create` for what it keeps, `snapshot` for the first message).
    Declared in the feature's `Feature(account_events=…)` (services/bootstrap.py)."""

    name: str
    event_types: frozenset[str]
    tables: tuple[str, ...] = ()

    def create(self, names: Mapping[str, str]) -> list[str]:
        return []

    async def notices(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> list[Notice]:
        raise NotImplementedError

    async def snapshot(self, conn: Connection, player_id: str, names: Mapping[str, str]) -> dict[str, Any]:
        """This producer's part of the stream's first message (keys of its own)."""
        return {}


def account_channel(prefix: str, player_id: str) -> str:
    return f"{prefix}:account:{player_id}"


def event_message(seq: int, kind: str, body: Mapping[str, Any], at: dt.datetime) -> bytes:
    return _encode({"type": "event", "version": seq, "event": {"type": kind, **body, "at": at.isoformat()}})


class AccountEvents(Projection):
    """See the module docstring. `producers` come from the features (services/bootstrap.py)."""

    name = "account_events"
    version = 3                    # 2: the ratings feature's rating_changed (its producer's tables); 3: held results

    def __init__(self, producers: Sequence[AccountProducer], *, redis_url: str | None = None, prefix: str = "atout",
                 client: aioredis.Redis | None = None, retention: float = RETENTION) -> None:
        self.producers = list(producers)
        self.redis_url, self.prefix, self._client = redis_url, prefix, client
        self.retention = dt.timedelta(seconds=retention)
        self._script: Any = None
        self._pruned: dt.datetime | None = None
        self.event_types = frozenset().union(*(p.event_types for p in self.producers))
        self.tables = ("account_events", "account_heads", *(t for p in self.producers for t in p.tables))
        self.published = 0

    def create(self, names: Mapping[str, str]) -> list[str]:
        events, heads = names["account_events"], names["account_heads"]
        return [f"""CREATE TABLE IF NOT EXISTS {events} (
                    player_id text NOT NULL, seq bigint NOT NULL, type text NOT NULL, body jsonb NOT NULL,
                    at timestamptz NOT NULL, PRIMARY KEY (player_id, seq))""",
                f"CREATE INDEX IF NOT EXISTS {events}_at_idx ON {events} (at)",
                f"CREATE TABLE IF NOT EXISTS {heads} (player_id text PRIMARY KEY, seq bigint NOT NULL)",
                *(ddl for p in self.producers for ddl in p.create(names))]

    async def apply(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> None:
        notices: list[Notice] = []
        for producer in self.producers:
            mine = [c for c in changes if c[0].type in producer.event_types]
            if mine:
                notices += await producer.notices(conn, mine, names)
        if notices:
            await self._store(conn, sorted(notices, key=lambda n: (n.source.tx_id, n.source.position)), names)
        await self._prune(conn, names)

    async def _store(self, conn: Connection, notices: list[Notice], names: Mapping[str, str]) -> None:
        events, heads = names["account_events"], names["account_heads"]
        players = list(dict.fromkeys(n.player_id for n in notices))
        seqs = {r["player_id"]: r["seq"] for r in await conn.fetch(
            f"SELECT player_id, seq FROM {heads} WHERE player_id = ANY($1::text[])", players)}
        oldest = dt.datetime.now(dt.timezone.utc) - self.retention
        rows: list[tuple[str, int, str, bytes, dt.datetime]] = []
        out: list[str | bytes] = []
        for notice in notices:
            seq = seqs[notice.player_id] = seqs.get(notice.player_id, 0) + 1
            at = notice.source.recorded_at
            if at < oldest:
                continue   # numbered, so numbers stay what they were, but past keeping
            rows.append((notice.player_id, seq, notice.type, _encode(notice.body), at))
            out += (account_channel(self.prefix, notice.player_id), event_message(seq, notice.type, notice.body, at))
        await conn.execute(
            f"INSERT INTO {heads} (player_id, seq) SELECT * FROM unnest($1::text[], $2::bigint[]) "
            f"ON CONFLICT (player_id) DO UPDATE SET seq = EXCLUDED.seq", list(seqs), list(seqs.values()))
        if rows:
            await conn.execute(
                f"INSERT INTO {events} (player_id, seq, type, body, at) SELECT * FROM "
                f"unnest($1::text[], $2::bigint[], $3::text[], $4::jsonb[], $5::timestamptz[]) "
                f"ON CONFLICT (player_id, seq) DO NOTHING", *(list(col) for col in zip(*rows)))
        if out:
            await self._publish(out)

    async def _publish(self, out: list[str | bytes]) -> None:
        if self._client is None and not self.redis_url:
            return   # no broker: live streams cannot run either
        try:
            if self._client is None:
                self._client = aioredis.from_url(self.redis_url)
            if self._script is None:
                self._script = self._client.register_script(PUBLISH_ALL)
            for start in range(0, len(out), 2000):
                await self._script(args=out[start:start + 2000])
            self.published += len(out) // 2
        except (ConnectionError, OSError, aioredis.RedisError) as exc:
            # Stored all the same: a stream that missed it fills the hole from the table.
            log.warning("account events: publish failed (%s)", exc)

    async def _prune(self, conn: Connection, names: Mapping[str, str]) -> None:
        now = dt.datetime.now(dt.timezone.utc)
        if self._pruned is not None and (now - self._pruned).total_seconds() < min(PRUNE_EVERY, self.retention.total_seconds()):
            return
        self._pruned = now
        await conn.execute(f"DELETE FROM {names['account_events']} WHERE at < $1", now - self.retention)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


# --- reads (the API's account streams) ------------------------------------------------------------

LIVE = {"account_events": "account_events", "account_heads": "account_heads"}


class Expired(LookupError):
    """`after` is no longer (or never was) in the kept notices: the client must start over."""


async def head(conn: Connection, player_id: str) -> int:
    """The player's last number (0 before any, or before the projector created its tables:
    checked first, so the caller's transaction is never aborted by a missing table)."""
    if await conn.fetchval("SELECT to_regclass('account_heads')") is None:
        return 0
    return int(await conn.fetchval("SELECT seq FROM account_heads WHERE player_id = $1", player_id) or 0)


async def since(conn: Connection, player_id: str, after: int, upto: int) -> list[bytes]:
    """The messages of `player_id`'s notices `after < seq <= upto`; Expired when one of
    them is no longer kept, or `after` is past `upto`, or there are more than BACKLOG_LIMIT."""
    if after > upto or upto - after > BACKLOG_LIMIT:
        raise Expired(after)
    if after == upto:
        return []
    rows = await conn.fetch("SELECT seq, type, body, at FROM account_events WHERE player_id = $1 AND seq > $2 "
                            "AND seq <= $3 ORDER BY seq", player_id, after, upto)
    if len(rows) != upto - after:
        raise Expired(after)
    return [event_message(r["seq"], r["type"], _decode(r["body"]), r["at"]) for r in rows]
