"""Events as tagged Structs with schema versions; upcasters bring old payloads up to date."""

from __future__ import annotations

import uuid
from typing import ClassVar

import msgspec
import pytest

from infra.serialization import EventRegistry, SerializationError
from infra.store import NewEvent, PostgresEventStore, connect, create_pool, migrate


class CardPlayedV1(msgspec.Struct, tag="card_played"):
    seat: str
    card: str


class CardPlayed(msgspec.Struct, tag="card_played"):
    """v2 added `by_bot`; v3 renamed `card` to `code`."""

    schema_version: ClassVar[int] = 3
    seat: str
    code: str
    by_bot: bool


class BidMade(msgspec.Struct, tag="bid_made", frozen=True):
    seat: str
    bid: str


def current_registry() -> EventRegistry:
    registry = EventRegistry()
    registry.register_all([CardPlayed, BidMade])

    @registry.upcaster("card_played", from_version=1)
    def _add_by_bot(payload: dict) -> dict:
        return {**payload, "by_bot": False}

    @registry.upcaster("card_played", from_version=2)
    def _rename_card(payload: dict) -> dict:
        payload = dict(payload)
        payload["code"] = payload.pop("card")
        return payload

    return registry


def test_encode_uses_the_tag_and_the_class_version() -> None:
    registry = current_registry()
    new = registry.encode(CardPlayed("N", "AS", True), metadata={"by": "p1"})
    assert (new.type, new.schema_version) == ("card_played", 3)
    assert msgspec.json.decode(new.metadata) == {"by": "p1"}
    assert registry.decode(new.type, new.schema_version, new.data) == CardPlayed("N", "AS", True)
    bid = registry.encode(BidMade("E", "pass"))
    assert (bid.schema_version, registry.decode("bid_made", 1, bid.data)) == (1, BidMade("E", "pass"))


def test_upcasters_run_in_chain_from_any_old_version() -> None:
    registry = current_registry()
    v1 = msgspec.json.encode(CardPlayedV1("W", "TH"))
    assert registry.decode("card_played", 1, v1) == CardPlayed("W", "TH", False)
    v2 = b'{"type": "card_played", "seat": "S", "card": "9C", "by_bot": true}'
    assert registry.decode("card_played", 2, v2) == CardPlayed("S", "9C", True)
    assert registry.upcast("card_played", 1, {"seat": "N", "card": "AS"}) == {
        "seat": "N", "code": "AS", "by_bot": False,
    }


def test_unknown_types_missing_upcasters_and_future_versions_are_errors() -> None:
    registry = current_registry()
    with pytest.raises(SerializationError):
        registry.decode("no_such_event", 1, b"{}")
    with pytest.raises(SerializationError):
        registry.decode("card_played", 4, b"{}")  # written by newer code
    registry.register(BidMade, version=3)
    with pytest.raises(SerializationError):
        registry.decode("bid_made", 1, b'{"seat": "N", "bid": "pass"}')
    with pytest.raises(SerializationError):
        registry.decode("card_played", 3, b'{"seat": "N"}')  # invalid payload
    with pytest.raises(SerializationError):
        registry.encode(CardPlayedV1("N", "AS"))  # not registered


def test_one_name_cannot_mean_two_classes() -> None:
    registry = current_registry()
    with pytest.raises(SerializationError):
        registry.register(CardPlayedV1)

    class Untagged(msgspec.Struct):
        x: int

    with pytest.raises(SerializationError):
        registry.register(Untagged)
    assert registry.register(Untagged, name="untagged_thing") is Untagged


@pytest.mark.db
async def test_a_v1_payload_stored_raw_reads_back_as_the_current_struct(database_url: str) -> None:
    conn = await connect(database_url)
    await migrate(conn)
    stream = f"serialization-{uuid.uuid4()}"
    # Written the way an old release wrote it, straight into the table.
    await conn.execute(
        """INSERT INTO events (stream_id, stream_version, event_id, type, schema_version, data)
           VALUES ($1, 1, $2, 'card_played', 1, '{"type": "card_played", "seat": "N", "card": "JD"}')""",
        stream, uuid.uuid4(),
    )
    await conn.close()
    pool = await create_pool(database_url, max_size=2)
    try:
        store = PostgresEventStore(pool)
        registry = current_registry()
        new = registry.encode(CardPlayed("E", "7D", True))
        await store.append(stream, 1, [new], command_id=uuid.uuid4())
        events = await store.read_stream(stream)
        assert [registry.decode_recorded(e) for e in events] == [
            CardPlayed("N", "JD", False),
            CardPlayed("E", "7D", True),
        ]
        assert [e.schema_version for e in events] == [1, 3]  # history is never rewritten
        assert registry.payload(events[0]) == {"type": "card_played", "seat": "N", "code": "JD", "by_bot": False}
    finally:
        await pool.close()


def test_new_event_defaults() -> None:
    assert NewEvent("x", b"{}").schema_version == 1
