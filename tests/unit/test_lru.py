"""The in-process caches' one shape: bounded, and what goes first is what was stored longest ago."""

import pytest

from infra.lru import Lru


def test_the_least_recently_stored_entry_goes_first() -> None:
    cache: Lru[str, int] = Lru(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 3)            # storing again makes "a" the newest
    cache.put("c", 4)            # so "b" goes
    assert (cache.get("a"), cache.get("b"), cache.get("c"), len(cache)) == (3, None, 4, 2)
    cache.pop("a")
    cache.pop("missing")
    assert "a" not in cache and "c" in cache and len(cache) == 1


def test_an_lru_holds_something() -> None:
    with pytest.raises(ValueError):
        Lru(0)
