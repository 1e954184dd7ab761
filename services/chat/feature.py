"""Table chat: presets during play, the spectators' channel, its live streams; moderation
(reports, mutes, bans) with the `chat_reports` read model."""

from __future__ import annotations

from typing import Any

from infra.projections.chat_publisher import ChatPublisher
from infra.projections.reports import ChatReports
from infra.settings import Settings
from services.features import Feature, plain


def publisher(settings: Settings) -> ChatPublisher:
    return ChatPublisher(redis_url=settings.redis_url, prefix=settings.redis_prefix)


def _routes() -> list[Any]:
    from services.chat.routes import chat, moderation
    return [*chat.ROUTES, *moderation.ROUTES]


def _channels() -> list[Any]:
    from services.chat.routes import live
    return list(live.CHANNELS)


FEATURE = Feature("chat", routes=_routes, projections=(publisher, plain(ChatReports)), channels=_channels)
