"""What a feature declares, so that every process builds from the same list.

A `Feature` is data: the routes it mounts on the API, the projections the projector runs,
the hooks every appending process runs after each commit, the lifespans the API enters,
the notices it puts on its players' account streams,
the visibility checks it adds to the policy, and the Celery tasks (with their beat entries)
it adds to the workers' app. `services/bootstrap.py` holds the one literal list of them and
the builders that turn it into an app, a projector, a worker or a CLI runtime; nothing is
registered by importing a module.

Each kind of entry is a factory that takes what the process has at hand (its settings, its
runtime, its Celery app), so no feature reads settings at import or keeps a process global.

What only the API uses — routes, the live routes' channels, lifespans — is named lazily: a
function that imports its route modules when called. A feature's declaration
(`services/<feature>/feature.py`) imports no HTTP module, so the worker and the projector,
built from the same list, never load Litestar.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from infra.projections import Projection
from infra.projections.account_events import AccountProducer
from infra.settings import Settings
from infra.store import AppendResult

if TYPE_CHECKING:  # types only: the runtime is built from the features, not the other way round
    from celery import Celery
    from litestar import Litestar

    from services.runtime import Runtime

AfterCommit = Callable[[AppendResult], Awaitable[None]]
"""`async hook(result)`, run after an append's commit (never inside its transaction)."""

ProjectionFactory = Callable[[Settings], Projection]
"""A projection for a process's resolved settings (embedded servers' URLs included)."""

HookFactory = Callable[["Runtime"], "AfterCommit | None"]
"""The after-commit hook of one opened runtime (None: nothing to do in this one, e.g. no
broker). Called in every process that opens a runtime: the API, a worker, a CLI command.
What it opens it closes through `runtime.closing`."""

Lifespan = Callable[["Litestar"], contextlib.AbstractAsyncContextManager[None]]
"""A Litestar lifespan hook, entered once the runtime is on `app.state.runtime`."""

Lazy = Callable[[], Sequence[Any]]
"""`() -> entries`: imports what it names only when called (the API's routes and channels)."""

PublicCheck = Callable[["Runtime", str], Awaitable[bool]]
"""`async check(runtime, match_id)`: whether anyone may see this match (all must agree)."""

OrganiserLookup = Callable[["Runtime", str], Awaitable["str | None"]]
"""`async lookup(runtime, match_id)`: the player who organises this match's event, if any."""

EntrantLookup = Callable[["Runtime", str], Awaitable["set[str]"]]
"""`async lookup(runtime, match_id)`: the players of every entry of this match's event."""

AudienceLookup = Callable[["Runtime", str], Awaitable["set[str]"]]
"""`async lookup(runtime, match_id)`: who may watch this private match besides its seats and host."""

TaskInstaller = Callable[["Celery"], None]
"""Adds a feature's Celery tasks (and beat entries, routes) to the workers' app."""

Gauge = Callable[["Runtime"], Awaitable[None]]
"""`async measure(runtime)`: sets a feature's Prometheus gauges from what it reads, at each scrape
of the API's `/metrics` (a failure leaves the last values)."""

AccountProducerFactory = Callable[[Settings], AccountProducer]
"""What a feature tells its players on their account stream (`GET /v1/stream/me`): an
`infra.projections.account_events.AccountProducer` for a process's settings."""


@dataclass(frozen=True)
class Feature:
    """One feature's part in every process. Every field is optional; see the module doc."""

    name: str
    routes: Lazy | None = None         # route handlers of the API, imported when the API is built
    projections: tuple[ProjectionFactory, ...] = ()
    after_commit: tuple[HookFactory, ...] = ()
    lifespans: tuple[Lifespan, ...] = ()
    public_checks: tuple[PublicCheck, ...] = ()
    organiser_lookups: tuple[OrganiserLookup, ...] = ()
    entrant_lookups: tuple[EntrantLookup, ...] = ()
    audience_lookups: tuple[AudienceLookup, ...] = ()
    tasks: tuple[TaskInstaller, ...] = ()
    channels: Lazy | None = None       # live routes' `services.http.asyncapi.Channel`s: the AsyncAPI document
    account_events: tuple[AccountProducerFactory, ...] = ()   # notices on the players' account streams
    gauges: tuple[Gauge, ...] = ()     # measured at each scrape of /metrics


def each(features: Any, kind: str) -> list[Any]:
    """Every entry of one kind over `features`, in the list's order (a lazy kind is called)."""
    out: list[Any] = []
    for feature in features:
        entries = getattr(feature, kind)
        out += entries() if callable(entries) else (entries or ())
    return out


def plain(projection: Callable[[], Projection]) -> ProjectionFactory:
    """The factory of a projection that needs nothing of the settings."""

    def factory(_: Settings) -> Projection:
        return projection()

    factory.__qualname__ = f"plain({getattr(projection, '__name__', projection)!s})"
    return factory
