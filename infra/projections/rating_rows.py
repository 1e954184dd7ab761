"""The ratings tables' rows: their columns, how a row is read and written, and a match's tally.

The fold (`infra.projections.rating_fold`) decides what changes; this module is how those
changes meet the tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain import ratings as rules
from infra.store.postgres import Connection

_json = msgspec.json.Encoder()
_decode = msgspec.json.Decoder()

MATCH_COLS = ("match_id", "pool", "rated", "seats", "away", "status", "seq", "finished_at", "result", "weight",
              "foursome", "tally", "held", "private")
JSON_COLS = ("seats", "away", "result", "tally")
TYPES = ("text", "text", "boolean", "jsonb", "jsonb", "text", "bigint", "timestamptz", "jsonb", "double precision",
         "text", "jsonb", "text", "boolean")


def held_key(tournament_id: str, round_number: int) -> str:
    """A row's `held`: the tournament round whose closing makes its result public."""
    return f"{tournament_id}/{round_number}"


COLUMNS = ", ".join(MATCH_COLS)


def row_of(record: Any) -> dict[str, Any]:
    """A `rating_matches` row as the fold works on it (its JSON columns decoded)."""
    row = dict(zip(MATCH_COLS, record))
    for col in JSON_COLS:
        row[col] = _decode.decode(row[col]) if row[col] is not None else None
    return row


def tally_of(tally: dict[str, Any], summary: Mapping[str, Any]) -> dict[str, Any]:
    """A match's running tally for the stats, after one more finished deal's `summary`."""
    contract = summary.get("contract") or {}
    taken, made, points = dict(tally.get("taken", {})), dict(tally.get("made", {})), dict(tally.get("points", {}))
    seat = contract.get("seat")
    if seat:
        taken[seat] = taken.get(seat, 0) + 1
        if summary.get("result") == "made":
            made[seat] = made.get(seat, 0) + 1
    for side, value in (summary.get("score") or {}).items():
        points[side] = points.get(side, 0) + int(value)
    return {"deals": tally.get("deals", 0) + 1, "taken": taken, "made": made, "points": points}


async def write(conn: Connection, tables: tuple[str, str, str], rows: list[dict[str, Any]],
                players: list[tuple[tuple[str, str], dict[str, Any]]], history: list[tuple[Any, ...]]) -> None:
    """Each table's changes in one statement: match rows upserted, players' ratings upserted,
    history rows appended (a re-rating deleted the ones it replaces first)."""
    m, r, h = tables
    if rows:
        arrays = [[_json.encode(row[c]) if c in JSON_COLS and row[c] is not None else row.get(c) for row in rows]
                  for c in MATCH_COLS]
        casts = ", ".join(f"${i}::{t}[]" for i, t in enumerate(TYPES, 1))
        await conn.execute(
            f"INSERT INTO {m} ({COLUMNS}) SELECT * FROM unnest({casts}) ON CONFLICT (match_id)"
            f" DO UPDATE SET {', '.join(f'{c} = EXCLUDED.{c}' for c in MATCH_COLS[1:])}", *arrays)
    if players:
        await conn.execute(
            f"INSERT INTO {r} (pool, player_id, mu, sigma, rating, games, wins, seq) SELECT * FROM unnest("
            "$1::text[], $2::text[], $3::float8[], $4::float8[], $5::float8[], $6::int[], $7::int[], $8::bigint[])"
            " ON CONFLICT (pool, player_id) DO UPDATE SET mu = EXCLUDED.mu, sigma = EXCLUDED.sigma,"
            " rating = EXCLUDED.rating, games = EXCLUDED.games, wins = EXCLUDED.wins, seq = EXCLUDED.seq",
            [k[0] for k, _ in players], [k[1] for k, _ in players], [v["mu"] for _, v in players],
            [v["sigma"] for _, v in players], [rules.display(v["mu"], v["sigma"]) for _, v in players],
            [v["games"] for _, v in players], [v["wins"] for _, v in players], [v.get("seq", 0) for _, v in players])
    if history:
        await conn.execute(
            f"INSERT INTO {h} (pool, player_id, seq, match_id, at, mu, sigma, rating, games, wins, weight)"
            " SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::timestamptz[],"
            " $6::float8[], $7::float8[], $8::float8[], $9::int[], $10::int[], $11::float8[])"
            " ON CONFLICT (pool, player_id, seq) DO NOTHING", *[list(c) for c in zip(*history)])
