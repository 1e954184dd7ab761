"""What the quick-play routes answer, as Structs the OpenAPI document shows field by field."""

from __future__ import annotations

from typing import Literal

import msgspec

OptionValue = str | int | bool | None
Status = Literal["partner", "waiting", "seating", "seated", "left", "expired"]


class QuickplayEntryOut(msgspec.Struct):
    """A quick-play entry as its player sees it. `band`: the rating band's half-width now (null:
    any rating); `waited` in seconds; `ready_at`: not matched before (a penalty for tables left
    early); `casual_with_bots`: bots may fill, so the table would be casual; `match_id` and
    `seat` once seated."""

    entry_id: str
    status: Status
    game: str
    options: dict[str, OptionValue]
    pool: str
    rated: bool
    clock: dict[str, float] | None
    players: list[str]
    partner: str | None
    rating: float
    bots_after: float | None
    bot_level: str
    casual_with_bots: bool
    joined_at: str
    ready_at: str
    waited: float
    band: float | None
    match_id: str | None
    seat: Literal["N", "E", "S", "W"] | None


class QuickplayQueueOut(msgspec.Struct):
    game: str
    options: dict[str, OptionValue]
    pool: str
    rated: bool
    clock: dict[str, float] | None
    waiting: int


class QuickplayTablesOut(msgspec.Struct):
    pool: str
    playing: int


class QuickplayStatsOut(msgspec.Struct):
    """Counts, never names (docs/quickplay.md, "Who is playing")."""

    online: int
    queues: list[QuickplayQueueOut]
    tables: list[QuickplayTablesOut]
    at: str
    cached_for: int
