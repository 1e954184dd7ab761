"""What quick play tells its players, as events in each entry's own stream
(`quickplay-<entry id>`): the account stream's producer (`infra.projections.quickplay_notices`)
turns them into `quickplay_seated` and `quickplay_expired` notices. Each append carries a
command id derived from what it reports, so a tick retried after a crash tells nobody twice.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping

import msgspec

from infra import streams
from infra.store import ConcurrencyError, NewEvent, PostgresEventStore

SEATED, EXPIRED = "quickplay_seated", "quickplay_expired"
NS = uuid.UUID("b6a0e1d4-2f7c-4c55-8a3e-91d2c4e7f0a6")


async def _append(store: PostgresEventStore, entry_id: str, kind: str, data: Mapping[str, object], key: str) -> None:
    stream = streams.quickplay_stream(entry_id)
    command = uuid.uuid5(NS, f"{entry_id}:{key}")
    for _ in range(5):
        version = len(await store.read_stream(stream, 0))
        try:                                         # a retry returns the first answer: told once
            await store.append(stream, version, [NewEvent(type=kind, data=msgspec.json.encode(dict(data)))],
                               command_id=command, request_hash=command.bytes)
            return
        except ConcurrencyError:
            continue
    raise RuntimeError(f"could not record {kind} for {entry_id}")


async def seated(store: PostgresEventStore, entry_id: str, *, table_id: str, match_id: str, game: str, pool: str,
                 rated: bool, bots: bool, seats: Mapping[str, str]) -> None:
    """`seats`: this entry's players and their seats only."""
    await _append(store, entry_id, SEATED, {"entry_id": entry_id, "table_id": table_id, "match_id": match_id,
                                            "game": game, "pool": pool, "rated": rated, "bots": bots,
                                            "seats": dict(seats)}, f"seated:{table_id}")


async def expired(store: PostgresEventStore, entry_id: str, reasons: Mapping[str, str]) -> None:
    """`reasons`: each player told, and why his entry ended (`timeout`, `banned` to the banned
    player only, `partner_left`, `partner_unavailable`)."""
    await _append(store, entry_id, EXPIRED, {"entry_id": entry_id, "reasons": dict(reasons)}, "expired")
