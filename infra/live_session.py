"""One live client's stream: a snapshot, the store's backlog after `after=`, then live events.

On top of the process's `Fanout`: `LiveSession.open` subscribes first and reads the store
second, so nothing committed in between can be missed; `messages` then skips whatever the
backlog already held (by version) and ends with `Dropped` when the client fell behind.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from domain import match as rules
from domain.cards import Seat
from infra.fanout import Client, Fanout, envelope
from infra.lru import Lru
from infra.presence import PRESENCE, Presence
from infra.projections.publisher import decode, event_message, fold, snapshot_message
from infra.store import PostgresEventStore
from infra.streams import match_stream


class Gone(LookupError):
    """No such match."""


class MatchStates:
    """A bounded cache of match states for snapshots: a hit costs one indexed read of the
    events appended since, instead of refolding the whole match for every new stream."""

    def __init__(self, store: PostgresEventStore, size: int = 2048) -> None:
        self.store, self.size = store, size
        self._states: Lru[str, rules.MatchState] = Lru(size)

    async def load(self, match_id: str) -> rules.MatchState | None:
        state = self._states.get(match_id) or rules.initial()
        recorded = await self.store.read_stream(match_stream(match_id), state.version)
        if not recorded and state.version == 0:
            return None
        state = fold(state, recorded)
        self.remember(match_id, state)
        return state

    def remember(self, match_id: str, state: rules.MatchState) -> None:
        self._states.put(match_id, state)


def seat_of(state: rules.MatchState, player_id: str | None) -> Seat | None:
    if player_id is not None:
        for seat, holder in state.seats.items():
            if holder is not None and holder.player_id == player_id:
                return Seat(seat)
    return None


class LiveSession:
    """One client's messages (bytes, one JSON document each), in version order: the snapshot
    at the current version V0, the store's events after `after` up to V0, then live ones.

    `open()` subscribes before it reads the store, and live messages at or below the last
    version sent are skipped, so the store and Redis overlap but never leave a hole; a hole
    in live versions (a lost or skipped publish) is filled from the store."""

    def __init__(self, fanout: Fanout, states: MatchStates, match_id: str, player_id: str | None,
                 after: int | None, presence: Presence = PRESENCE) -> None:
        self.fanout, self.states, self.presence = fanout, states, presence
        self.match_id, self.player_id, self.after = match_id, player_id, after
        self.seat: Seat | None = None
        self.client: Client | None = None
        self.last = 0
        self.finished = False
        self._first: list[bytes] = []
        self._present: str | None = None     # the seat this session counts as connected

    async def open(self) -> None:
        """Raises Gone for an unknown match."""
        state = await self.states.load(self.match_id)
        if state is None:
            raise Gone(self.match_id)
        self.seat = seat_of(state, self.player_id)
        self.client = await self.fanout.subscribe(self.match_id, self.seat)
        try:
            if self.after is not None and self.after < state.version:
                state, backlog = await self._replay(self.after)
            else:  # what committed between the first read and the subscription
                state, backlog = await self._replay(max(self.after or 0, state.version), state)
                backlog = backlog if self.after is not None else []
            self._first = [snapshot_message(rules.view(state, self.seat)), *backlog]
            self.last = state.version
            self.finished = state.status == "finished"
        except BaseException:
            await self.close()
            raise
        if self.seat is not None and state.status in ("open", "playing"):   # the seat's player is here
            self._present = str(self.seat)
            await self.presence.connected(self.states.store, self.match_id, [self._present])

    async def _replay(self, after: int, start: rules.MatchState | None = None
                      ) -> tuple[rules.MatchState, list[bytes]]:
        """The state at the store's version and the messages of the events after `after`,
        each redacted with the state folded up to it (from `start`, else from the start)."""
        state = rules.initial() if start is None else start
        recorded = await self.states.store.read_stream(match_stream(self.match_id), state.version)
        messages = []
        for r in recorded:
            event = decode(state, r)
            if r.stream_version > after:
                messages.append(event_message(r.stream_version, rules.redact(state, event, self.seat)))
            state = rules.evolve(state, event)
        if recorded:
            self.states.remember(self.match_id, state)
        return state, messages

    async def messages(self, keepalive: float | None = None) -> AsyncIterator[bytes | None]:
        """The messages in order, ending after `match_finished`; None is a keep-alive tick
        (nothing for `keepalive` seconds). Raises Dropped when the client fell behind."""
        assert self.client is not None, "open() first"
        first, self._first = self._first, []
        for message in first:
            yield message
        client = self.client
        while not self.finished:
            got = await client.get_or_tick(keepalive)
            if got is None:
                yield None
                continue
            version, data = got
            if version <= self.last:
                continue  # a duplicate (at-least-once delivery) or already sent from the store
            if version > self.last + 1:
                _, missing = await self._replay(self.last)
                for message in missing:
                    self._note(message)
                    yield message
                if version <= self.last:
                    continue
            self._note(data)
            yield data

    def _note(self, message: bytes) -> None:
        seen = envelope(message)
        self.last = seen.version or self.last
        if seen.event is not None and seen.event.type == "match_finished":
            self.finished = True

    async def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            await self.fanout.unsubscribe(client)
        seat, self._present = self._present, None
        if seat is not None:
            await self.presence.disconnected(self.states.store, self.match_id, [seat])
