"""Live streams: a match's stream (WebSocket, SSE, NDJSON) with the publisher that feeds it,
and each player's account stream with the notices the other features put on it."""

from __future__ import annotations

import contextlib
from typing import Any

from infra.projections.account_producers import DisputeNotices, MatchNotices
from infra.projections.publisher import Publisher
from infra.projections.tournament_notices import TournamentNotices
from infra.settings import Settings
from services.features import Feature, plain


def publisher(settings: Settings) -> Publisher:
    """The publisher projection with a process's resolved settings (embedded servers' URLs
    included)."""
    return Publisher(redis_url=settings.redis_url, prefix=settings.redis_prefix)


def _routes() -> list[Any]:
    from services.live.routes import streams
    return list(streams.ROUTES)


def _channels() -> list[Any]:
    from services.live.routes import streams
    return list(streams.CHANNELS)


def _lifespan(app: Any) -> contextlib.AbstractAsyncContextManager[None]:
    from services.live.routes.deps import live_lifespan
    return live_lifespan(app)


def _account_routes() -> list[Any]:
    from services.live.routes import account
    return [account.account_stream, account.account_ws]


def _account_channels() -> list[Any]:
    from services.live.routes import account_messages
    return list(account_messages.CHANNELS)


FEATURE = Feature("live streams", routes=_routes, lifespans=(_lifespan,), projections=(publisher,),
                  channels=_channels)
ACCOUNT_STREAM = Feature("account stream", routes=_account_routes, channels=_account_channels,
                         account_events=(plain(MatchNotices), plain(TournamentNotices), plain(DisputeNotices)))
