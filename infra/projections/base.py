"""What a projection is: tables it owns, the event types it reads, and a batch handler.

A projection handles a whole batch at once, inside the transaction that also moves its
checkpoint. Batches matter for speed: a rebuild replays millions of events, and one SQL
round trip per event would cap it at a few thousand per second. `RowProjection` is the
common case, one row per key (usually per match) folded from its events, loaded and
written back with one statement each per batch.

Projections read payloads as current-version dicts (`EventRegistry.upcast`), not Structs,
so that read models need no domain classes and survive the domain's refactorings.

Tables are always named through `names` (live name -> actual name): a rebuild runs the
same code against shadow tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from infra.store.model import RecordedEvent
from infra.store.postgres import Connection

Change = tuple[RecordedEvent, dict[str, Any]]
"""An event the projection asked for, with its payload as a current-version dict."""

_json = msgspec.json.Encoder()
_json_decode = msgspec.json.Decoder()


class Projection:
    """Subclass and set `name`, `tables`, `event_types`; implement `create` and `apply`.

    Bump `version` whenever the tables or the meaning of the handler change: the
    projector then rebuilds the projection from the log before tailing it again.
    """

    name: ClassVar[str]
    version: ClassVar[int] = 1
    tables: ClassVar[tuple[str, ...]]
    event_types: ClassVar[frozenset[str] | None]  # None: every event, with its payload
    # True: `apply` also gets, of the events whose payload it does not read, each stream's last
    # one in the batch, with an empty payload. For a read model that stamps a stream's version
    # and time but reads the payloads of few types: most of the log is cards played, which
    # then cost it neither a read of their payload, nor a decode, nor a fold.
    sees_stream_heads: ClassVar[bool] = False
    # How long the projector may let this projection lag behind a wake-up, so that what
    # arrives meanwhile is applied in one batch (one transaction) rather than one each.
    # 0 for what someone waits on live (the publisher, bot turns); a read model that
    # clients poll can take a few tens of milliseconds, which under load divides its
    # per-wake cost (transaction, checkpoint, log read) by the actions in that window.
    catch_up_delay: ClassVar[float] = 0.0

    def create(self, names: Mapping[str, str]) -> list[str]:
        """The DDL creating this projection's tables under `names` (IF NOT EXISTS)."""
        raise NotImplementedError

    async def apply(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> None:
        """Apply a batch of changes, in log order, to the tables `names`."""
        raise NotImplementedError

    async def close(self) -> None:
        """Let go of what the projection opened (a Redis client, a thread): called once by
        whoever built it, when its projector stops or before it is built again."""


class RowProjection(Projection):
    """One row per key, folded from the events that concern it.

    `columns` maps column -> SQL type, key first; `jsonb` columns hold Python values
    (dicts, lists) in `fold`. `fold(row, event, data)` returns the new row, or None when
    the row should not (or no longer) exist. Per batch: one SELECT for the rows the batch
    touches, the folds in Python, one DELETE and one INSERT ... ON CONFLICT.
    """

    table: ClassVar[str]
    columns: ClassVar[dict[str, str]]
    indexes: ClassVar[tuple[str, ...]] = ()
    catch_up_delay: ClassVar[float] = 0.05

    @property
    def tables(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.table,)

    @property
    def key(self) -> str:
        return next(iter(self.columns))

    def key_of(self, event: RecordedEvent, data: dict[str, Any]) -> str:
        return event.stream_id

    def fold(self, row: dict[str, Any] | None, event: RecordedEvent, data: dict[str, Any]) -> dict[str, Any] | None:
        raise NotImplementedError

    def create(self, names: Mapping[str, str]) -> list[str]:
        table = names[self.table]
        cols = ", ".join(f"{col} {sqltype}" for col, sqltype in self.columns.items())
        ddl = [f"CREATE TABLE IF NOT EXISTS {table} ({cols}, PRIMARY KEY ({self.key}))"]
        ddl += [f"CREATE INDEX IF NOT EXISTS {table}_{index.replace(', ', '_')}_idx ON {table} ({index})"
                for index in self.indexes]
        return ddl

    async def apply(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> None:
        table, key, cols = names[self.table], self.key, list(self.columns)
        json_cols = {c for c, t in self.columns.items() if t.split()[0].lower() == "jsonb"}
        keys = list(dict.fromkeys(self.key_of(e, d) for e, d in changes))
        loaded = await conn.fetch(f"SELECT {', '.join(cols)} FROM {table} WHERE {key} = ANY($1::text[])", keys)
        before: dict[str, dict[str, Any]] = {}
        for record in loaded:
            row = dict(zip(cols, record))
            for col in json_cols:
                if row[col] is not None:
                    row[col] = _json_decode.decode(row[col])
            before[row[key]] = row
        state: dict[str, dict[str, Any] | None] = dict(before)
        for event, data in changes:
            k = self.key_of(event, data)
            state[k] = self.fold(state.get(k), event, data)
        gone = [k for k, row in state.items() if row is None and k in before]
        kept = [row for k, row in state.items() if row is not None and row != before.get(k)]
        if gone:
            await conn.execute(f"DELETE FROM {table} WHERE {key} = ANY($1::text[])", gone)
        if kept:
            arrays = [
                [_json.encode(r[c]) if c in json_cols and r[c] is not None else r[c] for r in kept]
                for c in cols
            ]
            casts = ", ".join(f"${i}::{self.columns[c].split()[0]}[]" for i, c in enumerate(cols, 1))
            updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in cols[1:])
            await conn.execute(
                f"INSERT INTO {table} ({', '.join(cols)}) SELECT * FROM unnest({casts})"
                f" ON CONFLICT ({key}) DO UPDATE SET {updates}",
                *arrays,
            )
