"""The game service's rules without a server: the cases of tests/match_service_cases.py on the
tests' in-memory event store and vault (the same cases run on Postgres in
tests/contract/test_match_service.py)."""

from __future__ import annotations

import random

import pytest

from services.matches.service import MatchService
from tests.match_service_cases import MatchServiceCases
from tests.memory_store import MemoryEventStore, MemoryVault


class TestInMemory(MatchServiceCases):
    @pytest.fixture
    def service(self):
        store, vault = MemoryEventStore(), MemoryVault()
        return lambda: MatchService(store, vault, chain_length=50, rng=random.Random(7))
