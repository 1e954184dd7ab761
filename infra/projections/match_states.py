"""Matches folded from the store, kept warm for projections that must see a match as it
stood at one version (the publisher redacts each event with the state before it; the bot
reactor asks whose turn it is after it). One bounded LRU, brought forward from the store on
a miss, refolded from the start when it is already past the version asked (a rebuild or a
replayed batch). Finished and abandoned matches leave it: they will not move again."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain import match as rules
from infra.lru import Lru
from infra.store.model import RecordedEvent
from infra.store.postgres import READ_STREAM, Connection

Fold = Callable[[rules.MatchState, Sequence[RecordedEvent]], rules.MatchState]


class MatchStates:
    def __init__(self, fold: Fold, stream_prefix: str, size: int = 4096) -> None:
        self._fold, self._prefix, self.size = fold, stream_prefix, size
        self._states: Lru[str, rules.MatchState] = Lru(size)

    async def at(self, conn: Connection, match_id: str, version: int | None) -> rules.MatchState:
        """The match folded to `version` (None: as far as the store goes)."""
        state = self._states.get(match_id)
        if state is None or (version is not None and state.version > version):
            state = rules.initial()
        upper = 2**31 if version is None else version
        if state.version < upper:
            rows = await conn.fetch(READ_STREAM, self._prefix + match_id, state.version, upper)
            state = self._fold(state, [RecordedEvent(*row) for row in rows])
        return state

    def remember(self, match_id: str, state: rules.MatchState) -> None:
        if state.status in ("finished", "abandoned"):
            self._states.pop(match_id)
            return
        self._states.put(match_id, state)

    def forget(self, match_id: str) -> None:
        self._states.pop(match_id)
