"""Robot duplicate, pure: one round of N boards open for a window; each entrant plays them
alone at South with three bots, whenever he likes before the window closes; then each board
ranks him against everyone who played it.

Why one round of the tournament stream: the boards, their commitment, the seal on every
table until the round closes, the account stream's notices and the rating fold's hold all
follow a tournament round already; the window's close is the round's close. Why South with
bots around: every entrant then holds the same cards against the same kind of opponents, so
the comparison is between the players alone (Funbridge's and BBO's robot duplicate).

The house table (`HOUSE`, four bots of the event's level) plays the same boards as soon as
the event opens; its result is shown beside the field's on every traveller and in no one's
ranking. A table still playing when the window closes keeps the boards it finished; the
others are not his (scored as not played), which Neuberg (`scoring` `neuberg`, the default)
evens out board by board.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from domain.game import verify
from domain.tournaments.events import (Create, CloseWindow, Enter, EntryRegistered, ResultRecorded, RoundClosed,
                                       RoundPaired, Table, TableAdded, TournamentClosed)

HOUSE = "house"                    # the bots' own table's entry (never ranked)
SEAT = "S"                         # where every entrant sits
MAX_WINDOW = 7 * 86_400            # seconds: a window is at most a week
MAX_BOARDS = 36
MAX_ENTRIES = 10_000


def when(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def check_create(command: Create) -> None:
    verify(not command.individual, "bad_format", "robot duplicate is for partnership ways of playing")
    verify(command.closes_at is not None, "bad_window", "a robot duplicate event needs `closes_at`")
    deals = int(command.options.get("deals") or 0)
    verify(1 <= deals <= MAX_BOARDS, "bad_option", f"a robot duplicate event is 1..{MAX_BOARDS} boards (`deals`)")


# Four bots of the event's level (`bots.level`): an entry with no players is all bots.
HOUSE_TABLE = Table(table=1, home=HOUSE, away="", seats={s: HOUSE for s in "NESW"})


def pair(boards: list[int]) -> list[Any]:
    """The one round: the house table now, the entrants' tables as they enter."""
    return [RoundPaired(round=1, tables=[HOUSE_TABLE], byes=[], boards=boards)]


def open_now(state: Any, now: str) -> bool:
    return state.closes_at is not None and when(now) < when(state.closes_at)


def enter(state: Any, command: Enter) -> list[Any]:
    verify(state.format == "robot", "bad_format", "only a robot duplicate event is entered this way")
    verify(state.status == "running" and state.current is not None and not state.current.closed,
           "registration_closed", "the event is not open")
    verify(open_now(state, command.now), "window_closed", "the event's window has closed", closes_at=state.closes_at)
    verify(len(command.players) == 1 and not command.players[0].startswith("bot:"), "bad_entry",
           "a robot duplicate entry is one person")
    verify(command.entry_id not in state.entries and command.entry_id != HOUSE, "entry_exists",
           "this entry is already registered")
    verify(not any(command.players[0] in players for players in state.entries.values()), "already_registered",
           "you have already entered this event", players=list(command.players))
    verify(len(state.entries) < MAX_ENTRIES, "event_full", f"an event takes at most {MAX_ENTRIES} entries",
           max=MAX_ENTRIES)
    table = Table(table=len(state.current.tables) + 1, home=command.entry_id, away="", seats={SEAT: command.entry_id})
    return [EntryRegistered(entry_id=command.entry_id, players=list(command.players), name=command.name),
            TableAdded(round=1, table=table)]


def close(state: Any, command: CloseWindow) -> list[Any]:
    rnd = state.current
    verify(state.format == "robot" and rnd is not None and not rnd.closed, "not_running", "nothing to close")
    verify(not open_now(state, command.now), "window_open", "the window has not closed yet",
           closes_at=state.closes_at)
    events: list[Any] = []
    for table in rnd.tables:
        if table.table in rnd.results:
            continue
        boards = {str(b): s for b, s in command.partial.get(table.table, {}).items()}
        score = {side: sum(s.get(side, 0) for s in boards.values()) for side in ("NS", "EW")}
        events.append(ResultRecorded(round=1, table=table.table, match_id=rnd.matches.get(table.table, ""),
                                     score=score, boards=boards))
    seeds = {str(b): command.seeds[str(b)] for b in rnd.boards if str(b) in command.seeds}
    return [*events, RoundClosed(round=1, seeds=seeds), TournamentClosed()]


def ranked(entries: list[str]) -> list[str]:
    return [e for e in entries if e != HOUSE]
