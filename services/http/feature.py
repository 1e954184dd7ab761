"""The site feature: the probes, `/metrics`, the AsyncAPI document of the live streams and the
reference web client (at `/`, `/admin` and `/verify`)."""

from __future__ import annotations

from typing import Any

from services.features import Feature


def _routes() -> list[Any]:
    from services.http import asyncapi, health, metrics, web
    return [*health.ROUTES, *metrics.ROUTES, *web.ROUTES, *asyncapi.ROUTES]


FEATURE = Feature("site", routes=_routes)
