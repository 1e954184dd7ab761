"""Presence: one process's live connections per seat; the first opened and the last closed
are recorded in the match's `presence-` stream (never the match stream)."""

from __future__ import annotations

import msgspec

from infra.presence import SEAT_CONNECTED, SEAT_DISCONNECTED, Presence, away


class Store:
    def __init__(self) -> None:
        self.streams: dict[str, list] = {}

    async def read_stream(self, stream: str, after: int = 0) -> list:
        return self.streams.get(stream, [])[after:]

    async def append(self, stream: str, expected: int, events: list, command_id=None) -> None:
        assert len(self.streams.get(stream, [])) == expected
        self.streams.setdefault(stream, []).extend(
            msgspec.structs.replace(e, metadata=None) for e in events)


async def test_the_first_connection_and_the_last_disconnection_are_recorded() -> None:
    store, presence = Store(), Presence()
    await presence.connected(store, "m1", ["N"])
    await presence.connected(store, "m1", ["N"])         # a second tab
    await presence.disconnected(store, "m1", ["N"])
    await presence.flush()
    assert await away(store, "m1") == {}
    await presence.disconnected(store, "m1", ["N"])
    await presence.flush()
    assert list(await away(store, "m1")) == ["N"]
    assert [e.type for e in store.streams["presence-m1"]] == [SEAT_CONNECTED, SEAT_DISCONNECTED]
    assert "match-m1" not in store.streams
    await presence.connected(store, "m1", ["N"])
    await presence.flush()
    assert await away(store, "m1") == {}
