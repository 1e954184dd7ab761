"""The event store contract (tests/store_contract.py) run against the tests' in-memory adapter:
what lets logic tests run without Postgres keeps the same promises as the real store."""

from __future__ import annotations

import pytest

from tests.memory_store import MemoryEventStore
from tests.store_contract import StoreContract


class TestMemoryStore(StoreContract):
    @pytest.fixture
    def store(self):
        return MemoryEventStore()
