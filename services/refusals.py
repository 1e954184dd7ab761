"""`Refused`: what the service layer turns down for who asks or when.

Its own module so that every service may raise it — the table's flows, the one door to a
seat (`services.matches.seating`) they call, moderation, invitations — without importing each
other; `services.matches.tables` re-exports it. The API maps it to its error body as it stands
(services/http/app.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Refused(Exception):
    """A 403 or 422 (or a 400 naming a field whose validity depends on the match, or a 404),
    with a stable code."""

    def __init__(self, status: int, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, dict(details or {})
