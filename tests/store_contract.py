"""The event store contract: what any adapter must do (`infra.store.protocol.EventStore`).

`StoreContract` only uses the store's public API and a `store` fixture; each adapter runs the
same suite by subclassing it with its own fixture: Postgres in tests/contract/test_store.py,
the tests' in-memory adapter in tests/unit/test_memory_store.py. Streams get fresh random
ids so the tests share one database with the rest of the session.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest

from infra.store import LOG_START, CommandConflictError, ConcurrencyError, NewEvent


def stream() -> str:
    return f"test-{uuid.uuid4()}"


def ev(n: int, kind: str = "thing_happened") -> NewEvent:
    return NewEvent(kind, b'{"n": %d}' % n)


async def read_whole_log(store, after=LOG_START, batch=500):
    seen = []
    while page := await store.read_log(after, batch):
        seen += page
        after = page[-1].log_position
    return seen


class StoreContract:
    """Behaviour every event store must have.

    `read_log` shows only final events; `settle()` waits until every append that has
    returned is final (other sessions' transactions can hold the horizon for a moment).
    """

    async def test_append_to_new_stream_numbers_from_one(self, store) -> None:
        sid = stream()
        result = await store.append(sid, 0, [ev(1), ev(2)], command_id=uuid.uuid4())
        assert (result.first_version, result.last_version, result.replayed) == (1, 2, False)
        assert [e.stream_version for e in result.events] == [1, 2]
        assert await store.stream_version(sid) == 2
        events = await store.read_stream(sid)
        assert [(e.stream_version, e.type, e.data) for e in events] == [
            (1, "thing_happened", b'{"n": 1}'),
            (2, "thing_happened", b'{"n": 2}'),
        ]

    async def test_unknown_stream_is_at_version_zero_and_empty(self, store) -> None:
        sid = stream()
        assert await store.stream_version(sid) == 0
        assert await store.read_stream(sid) == []

    async def test_read_stream_after_a_version(self, store) -> None:
        sid = stream()
        await store.append(sid, 0, [ev(1), ev(2), ev(3)], command_id=uuid.uuid4())
        assert [e.stream_version for e in await store.read_stream(sid, 1)] == [2, 3]
        assert [e.stream_version for e in await store.read_stream(sid, 1, 2)] == [2]
        assert await store.read_stream(sid, 3) == []

    async def test_read_stream_back_pages_from_the_end(self, store) -> None:
        sid = stream()
        await store.append(sid, 0, [ev(i) for i in range(5)], command_id=uuid.uuid4())
        assert [e.stream_version for e in await store.read_stream_back(sid, 2**62, 2)] == [5, 4]
        assert [e.stream_version for e in await store.read_stream_back(sid, 4, 10)] == [3, 2, 1]
        assert await store.read_stream_back(sid, 1, 10) == []
        assert await store.read_stream_back(stream(), 2**62, 10) == []

    async def test_metadata_and_schema_version_round_trip(self, store) -> None:
        sid = stream()
        await store.append(
            sid, 0, [NewEvent("x", b'{"a": [1, 2]}', schema_version=3, metadata=b'{"by": "p1"}')],
            command_id=uuid.uuid4(),
        )
        [event] = await store.read_stream(sid)
        assert (event.schema_version, event.data, event.metadata) == (3, b'{"a": [1, 2]}', b'{"by": "p1"}')

    async def test_stale_version_names_the_current_one(self, store) -> None:
        sid = stream()
        await store.append(sid, 0, [ev(1), ev(2)], command_id=uuid.uuid4())
        with pytest.raises(ConcurrencyError) as raised:
            await store.append(sid, 1, [ev(3)], command_id=uuid.uuid4())
        assert (raised.value.expected_version, raised.value.current_version) == (1, 2)
        with pytest.raises(ConcurrencyError):
            await store.append(sid, 0, [ev(3)], command_id=uuid.uuid4())
        assert await store.stream_version(sid) == 2

    async def test_a_version_from_the_future_is_refused_without_a_gap(self, store) -> None:
        sid = stream()
        await store.append(sid, 0, [ev(1)], command_id=uuid.uuid4())
        with pytest.raises(ConcurrencyError) as raised:
            await store.append(sid, 5, [ev(2)], command_id=uuid.uuid4())
        assert raised.value.current_version == 1
        with pytest.raises(ConcurrencyError):
            await store.append(stream(), 3, [ev(1)], command_id=uuid.uuid4())
        assert [e.stream_version for e in await store.read_stream(sid)] == [1]

    async def test_retried_command_appends_nothing_and_returns_the_first_result(self, store) -> None:
        sid, command = stream(), uuid.uuid4()
        first = await store.append(sid, 0, [ev(1), ev(2)], command_id=command)
        await store.append(sid, 2, [ev(3)], command_id=uuid.uuid4())  # the stream moves on
        again = await store.append(sid, 0, [ev(1), ev(2)], command_id=command)
        assert again.replayed
        assert (again.first_version, again.last_version) == (first.first_version, first.last_version)
        assert [e.event_id for e in again.events] == [e.event_id for e in first.events]
        assert [e.position for e in again.events] == [e.position for e in first.events]
        assert await store.stream_version(sid) == 3
        assert len(await store.read_stream(sid)) == 3

    async def test_same_command_id_with_another_body_is_a_conflict(self, store) -> None:
        sid, command = stream(), uuid.uuid4()
        await store.append(sid, 0, [ev(1)], command_id=command)
        with pytest.raises(CommandConflictError):
            await store.append(sid, 0, [ev(99)], command_id=command)
        with pytest.raises(CommandConflictError):  # even when its version is right
            await store.append(sid, 1, [ev(2)], command_id=command)
        assert len(await store.read_stream(sid)) == 1

    async def test_caller_request_hash_decides_what_a_retry_is(self, store) -> None:
        sid, command = stream(), uuid.uuid4()
        first = await store.append(sid, 0, [ev(1)], command_id=command, request_hash=b"body-1")
        # A non-deterministic decide produced other events, but the request is the same.
        again = await store.append(sid, 0, [ev(2)], command_id=command, request_hash=b"body-1")
        assert again.replayed and again.events[0].data == first.events[0].data
        with pytest.raises(CommandConflictError):
            await store.append(sid, 0, [ev(1)], command_id=command, request_hash=b"body-2")

    async def test_command_ids_are_scoped_to_their_stream(self, store) -> None:
        command = uuid.uuid4()
        a = await store.append(stream(), 0, [ev(1)], command_id=command)
        b = await store.append(stream(), 0, [ev(1)], command_id=command)
        assert not b.replayed and a.events[0].event_id != b.events[0].event_id

    async def test_concurrent_retries_of_one_command_append_once(self, store) -> None:
        sid, command = stream(), uuid.uuid4()
        results = await asyncio.gather(*(store.append(sid, 0, [ev(1)], command_id=command) for _ in range(4)))
        assert sum(not r.replayed for r in results) == 1
        assert {r.events[0].event_id for r in results} == {results[0].events[0].event_id}
        assert await store.stream_version(sid) == 1

    async def test_an_append_needs_events(self, store) -> None:
        with pytest.raises(ValueError):
            await store.append(stream(), 0, [], command_id=uuid.uuid4())

    async def test_racing_commands_at_one_version_exactly_one_wins(self, store) -> None:
        for attempt in range(200):
            sid = stream()
            expected = attempt % 2  # new streams and existing ones
            if expected:
                await store.append(sid, 0, [ev(0)], command_id=uuid.uuid4())
            outcomes = await asyncio.gather(
                store.append(sid, expected, [ev(1), ev(2)], command_id=uuid.uuid4()),
                store.append(sid, expected, [ev(3)], command_id=uuid.uuid4()),
                return_exceptions=True,
            )
            wins = [o for o in outcomes if not isinstance(o, BaseException)]
            losses = [o for o in outcomes if isinstance(o, BaseException)]
            assert len(wins) == 1, outcomes
            assert isinstance(losses[0], ConcurrencyError), losses
            assert losses[0].current_version == wins[0].last_version
            assert await store.stream_version(sid) == wins[0].last_version

    async def test_read_log_in_batches_holds_every_append_in_stream_order(self, store) -> None:
        start = await store.head()
        sids = [stream() for _ in range(3)]
        for round_ in range(4):
            for sid in sids:
                await store.append(sid, round_ * 2, [ev(round_), ev(round_)], command_id=uuid.uuid4())
        await store.settle()
        mine = [e for e in await read_whole_log(store, start, batch=5) if e.stream_id in sids]
        assert len(mine) == 24
        for sid in sids:
            assert [e.stream_version for e in mine if e.stream_id == sid] == list(range(1, 9))
        positions = [e.log_position for e in mine]
        assert positions == sorted(positions) and len(set(positions)) == 24

    async def test_read_log_can_skip_payloads_but_not_events(self, store) -> None:
        start = await store.head()
        sid = stream()
        await store.append(sid, 0, [ev(1, "wanted"), ev(2, "other")], command_id=uuid.uuid4())
        await store.settle()
        page = [e for e in await store.read_log(start, 100, payload_types=["wanted"]) if e.stream_id == sid]
        assert [(e.type, e.data) for e in page] == [("wanted", b'{"n": 1}'), ("other", None)]

    async def test_head_moves_with_appends(self, store) -> None:
        before = await store.head()
        result = await store.append(stream(), 0, [ev(1)], command_id=uuid.uuid4())
        await store.settle()
        after = await store.head()
        assert after > before and after >= result.events[-1].log_position

    async def test_nothing_is_held_back_once_settled(self, store) -> None:
        """The Postgres proof that something is held back while a transaction is open is in
        `tests/contract/test_store_log.py`; here, no adapter reports events that wait in vain."""
        await store.append(stream(), 0, [ev(1)], command_id=uuid.uuid4())
        await store.settle()
        assert await store.held_back() is False
