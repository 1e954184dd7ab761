"""The `random` level: a uniformly chosen legal action of the seat's view — the floor every
other level is measured against, and a cheap opponent for tests."""

from __future__ import annotations

import random as _random
from typing import Any

from domain.playout import concrete


def policy(view: Any, rng: _random.Random) -> dict[str, Any] | None:
    legal = list(view.legal)
    if not legal:
        return None
    return {"seat": str(view.seat), **concrete(dict(rng.choice(legal)), rng)}
