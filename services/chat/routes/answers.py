"""What the chat and moderation routes answer, as Structs the OpenAPI document shows field by field.

The services build these answers as dicts (`services.chat.service`, `services.chat.moderation`,
the `chat_reports` read model); the Structs here only describe them, so that a generated
client gets a type for every field: required where the answer always carries it, nullable
where it may be null, left out of `required` where a row may not carry it at all.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.chat import Channel, Phase

SeatName = Literal["N", "E", "S", "W"]
ReportStatus = Literal["open", "muted", "banned", "dismissed"]


class ChatMessageOut(msgspec.Struct):
    """One message as its readers get it, with its chat-stream `version` (the history's order
    and cursor). Exactly one of `preset` and `text` is set. `seat` is the sender's (null: a
    spectator); `name` is null once he is erased; `phase` and `match_version` say where the
    match stood when it was sent."""

    version: int
    type: Literal["chat_message"]
    message_id: str
    channel: Channel
    player_id: str
    name: str | None
    seat: SeatName | None
    preset: str | None
    text: str | None
    phase: Phase
    match_version: int
    at: str


class ChatSentOut(msgspec.Struct):
    """The message sent (the first answer again for a retried `command_id`)."""

    match_id: str
    version: int                        # the chat stream's version after it
    message: ChatMessageOut


class ReportedMessageOut(msgspec.Struct):
    """The reported message as the reporter could read it, copied into the report so that the
    evidence stays what was read."""

    player_id: str
    channel: Channel
    seat: SeatName | None
    preset: str | None
    text: str | None
    phase: Phase
    version: int
    at: str


class ReportOut(msgspec.Struct):
    """A report just filed (or the same one again for a retried `command_id`): open, not yet
    dealt with. `match_id`, `message_id` and `message` are null for a report about a player."""

    report_id: str
    reporter: str
    player_id: str
    reason: str
    match_id: str | None
    message_id: str | None
    message: ReportedMessageOut | None
    status: Literal["open"]
    resolution: None
    created_at: str


class ResolutionOut(msgspec.Struct):
    """What an admin did about a report, and why."""

    admin: str
    action: Literal["muted", "banned", "dismissed"]
    reason: str
    at: str


class QueuedReportOut(msgspec.Struct):
    """A report in the admins' queue, with the two players' names now (null once erased). A
    report about a match the admin plays in keeps its place without its `message` and
    `reason` (both null) until the match is over and public to him: `sealed` is there only then."""

    report_id: str
    player_id: str
    reporter: str
    match_id: str | None
    message_id: str | None
    message: ReportedMessageOut | None
    reason: str | None
    status: ReportStatus
    resolution: ResolutionOut | None
    created_at: str
    player_name: str | None
    reporter_name: str | None
    sealed: bool | msgspec.UnsetType = msgspec.UNSET      # true, when there at all


class ReportDismissedOut(msgspec.Struct):
    report_id: str
    status: Literal["dismissed"]


class SanctionsOut(msgspec.Struct):
    """A player's mute (`muted_until` and `mute_reason`, null when no mute runs) and ban;
    `version` counts his moderation events."""

    player_id: str
    muted_until: str | None
    mute_reason: str | None
    banned: bool
    ban_reason: str | None
    version: int
