"""The site feature: the probes, `/metrics`, the AsyncAPI document of the live streams and the
reference web client (at / and /admin)."""

from __future__ import annotations

from services.http import asyncapi
from services.http import health
from services.http import metrics
from services.http import web
from services.features import Feature

FEATURE = Feature("site", routes=(*health.ROUTES, *metrics.ROUTES, *web.ROUTES, *asyncapi.ROUTES))
