"""The long-running processes' collector settings (infra/heap.py)."""

from __future__ import annotations

import gc

from infra.heap import YOUNG, settle_heap


def test_settling_freezes_what_exists_and_collects_the_young_generation_less_often() -> None:
    threshold = gc.get_threshold()
    built = object.__new__(type("Built", (), {}))
    try:
        settle_heap()
        assert gc.get_freeze_count() > 0 and gc.get_threshold()[0] == YOUNG
        assert not any(o is built for o in gc.get_objects())   # out of the collector's sight
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
