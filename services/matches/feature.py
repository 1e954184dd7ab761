"""The matches: tables, play, records and the hand-record key; hints for human seats; the
admin's suspended matches. Three declarations, in the composition root's order.

Routes are named lazily (imported when the API asks for them), so the worker and the
projector, which build from the same declarations, never import an HTTP module.
"""

from __future__ import annotations

from typing import Any

from infra.projections import HandRecords, Lobby, MatchSummaries
from services.features import Feature, plain


def _routes() -> list[Any]:
    from services.matches.routes import games, matches, play, records
    return [*matches.ROUTES, *play.ROUTES, *records.ROUTES, *games.ROUTES]


def _hint_routes() -> list[Any]:
    from services.matches.routes import hints
    return list(hints.ROUTES)


def _admin_routes() -> list[Any]:
    from services.matches.routes import admin
    return list(admin.ROUTES)


FEATURE = Feature("matches", routes=_routes, projections=(plain(MatchSummaries), plain(Lobby), plain(HandRecords)))
HINTS = Feature("hints", routes=_hint_routes)
SUSPENDED = Feature("suspended matches", routes=_admin_routes)
