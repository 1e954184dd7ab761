"""The Litestar application factory.

The app is built from the features of the composition root (`services.bootstrap.FEATURES`:
their routes and lifespans) plus what a caller passes, so a feature plugs in by declaring
it there, never by editing this file. Settings travel on `app.state.settings` (already
resolved: embedded server URLs filled in), the opened adapters on `app.state.runtime`
(`services.runtime.Runtime`), never through globals.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from litestar import Litestar
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import (
    JsonRenderPlugin,
    SwaggerRenderPlugin,
    YamlRenderPlugin,
)
from litestar.openapi.spec import Components, SecurityScheme, Tag

from infra.ratelimit import RateLimit
from infra.settings import Settings
from services import bootstrap
from services.features import Feature
from services.http import contract
from services.http.contract import CONTRACT_VERSION
from services.http.auth import DEPENDENCIES
from services.http.bodies import JsonRequest
from services.http.errors import HANDLERS, error_body
from services.http.logs import CorrelationMiddleware
from services.http.query_once import QueryOnce

log = logging.getLogger(__name__)

__all__ = ["create_app", "error_body"]

OPENAPI = OpenAPIConfig(
    title="Atout",
    version=CONTRACT_VERSION,
    description="Trick-taking card games over HTTP: Belote (classic, sans atout, coinche), Cinch, Five Hundred. "
                "Errors are always `{code, message, details}`. See docs/api.md.",
    path="/schema",
    render_plugins=[JsonRenderPlugin(), YamlRenderPlugin(), SwaggerRenderPlugin()],
    components=Components(security_schemes={"bearer": SecurityScheme(type="http", scheme="bearer",
                                                                     description="POST /v1/players gives a token")}),
    tags=[Tag(name="players"), Tag(name="matches"), Tag(name="play"), Tag(name="records"), Tag(name="health")],
)


def create_app(
    settings: Settings,
    *,
    route_handlers: Sequence[Any] = (),
    on_startup: Sequence[Callable[..., Any]] = (),
    on_shutdown: Sequence[Callable[..., Any]] = (),
    lifespan: Sequence[Callable[..., Any]] = (),
    debug: bool = False,
    projector: bool = False,
    apply_migrations: bool = False,
    rate_limit: RateLimit | None = None,
    features: Sequence[Feature] | None = None,
) -> Litestar:
    """Build the app: the features' routes and the runtime's lifespan from `features`
    (default: `services.bootstrap.FEATURES`), then `route_handlers` and hooks. `projector`
    runs the projector in this process and `apply_migrations` migrates at start-up (the
    embedded default)."""
    features = bootstrap.FEATURES if features is None else features
    runtime = bootstrap.lifespan(settings, features=features, apply_migrations=apply_migrations,
                                 projector=projector, rate_limit=rate_limit)
    # Handlers and hooks the bootstrap already mounts may be passed again by older callers.
    entered = bootstrap.lifespan_hooks(features)
    return Litestar(
        route_handlers=list(dict.fromkeys([*bootstrap.route_handlers(features), *route_handlers])),
        on_startup=[contract.install, *on_startup],
        on_shutdown=list(on_shutdown),
        lifespan=[runtime, *(hook for hook in lifespan if hook not in entered)],
        state=State({"settings": settings, "runtime": None,
                     "live_channels": bootstrap.channels(features)}),  # the AsyncAPI document's
        dependencies=DEPENDENCIES,
        exception_handlers=HANDLERS,
        middleware=[CorrelationMiddleware, QueryOnce],
        request_class=JsonRequest,
        openapi_config=OPENAPI,
        logging_config=None,  # the process configures logging (JSON lines: services/http/logs.py)
        debug=debug,
    )
