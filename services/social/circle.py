"""Follow and block: one small handler per command over the caller's `social-<id>` stream.

Load the caller's circle, decide (`domain.social`: the limits hold exactly, the stream's
version guards them), append. What other features ask — is this player blocked by that one,
by anyone at this table — is answered by the `social_ties` read model
(`infra.projections.social`), re-exported here as `is_blocked` for them.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections.abc import Callable
from typing import Any

import msgspec

from domain import social as cases
from domain.game import RuleViolation
from infra import streams
from infra.players import Principal
from infra.projections import social as ties
from infra.serialization import EventRegistry
from infra.store import ConcurrencyError
from services.refusals import NotFound, NotNow
from services.runtime import Runtime

REGISTRY = EventRegistry()
REGISTRY.register_all(cases.SOCIAL_EVENTS)
COMMANDS: dict[str, Callable[[cases.Circle, str, str], list[Any]]] = {
    "follow": cases.follow, "unfollow": cases.unfollow, "block": cases.block, "unblock": cases.unblock}


async def is_blocked(runtime: Runtime, blocker: str, blocked: str) -> bool:
    """Whether `blocker` blocks `blocked` — e.g. whether `blocked` may talk to `blocker`.
    From the `social_ties` read model: it follows a block within the projector's poll."""
    return await ties.is_blocked(runtime.pool, blocker, blocked)


async def load(runtime: Runtime, player_id: str) -> cases.Circle:
    recorded = await runtime.store.read_stream(streams.social_stream(player_id))
    return cases.fold([REGISTRY.decode_recorded(r) for r in recorded])


async def change(runtime: Runtime, principal: Principal, command: str, player_id: str,
                 command_id: uuid.UUID | None = None) -> bool:
    """Follow, unfollow, block or unblock `player_id`; whether anything changed (doing it
    twice changes nothing). A retried `command_id` is answered, not applied again."""
    me = principal.player_id
    stream = streams.social_stream(me)
    fingerprint = hashlib.sha256(msgspec.json.encode([command, me, player_id])).digest()
    if command_id is not None and await runtime.store.command_result(stream, command_id, fingerprint) is not None:
        return False
    if command in ("follow", "block") and await runtime.players.get(player_id) is None:
        raise NotFound("unknown_player", f"no player {player_id!r}", {"player_id": player_id})
    for attempt in range(5):
        state = await load(runtime, me)
        try:
            events = COMMANDS[command](state, me, player_id)
        except RuleViolation as violation:
            raise NotNow(violation.code, violation.message, violation.details) from None
        if not events:
            return False
        try:
            await runtime.store.append(stream, state.version, [REGISTRY.encode(e) for e in events],
                                       command_id=command_id or uuid.uuid4(), request_hash=fingerprint)
            return True
        except ConcurrencyError:
            await asyncio.sleep(0.005 * (attempt + 1))
    raise ConcurrencyError(stream, -1, -1)
