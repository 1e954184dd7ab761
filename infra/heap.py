"""The garbage collector's share of a long-running process (the API, the projector).

Python's cyclic collector walks every tracked object of the generation it collects, and
collections are set off by allocation, so their cost lands on whatever request allocates
at that moment. A server holds about a million objects that live as long as it does (the
modules, the routes, the schemas); left in the oldest generation, each full collection
walked all of them, a third of a second at a time, and collections were some 40% of the
API's CPU under load in bench/api.py. `settle_heap`, called once the process is built,
moves them out of the collector's sight (`gc.freeze`) and collects the young generation
less often: a request allocates thousands of short-lived objects, and reference counting
frees nearly all of them long before any collection. Cycles are still collected.
"""

from __future__ import annotations

import gc

YOUNG = 10_000   # allocations between young collections (Python's default: 700)


def settle_heap() -> None:
    """Freeze what exists now (call it when the process is built, before serving)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])
