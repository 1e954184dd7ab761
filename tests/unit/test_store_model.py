"""The store's pure helpers: event ids must stay exactly uuid5, which is what the docs and
every stored event id promise, even though the store computes them its own faster way."""

import uuid

from hypothesis import given, strategies as st

from infra.store.model import event_ids


@given(st.uuids(), st.text(min_size=1, max_size=60), st.integers(min_value=1, max_value=6))
def test_event_ids_are_uuid5_of_the_command_and_index(command_id, stream_id, count) -> None:
    ids = event_ids(command_id, stream_id, count)
    assert ids == [uuid.uuid5(command_id, f"{stream_id}/{i}") for i in range(count)]
    assert all(i.version == 5 and i.variant == uuid.RFC_4122 for i in ids)
    assert str(ids[0]) == str(uuid.UUID(ids[0].hex)) and hash(ids[0]) == hash(uuid.UUID(ids[0].hex))
