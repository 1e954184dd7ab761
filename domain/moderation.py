"""Moderation of the table chat: reports, and an admin's mutes and bans.

A report names a player, and may name one of his chat messages (copied into the report, so
the evidence stays what was read even if the chat is long). It lives in its own stream
(`report-<id>`) with what an admin did about it. A player's sanctions live in
`moderation-<player id>`: a mute silences his chat until a time, a ban shuts him out of the
chat and of new tables until it is lifted; both name the admin and the reason, and both are
folded here from their events, so the state at any moment replays.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import msgspec

from domain.game import RuleViolation

MAX_REASON = 500
MAX_MUTE_MINUTES = 30 * 24 * 60      # a mute is for at most 30 days: beyond that, ban
ACTIONS = ("muted", "banned", "dismissed")


class ReportFiled(msgspec.Struct, frozen=True, tag="report_filed"):
    report_id: str
    reporter: str
    player_id: str
    reason: str
    match_id: str | None = None
    message_id: str | None = None
    message: dict[str, Any] | None = None     # the reported message as it was: channel, preset, text, version


class ReportResolved(msgspec.Struct, frozen=True, tag="report_resolved"):
    report_id: str
    admin: str
    action: str          # muted, banned, dismissed
    reason: str


class PlayerMuted(msgspec.Struct, frozen=True, tag="player_muted"):
    player_id: str
    admin: str
    until: str           # ISO 8601, UTC
    reason: str
    report_id: str | None = None


class PlayerUnmuted(msgspec.Struct, frozen=True, tag="player_unmuted"):
    player_id: str
    admin: str
    reason: str


class PlayerBanned(msgspec.Struct, frozen=True, tag="player_banned"):
    player_id: str
    admin: str
    reason: str
    report_id: str | None = None


class PlayerUnbanned(msgspec.Struct, frozen=True, tag="player_unbanned"):
    player_id: str
    admin: str
    reason: str


REPORT_EVENTS = (ReportFiled, ReportResolved)
SANCTION_EVENTS = (PlayerMuted, PlayerUnmuted, PlayerBanned, PlayerUnbanned)


class Sanctions(msgspec.Struct, frozen=True):
    """A player's standing: muted until when (and why), banned (and why)."""

    version: int = 0
    muted_until: str | None = None
    mute_reason: str | None = None
    banned: bool = False
    ban_reason: str | None = None

    def muted(self, now: datetime) -> bool:
        return self.muted_until is not None and datetime.fromisoformat(self.muted_until) > now


def evolve(state: Sanctions, event: Any) -> Sanctions:
    state = msgspec.structs.replace(state, version=state.version + 1)
    if isinstance(event, PlayerMuted):
        return msgspec.structs.replace(state, muted_until=event.until, mute_reason=event.reason)
    if isinstance(event, PlayerUnmuted):
        return msgspec.structs.replace(state, muted_until=None, mute_reason=None)
    if isinstance(event, PlayerBanned):
        return msgspec.structs.replace(state, banned=True, ban_reason=event.reason)
    if isinstance(event, PlayerUnbanned):
        return msgspec.structs.replace(state, banned=False, ban_reason=None)
    return state


def fold(events: list[Any]) -> Sanctions:
    state = Sanctions()
    for event in events:
        state = evolve(state, event)
    return state


def report(*, report_id: str, reporter: str, player_id: str, reason: str, match_id: str | None = None,
           message_id: str | None = None, message: dict[str, Any] | None = None) -> ReportFiled:
    if reporter == player_id:
        raise RuleViolation("cannot_report_self", "a report is about somebody else")
    return ReportFiled(report_id=report_id, reporter=reporter, player_id=player_id, reason=reason,
                       match_id=match_id, message_id=message_id, message=message)


def mute(state: Sanctions, *, player_id: str, admin: str, minutes: int, reason: str, now: datetime,
         report_id: str | None = None) -> PlayerMuted:
    """A mute from `now` for `minutes` (it replaces a running one: a shorter one shortens it)."""
    if not 1 <= minutes <= MAX_MUTE_MINUTES:
        raise RuleViolation("bad_duration", f"a mute lasts 1 to {MAX_MUTE_MINUTES} minutes",
                            {"max": MAX_MUTE_MINUTES})
    until = (now + timedelta(minutes=minutes)).isoformat(timespec="seconds")
    return PlayerMuted(player_id=player_id, admin=admin, until=until, reason=reason, report_id=report_id)


def unmute(state: Sanctions, *, player_id: str, admin: str, reason: str, now: datetime) -> PlayerUnmuted:
    if not state.muted(now):
        raise RuleViolation("not_muted", "this player is not muted")
    return PlayerUnmuted(player_id=player_id, admin=admin, reason=reason)


def ban(state: Sanctions, *, player_id: str, admin: str, reason: str, report_id: str | None = None) -> PlayerBanned:
    if state.banned:
        raise RuleViolation("already_banned", "this player is already banned", {"reason": state.ban_reason})
    return PlayerBanned(player_id=player_id, admin=admin, reason=reason, report_id=report_id)


def unban(state: Sanctions, *, player_id: str, admin: str, reason: str) -> PlayerUnbanned:
    if not state.banned:
        raise RuleViolation("not_banned", "this player is not banned")
    return PlayerUnbanned(player_id=player_id, admin=admin, reason=reason)


def resolve(filed: list[Any], *, admin: str, action: str, reason: str) -> ReportResolved:
    """What an admin did about a report (its stream's events so far); once only."""
    if not filed or not isinstance(filed[0], ReportFiled):
        raise RuleViolation("unknown_report", "no such report")
    if any(isinstance(e, ReportResolved) for e in filed):
        raise RuleViolation("report_closed", "this report was already dealt with")
    return ReportResolved(report_id=filed[0].report_id, admin=admin, action=action, reason=reason)
