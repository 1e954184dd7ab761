"""Folding a tournament's stream at once: the same state as `evolve` event by event, without
copying the growing maps once an event.

Why: `evolve` keeps every state immutable, so each entry, table, opening and result copies the
maps it grows — harmless for a Swiss of forty, quadratic for a robot duplicate event whose
thousands of entrants each add four events. Here a run of such events is gathered and applied
in one copy; any other event goes through `evolve` itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from domain.tournaments.aggregate import State, evolve
from domain.tournaments.events import EntryRegistered, ResultRecorded, TableAdded, TableOpened

GROWING = (EntryRegistered, TableAdded, TableOpened, ResultRecorded)


class _Run:
    """What a run of growing events adds, applied to the state in one copy."""

    def __init__(self) -> None:
        self.count = 0
        self.entries: dict[str, list[str]] = {}
        self.names: dict[str, str] = {}
        self.tables: list[Any] = []
        self.matches: dict[int, str] = {}
        self.opened: dict[int, str] = {}
        self.results: dict[int, ResultRecorded] = {}

    def add(self, event: Any) -> None:
        self.count += 1
        if isinstance(event, EntryRegistered):
            self.entries[event.entry_id] = list(event.players)
            self.names[event.entry_id] = event.name or event.entry_id
        elif isinstance(event, TableAdded):
            self.tables.append(event.table)
        elif isinstance(event, TableOpened):
            self.matches[event.table] = event.match_id
            if event.opened_at:
                self.opened[event.table] = event.opened_at
        else:
            self.results[event.table] = event

    def apply(self, state: State) -> State:
        if not self.count:
            return state
        s = msgspec.structs.replace
        state = s(state, version=state.version + self.count,
                  entries={**state.entries, **self.entries} if self.entries else state.entries,
                  names={**state.names, **self.names} if self.names else state.names)
        rnd = state.current
        if rnd is not None and (self.tables or self.matches or self.results):
            rnd = s(rnd, tables=[*rnd.tables, *self.tables], matches={**rnd.matches, **self.matches},
                    opened={**rnd.opened, **self.opened}, results={**rnd.results, **self.results})
            state = s(state, played=[*state.played[:-1], rnd])
        return state


def fold(state: State, events: Iterable[Any]) -> State:
    run = _Run()
    for event in events:
        # A round's growth needs its round; an entry needs nothing. Without a round (a stream
        # that never paired), the event goes to `evolve`, which ignores what it cannot place.
        if isinstance(event, GROWING) and (isinstance(event, EntryRegistered) or state.current is not None):
            run.add(event)
            continue
        state = evolve(run.apply(state), event)
        run = _Run()
    return run.apply(state)
