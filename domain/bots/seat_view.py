"""What a policy is handed: a match's view or a game's own, told apart in one place."""

from __future__ import annotations

from typing import Any


def unwrap(view: Any) -> tuple[Any, dict[str, Any] | None]:
    """(the game's view, the match's raw options or None) of a MatchView or a game view."""
    if hasattr(view, "table") and hasattr(view, "commitment"):
        return view.table, dict(view.options)
    return view, None
