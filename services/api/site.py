"""The site feature: the probes, `/metrics` and the reference web client (at / and /admin)."""

from __future__ import annotations

from services.api import health, metrics, web
from services.features import Feature

FEATURE = Feature("site", routes=(*health.ROUTES, *metrics.ROUTES, *web.ROUTES))
