"""A solve's budget in nodes, so a caller on a clock (the `master` bot's decision) can stop a
solve that would run past its time instead of waiting for it: a single solve of a deal's
first tricks can take a hundred times its median, and the search cannot be cut into pieces
any other way (its stack is the kernel's own).

The count is in nodes, not seconds: the compiled kernel cannot read a clock, and nodes are
what a search spends. A caller turns its time into nodes by the rate it measured.
"""

from __future__ import annotations

NO_LIMIT = 1 << 62
LIMIT = [NO_LIMIT]
"""The node count (the search's own counter, see `visited`) at which a search stops."""


class OutOfNodes(Exception):
    """The search reached its node budget before it had a value: no value is given, and
    the transposition table keeps only bounds that were proved."""
