"""The moderation service: reports, an admin's mutes and bans, and who they stop.

Reports go to `report-<id>`; a player's mutes and bans to `moderation-<player id>` (the rules:
`domain.moderation`). Every admin action is an event of those streams and an entry of the
day's audit (`services.audit.append_audit`), written before the answer leaves. A mute
stops the player's chat (403 `chat_muted`, with `until`); a ban stops his chat, his reports
and his coming to any table — the one door to a seat, `services.matches.seating`, reads his ban
wherever he would sit or be sat, and when he would invite (403 `player_banned`, with the
reason); what he is already playing goes on (his seat's clock and the bots cover it).
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import msgspec

from domain import moderation as rules
from domain.game import RuleViolation
from infra import streams
from infra.players import Principal
from infra.serialization import EventRegistry
from infra.store import ConcurrencyError
from services.chat.service import ChatService
from services.matches import seating
from services.refusals import Forbidden, NotFound
from services.runtime import Runtime

REGISTRY = EventRegistry()
REGISTRY.register_all((*rules.REPORT_EVENTS, *rules.SANCTION_EVENTS))
MUTED, BANNED = "chat_muted", seating.BANNED
_decode = msgspec.json.Decoder(dict).decode


def _fingerprint(*parts: Any) -> bytes:
    return hashlib.sha256(msgspec.json.encode(parts)).digest()


def _now() -> datetime:
    return datetime.now(UTC)


def sanctions_out(player_id: str, state: rules.Sanctions, now: datetime | None = None) -> dict[str, Any]:
    muted = state.muted(now or _now())
    return {"player_id": player_id, "muted_until": state.muted_until if muted else None,
            "mute_reason": state.mute_reason if muted else None, "banned": state.banned,
            "ban_reason": state.ban_reason, "version": state.version}


class ModerationService:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime, self.store = runtime, runtime.store

    async def sanctions(self, player_id: str) -> rules.Sanctions:
        return await seating.sanctions(self.store, player_id)

    async def ensure_not_banned(self, player_id: str) -> None:
        await seating.ensure_not_banned(self.store, player_id)

    async def ensure_may_chat(self, player_id: str) -> None:
        state = await self.sanctions(player_id)
        if state.banned:
            raise Forbidden(BANNED, f"you are banned: {state.ban_reason}", {"reason": state.ban_reason})
        if state.muted(_now()):
            raise Forbidden(MUTED, f"you are muted until {state.muted_until}",
                          {"until": state.muted_until, "reason": state.mute_reason})

    # --- reports --------------------------------------------------------------------------

    async def report(self, reporter: Principal, *, reason: str, player_id: str | None, match_id: str | None,
                     message_id: str | None, command_id: uuid.UUID | None) -> dict[str, Any]:
        await self.ensure_not_banned(reporter.player_id)
        message = None
        if message_id is not None:
            assert match_id is not None
            message = await self._message(reporter, match_id, message_id)
            if player_id is not None and player_id != message["player_id"]:
                raise RuleViolation("report_mismatch", "this message is not that player's",
                                    {"player_id": message["player_id"]})
            player_id = message["player_id"]
        assert player_id is not None
        if await self.runtime.players.get(player_id) is None:
            raise NotFound("unknown_player", f"no player {player_id!r}", {"player_id": player_id})
        command_id = command_id or uuid.uuid4()
        report_id = str(uuid.uuid5(command_id, f"report:{reporter.player_id}"))
        event = rules.report(report_id=report_id, reporter=reporter.player_id, player_id=player_id,
                             reason=reason, match_id=match_id, message_id=message_id, message=message)
        result = await self.store.append(streams.report_stream(report_id), 0, [REGISTRY.encode(event)],
                                         command_id=command_id,
                                         request_hash=_fingerprint("report", reporter.player_id, player_id, match_id,
                                                                   message_id, reason))
        filed = {k: v for k, v in msgspec.to_builtins(REGISTRY.decode_recorded(result.events[0])).items() if k != "type"}
        return {**filed, "status": "open", "resolution": None,
                "created_at": result.events[0].recorded_at.isoformat()}

    async def _message(self, reporter: Principal, match_id: str, message_id: str) -> dict[str, Any]:
        """The reported message as the reporter may read it (404 `unknown_message` otherwise)."""
        chat = ChatService(self.runtime)
        state, reader = await chat.reader(match_id, reporter, "report")
        for row in await chat.history(state, reader, None, 10_000):
            if row["message_id"] == message_id:
                return {k: row[k] for k in ("player_id", "channel", "seat", "preset", "text", "phase", "version",
                                            "at")}
        raise NotFound("unknown_message", f"no message {message_id!r} in this match's chat",
                      {"match_id": match_id, "message_id": message_id})

    async def dismiss(self, admin: Principal, report_id: str, reason: str) -> dict[str, Any]:
        await self._resolve(admin, report_id, "dismissed", reason, uuid.uuid4())
        await self._audit(admin, "dismiss_report", {"report_id": report_id, "reason": reason})
        return {"report_id": report_id, "status": "dismissed"}

    async def _resolve(self, admin: Principal, report_id: str, action: str, reason: str,
                       command_id: uuid.UUID) -> None:
        stream = streams.report_stream(report_id)
        recorded = await self.store.read_stream(stream)
        events = [REGISTRY.decode_recorded(r) for r in recorded]
        fingerprint = _fingerprint("resolve", report_id, action, reason, admin.player_id)
        if await self.store.command_result(stream, command_id, fingerprint) is not None:
            return
        event = rules.resolve(events, admin=admin.player_id, action=action, reason=reason)
        await self.store.append(stream, len(events), [REGISTRY.encode(event)], command_id=command_id,
                                request_hash=fingerprint)

    # --- sanctions ------------------------------------------------------------------------

    async def sanction(self, admin: Principal, player_id: str, action: str, *, reason: str, minutes: int = 0,
                       report_id: str | None = None, command_id: uuid.UUID | None = None) -> dict[str, Any]:
        """`mute` (for `minutes`), `unmute`, `ban` or `unban`; a report it names is resolved."""
        if await self.runtime.players.get(player_id) is None:
            raise NotFound("unknown_player", f"no player {player_id!r}", {"player_id": player_id})
        if report_id is not None:
            filed = await self.store.read_stream(streams.report_stream(report_id))
            if not filed:
                raise NotFound("unknown_report", f"no report {report_id!r}", {"report_id": report_id})
        command_id = command_id or uuid.uuid4()
        stream = streams.moderation_stream(player_id)
        fingerprint = _fingerprint(action, player_id, reason, minutes, report_id, admin.player_id)
        decide: dict[str, Callable[[rules.Sanctions], Any]] = {
            "mute": lambda s: rules.mute(s, player_id=player_id, admin=admin.player_id, minutes=minutes, reason=reason,
                                         now=_now(), report_id=report_id),
            "unmute": lambda s: rules.unmute(s, player_id=player_id, admin=admin.player_id, reason=reason,
                                             now=_now()),
            "ban": lambda s: rules.ban(s, player_id=player_id, admin=admin.player_id, reason=reason,
                                       report_id=report_id),
            "unban": lambda s: rules.unban(s, player_id=player_id, admin=admin.player_id, reason=reason)}
        if await self.store.command_result(stream, command_id, fingerprint) is None:
            await self._append(stream, player_id, decide[action], command_id, fingerprint)
            if report_id is not None and action in ("mute", "ban"):
                try:
                    await self._resolve(admin, report_id, "banned" if action == "ban" else "muted", reason,
                                        uuid.uuid5(command_id, "resolve"))
                except RuleViolation:
                    pass                      # already dealt with: the sanction stands on its own
            state = await self.sanctions(player_id)
            await self._audit(admin, action, {"player_id": player_id, "reason": reason, "report_id": report_id,
                                              "until": state.muted_until if action == "mute" else None})
        return sanctions_out(player_id, await self.sanctions(player_id))

    async def _append(self, stream: str, player_id: str, decide: Callable[[rules.Sanctions], Any],
                      command_id: uuid.UUID, fingerprint: bytes) -> None:
        for attempt in range(10):
            state = await self.sanctions(player_id)
            event = decide(state)
            try:
                await self.store.append(stream, state.version, [REGISTRY.encode(event)], command_id=command_id,
                                        request_hash=fingerprint)
                return
            except ConcurrencyError:
                await asyncio.sleep(0.005 * (attempt + 1))
        raise ConcurrencyError(stream, -1, -1)

    async def _audit(self, admin: Principal, action: str, detail: dict[str, Any]) -> None:
        from services.audit import append_audit

        await append_audit(self.store, admin, action, detail=detail)


def chat_checks(runtime: Runtime) -> tuple[Callable[[str], Awaitable[None]], ...]:
    """What the chat asks before it sends a player's message: neither banned nor muted."""
    return (ModerationService(runtime).ensure_may_chat,)
