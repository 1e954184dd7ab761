"""Disputes: filing, verifying and exporting for players; the admins' queue, replay, rulings
and audit; the `disputes` read model."""

from __future__ import annotations

from typing import Any

from infra.projections.disputes import DisputesQueue
from services.features import Feature, plain


def _routes() -> list[Any]:
    from services.disputes.routes import admin, disputes
    return [*disputes.ROUTES, *admin.ROUTES]


FEATURE = Feature("disputes", routes=_routes, projections=(plain(DisputesQueue),))
