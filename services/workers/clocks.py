"""Per-match turn clocks: a time budget per decision, one for bidding (every decision
before the card play: auction, trumps, discards, the kitty) and one for the play.

A clock is not a rule of the game, so it is not a game option (the games refuse unknown
options) and it does not live in the match stream, whose versions players act on: it is
a `clock_set` event in the match's own `clock-<match id>` stream, written once after the
match is created (`set_clock`), read by the `bot_turns` projection. A match without one
never has anything played for a human. `parse_clock` validates what an API body's
`"clock": {"bid": 30, "play": 15}` carries.
"""

from __future__ import annotations

import uuid
from typing import Any, Mapping

import msgspec

from domain.game import RuleViolation
from infra.projections.bot_turns import CLOCK_PREFIX, CLOCK_SET
from infra.store import NewEvent, PostgresEventStore

MAX_SECONDS = 24 * 3600


def parse_clock(raw: Any) -> dict[str, float]:
    """{"bid": seconds, "play": seconds}; each a number > 0 (a missing one takes the other)."""
    if not isinstance(raw, Mapping) or not raw or set(raw) - {"bid", "play"}:
        raise RuleViolation("bad_option", "clock is {\"bid\": seconds, \"play\": seconds}", {"option": "clock"})
    out = {}
    for key in ("bid", "play"):
        value = raw.get(key, raw.get("play" if key == "bid" else "bid"))
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_SECONDS:
            raise RuleViolation("bad_option", f"clock.{key} must be seconds in (0, {MAX_SECONDS}]",
                                {"option": f"clock.{key}"})
        out[key] = float(value)
    return out


async def set_clock(store: PostgresEventStore, match_id: str, clock: Mapping[str, Any]) -> dict[str, float]:
    """Give a match its clock (once; a second call with the same clock is a no-op)."""
    parsed = parse_clock(clock)
    stream = f"{CLOCK_PREFIX}{match_id}"
    await store.append(stream, 0, [NewEvent(type=CLOCK_SET, data=msgspec.json.encode(parsed))],
                       command_id=uuid.uuid5(uuid.NAMESPACE_URL, f"atout:clock:{match_id}"))
    return parsed
