"""What the service layer turns down, by kind: who asks, when, or what is not there.

A service says *why* it refuses, never how HTTP says it: each kind below is a subclass of
`Refused`, with a stable code, a human message and details. The HTTP edge maps a kind to
its status once (`services.http.errors.REFUSAL_STATUS`); a CLI or a worker that calls the
same service reads the kind. Its own module so that every service may raise it without
importing another.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Refused(Exception):
    """A refusal with a stable `code`; raise one of its kinds, not this class."""

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.details = code, message, dict(details or {})


class BadField(Refused):
    """A request field whose validity depends on the match (its entropy, its clock): names the field."""


class Forbidden(Refused):
    """Not for this caller: not seated, banned, blocked, muted, not the host."""


class NotFound(Refused):
    """No such thing, or none this caller may know of."""


class Conflict(Refused):
    """The state moved while this was decided: asking again may succeed."""


class NotNow(Refused):
    """The request is well formed and the caller may ask, but the rules say no at this moment."""


class TooMany(Refused):
    """A counted allowance is used up (hints per match, invitations per hour)."""
