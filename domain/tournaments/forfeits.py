"""No-show forfeits, pure: whether a table's grace has run out, and the forfeit result.

Why a forfeit at all: a silent human's turns are played by the clock's bot, so a table
always finishes — but an entry that never came should not collect the points its bot
partner and the clock earn for it, and its opponents should not wait out a whole match.

The definition (docs/tournaments.md, "No-show forfeits"): an entry is a **no-show** at its
table when, `no_show_grace` seconds or more after the table was opened (`table_opened`'s
`opened_at`), the table has no result and none of the entry's human players has acted at it
in person (an `action_taken` made by the player, not by a bot for him). An entry of bots only
is never a no-show. One absent entry forfeits (the other wins); both absent is a double
forfeit (neither scores). The service finds who has acted (that is I/O) and brings `now`;
the rules here check the rest, so a stale or early request is refused, never recorded.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from domain.game import verify
from domain.tournaments.events import BOTH, Forfeit, ResultRecorded


def instant(text: str) -> dt.datetime:
    moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.timezone.utc)


def due(opened_at: str | None, grace: int, now: dt.datetime) -> bool:
    """Has the grace of a table opened at `opened_at` run out at `now`? Never without a grace,
    nor for a table opened before opening times were recorded."""
    return bool(grace) and opened_at is not None and now >= instant(opened_at) + dt.timedelta(seconds=grace)


def result(state: Any, command: Forfeit) -> ResultRecorded:
    """The forfeit result of `command`'s table (RuleViolation when it is not one now).
    Score 0-0; `boards` names the round's boards with no score (duplicate scores them apart)."""
    rnd = state.current
    verify(rnd is not None and rnd.number == command.round and rnd.matches.get(command.table) == command.match_id,
           "unknown_table", "this match is not a table of the current round")
    verify(command.table not in rnd.results, "result_recorded", "this table's result is already recorded")
    verify(state.no_show_grace > 0, "no_forfeits", "this tournament has no no-show forfeits")
    table = next(t for t in rnd.tables if t.table == command.table)
    verify(not table.seats, "bad_forfeit", "an individual table has no forfeits (yet): the clock plays for the absent")
    absent = set(command.absent)
    verify(bool(absent) and absent <= {table.home, table.away}, "bad_forfeit",
           "only an entry of this table can forfeit it", absent=sorted(absent))
    verify(due(rnd.opened.get(command.table), state.no_show_grace, instant(command.now)), "grace_running",
           "this table's no-show grace has not run out", table=command.table)
    forfeit = BOTH if len(absent) == 2 else next(iter(absent))
    return ResultRecorded(round=command.round, table=command.table, match_id=command.match_id,
                          score={"NS": 0, "EW": 0}, boards={str(b): {} for b in rnd.boards}, forfeit=forfeit)
