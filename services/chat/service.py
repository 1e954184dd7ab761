"""The table chat's service: send a message, read the history, and who reads what.

One handler per command, as for a match: load (the match's state, the sender's sanctions),
decide (`domain.chat.decide`), append to `chat-<match id>`. Appends retry on a concurrent
message (many spectators, one stream) with the same command id, so a retried command is
answered with its first answer and never sent twice. The visibility policy
(`services.visibility`) decides who may read the chat at all (whoever may watch the match)
and which messages reach a seat (`chat_shown`); the messages of a player the reader blocks
never reach him either (`blocked_among`): he still sends, others still read him.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import uuid
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import msgspec

from domain import chat
from domain import match as rules
from domain.game import RuleViolation
from infra import streams
from infra.players import Principal
from infra.projections.chat_publisher import chat_event
from infra.ratelimit import RateLimit, RateLimiter
from infra.serialization import EventRegistry
from infra.store import ConcurrencyError
from services.refusals import BadField, Forbidden, NotNow, Refused, TooMany
from services.runtime import Runtime
from services.social.circle import is_blocked
from services.visibility import PRIVILEGED_WHILE_PLAYING, chat_shown, seat_of

REGISTRY = EventRegistry()
REGISTRY.register_all(chat.CHAT_EVENTS)
RATE_LIMITED = "chat_rate_limited"



async def blocked_among(runtime: Runtime, reader: str, senders: Iterable[str]) -> frozenset[str]:
    """Those of `senders` whom `reader` blocks: their words never reach him (the social
    feature's block list, `services.social.circle.is_blocked`, from its read model)."""
    return frozenset([s for s in sorted(set(senders)) if s != reader and await is_blocked(runtime, reader, s)])


class Reader(msgspec.Struct, frozen=True):
    """Who reads a match's chat: the seat he holds (None: a spectator) and whom he blocked."""

    player_id: str
    seat: str | None
    blocked: frozenset[str] = frozenset()

    @property
    def seated(self) -> bool:
        return self.seat is not None


def message_out(version: int, data: dict[str, Any], at: Any, names: dict[str, str]) -> dict[str, Any]:
    """A message as the history shows it: the live message's event (the sender's name, None
    once erased; the time it was recorded) with its chat-stream version."""
    return {"version": version, **chat_event(data, at, names.get(data["player_id"]))}


def shown(reader: Reader, data: dict[str, Any], phase_now: str) -> bool:
    """Whether `reader` receives this message (its event's fields): the policy's
    `chat_shown`, and never the words of a player he blocked."""
    return data.get("player_id") not in reader.blocked and chat_shown(reader.seated, data["channel"], data["phase"],
                                                                       phase_now)


def view(state: rules.MatchState, reader: Reader, version: int) -> dict[str, Any]:
    """What a reader needs to write: his channel, whether free text is his now, the presets."""
    phase = chat.phase_of(state.status)
    return {"match_id": state.match_id, "status": state.status, "phase": phase, "seat": reader.seat,
            "channel": chat.TABLE if reader.seated else chat.SPECTATORS,
            "free_text": not (reader.seated and phase == "playing"), "presets": list(chat.PRESETS),
            "max_text": chat.MAX_TEXT, "version": version}


_decode = msgspec.json.Decoder(dict).decode


def _fingerprint(*parts: Any) -> bytes:
    return hashlib.sha256(msgspec.json.encode(parts)).digest()


class ChatService:
    """`checks`: async `check(player_id)` run before a message is sent (moderation: a mute,
    a ban), each raising `Refused` to stop it."""

    def __init__(self, runtime: Runtime, checks: tuple[Callable[[str], Awaitable[None]], ...] = ()) -> None:
        self.runtime, self.store, self.checks = runtime, runtime.store, checks
        settings = runtime.settings
        self.limiter = RateLimiter(runtime.redis, f"{settings.redis_prefix}:chat",
                                   RateLimit(settings.chat_rate_messages, settings.chat_rate_window))

    async def reader(self, match_id: str, principal: Principal, route: str) -> tuple[rules.MatchState, Reader]:
        """The match (UnknownMatch: 404) and its reader, or `Refused` 403 for whoever may not
        watch it (the policy's code; a privileged refusal written to the audit first)."""
        state = await self.runtime.matches.load(match_id)
        seat = seat_of(state, principal.player_id)
        if seat is None:
            refused = await self.runtime.visibility.check(principal, state, "view")
            if refused is not None:
                if refused.code == PRIVILEGED_WHILE_PLAYING:
                    from services.audit import append_audit

                    await append_audit(self.store, principal, "refused", match_id=match_id,
                                       detail={"code": refused.code, "read": "chat", "route": route})
                raise Forbidden(refused.code, refused.message, {"match_id": match_id})
        return state, Reader(principal.player_id, None if seat is None else str(seat))

    async def send(self, match_id: str, principal: Principal, *, preset: str | None, text: str | None,
                   command_id: uuid.UUID) -> dict[str, Any]:
        """Send a message; the first answer again for a command id already sent."""
        stream = streams.chat_stream(match_id)
        try:
            chat.content(preset, text)              # a malformed message is refused before anything is read
        except RuleViolation as error:
            raise refused_rule(error) from None
        state, reader = await self.reader(match_id, principal, "chat")
        fingerprint = _fingerprint("chat", match_id, principal.player_id, preset, text)
        first = await self.store.command_result(stream, command_id, fingerprint)
        if first is not None:
            return await self._answer(match_id, first.events[0])
        for check in self.checks:
            await check(principal.player_id)
        try:
            event = chat.decide(message_id=str(uuid.uuid5(command_id, f"chat:{match_id}")),
                                player_id=principal.player_id, seat=reader.seat, status=state.status,
                                match_version=state.version, preset=preset, text=text)
        except RuleViolation as error:
            raise refused_rule(error) from None
        wait = await self.limiter.hit(f"{match_id}:{principal.player_id}")
        if wait is not None:
            seconds = max(1, math.ceil(wait))
            raise TooMany(RATE_LIMITED, f"at most {self.limiter.limit.requests} messages in "
                                             f"{self.limiter.limit.window:g}s per player per match; retry in {seconds}s",
                          {"retry_after": seconds, "messages": self.limiter.limit.requests,
                           "window": self.limiter.limit.window})
        encoded = [REGISTRY.encode(event)]
        for attempt in range(20):
            try:
                result = await self.store.append(stream, await self.store.stream_version(stream), encoded,
                                                 command_id=command_id, request_hash=fingerprint)
                return await self._answer(match_id, result.events[0])
            except ConcurrencyError:
                await asyncio.sleep(0.002 * (attempt + 1))
        raise ConcurrencyError(stream, -1, -1)

    async def _answer(self, match_id: str, recorded: Any) -> dict[str, Any]:
        data = _decode(recorded.data)
        names = await self.runtime.players.names([data["player_id"]])
        return {"match_id": match_id, "version": recorded.stream_version,
                "message": message_out(recorded.stream_version, data, recorded.recorded_at, names)}

    async def history(self, state: rules.MatchState, reader: Reader | None, before: int | None,
                      limit: int) -> list[dict[str, Any]]:
        """Up to `limit` messages `reader` may read (None: every message, for a reviewing
        admin), newest first, older than chat version `before` (None: the newest)."""
        out: list[dict[str, Any]] = []
        upper = before if before is not None else 2**62
        while len(out) < limit and upper > 1:
            page = await self.runtime.store.read_stream_back(streams.chat_stream(state.match_id), upper, limit)
            if not page:
                break
            upper = page[-1].stream_version
            decoded = [(e.stream_version, _decode(e.data), e.recorded_at) for e in page]
            now = chat.phase_of(state.status)
            if reader is not None:
                reader = msgspec.structs.replace(reader, blocked=await blocked_among(
                    self.runtime, reader.player_id, [d["player_id"] for _, d, _ in decoded]))
            out += [row for row in decoded if reader is None or shown(reader, row[1], now)]
        out = out[:limit]
        names = await self.runtime.players.names(sorted({d["player_id"] for _, d, _ in out}))
        return [message_out(v, d, at, names) for v, d, at in out]


def refused_rule(error: RuleViolation) -> Refused:
    """A chat rule's refusal as the API answers it: a malformed message is a 400 naming the
    body's field, free text during play a 422 (the message is fine, its moment is not)."""
    if error.code == chat.FREE_TEXT_DURING_PLAY:
        return NotNow(error.code, error.message, error.details)
    field = {chat.UNKNOWN_PRESET: "$.preset", chat.ONE_OF: "$"}.get(error.code, "$.text")
    return BadField(error.code, error.message, {"field": field, **error.details})
