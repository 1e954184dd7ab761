"""Invitations and challenges: send, accept (take the seat), decline, cancel.

One small handler per command over the `invitation-<id>` stream (`domain.invitations`):
load, decide, append. What depends on the match — who may invite to it (its host or a
player seated at it), whether it is still open and has the seat — is checked here against the
match, and the one door to a seat (`services.matches.seating`) says whether the sender may invite at
all (not while banned) and these players (no block between any two of them), before the
decider is asked. Accepting takes the seat first (through `services.matches.tables.take_seat`, with a
command id of the invitation's own, so a retry sits down once) and then records the answer;
a seat that can no longer be taken leaves the invitation pending and says why.

A retried command (the same `command_id`) is answered with the invitation as it now stands,
never applied twice; the same id with another body is 409 `command_conflict`.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import datetime, timezone
from typing import Any

import msgspec

from domain import invitations as cases
from domain.cards import Seat
from domain.game import RuleViolation
from infra import streams
from infra.players import Principal
from infra.projections import invitations as listed
from infra.serialization import EventRegistry
from services.matches import seating, tables
from services.matches.service import UnknownMatch
from services.refusals import Forbidden, NotFound, NotNow, Refused
from services.runtime import Runtime
from services.social import invitation_limits as limits

REGISTRY = EventRegistry()
REGISTRY.register_all(cases.INVITATION_EVENTS)
FORBIDDEN_CODES = {"not_your_invitation"}


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _fingerprint(*parts: Any) -> bytes:
    return hashlib.sha256(msgspec.json.encode(parts)).digest()


def _refused(violation: RuleViolation) -> Refused:
    kind = Forbidden if violation.code in FORBIDDEN_CODES else NotNow
    return kind(violation.code, violation.message, violation.details)


async def load(runtime: Runtime, invitation_id: str) -> cases.Invitation:
    recorded = await runtime.store.read_stream(streams.invitation_stream(invitation_id))
    if not recorded:
        raise NotFound("unknown_invitation", f"no invitation {invitation_id!r}", {"invitation_id": invitation_id})
    return cases.fold([REGISTRY.decode_recorded(r) for r in recorded])


async def _append(runtime: Runtime, state: cases.Invitation, events: list[Any], command_id: uuid.UUID,
                  fingerprint: bytes) -> cases.Invitation:
    await runtime.store.append(streams.invitation_stream(state.invitation_id or events[0].invitation_id),
                               state.version, [REGISTRY.encode(e) for e in events], command_id=command_id,
                               request_hash=fingerprint)
    return await load(runtime, state.invitation_id or events[0].invitation_id)


async def _replayed(runtime: Runtime, invitation_id: str, command_id: uuid.UUID | None,
                    fingerprint: bytes) -> cases.Invitation | None:
    """The invitation, when this command was already recorded on it (its first answer stands)."""
    if command_id is None:
        return None
    if await runtime.store.command_result(streams.invitation_stream(invitation_id), command_id, fingerprint) is None:
        return None
    return await load(runtime, invitation_id)


def _free_side(state: Any) -> tuple[str, str]:
    for side in cases.PARTNERSHIPS:
        if all(state.seats.get(s) is None for s in side):
            return side
    raise NotNow("match_full", "no side of this table has both its seats free for a partnership")


async def invite(runtime: Runtime, principal: Principal, match_id: str, players: list[str],
                 seats: list[str | None], expires_in: int | None, command_id: uuid.UUID | None) -> cases.Invitation:
    """Invite one player (to `seats[0]`, or any free seat) or challenge a partnership of two
    (to the two seats of one side: those named, or the first side with both free)."""
    me = principal.player_id
    if len(set(players)) != len(players):
        raise NotNow("bad_invitees", "a partnership is two different players")
    if me in players:
        raise NotNow("cannot_invite_yourself", "you cannot invite yourself")
    command_id = command_id or uuid.uuid4()
    invitation_id = str(uuid.uuid5(command_id, f"invitation:{match_id}"))
    fingerprint = _fingerprint("invite", match_id, me, players, seats, expires_in)
    if (first := await _replayed(runtime, invitation_id, command_id, fingerprint)) is not None:
        return first
    state = await runtime.matches.load(match_id)
    if tables.seat_of(state, me) is None and state.host != me:
        if await runtime.visibility.hidden(principal, state, None):
            raise UnknownMatch(match_id)
        raise Forbidden("forbidden", "only the host or a player seated at a match may invite to it")
    if state.status != "open":
        raise NotNow("match_not_open", "the match has started: nobody can be invited to it any more",
                      {"status": state.status})
    if not state.free_seats:
        raise NotNow("match_full", "every seat of this match is taken")
    if len(players) == 2 and not any(seats):
        seats = list(_free_side(state))
    for player, seat in zip(players, seats):
        if await runtime.players.get(player) is None:
            raise NotFound("unknown_player", f"no player {player!r}", {"player_id": player})
        if tables.seat_of(state, player) is not None:
            raise NotNow("already_seated", "this player already holds a seat in this match",
                          {"player_id": player})
        if seat is not None and state.seats.get(seat) is not None:
            raise NotNow("seat_taken", f"seat {seat} is already taken", {"seat": seat})
    await seating.may_invite(runtime.store, me, players)
    try:
        events = cases.send(invitation_id, match_id, state.game_name, me, dict(zip(players, seats)),
                            cases.expiry(_now(), expires_in))
    except RuleViolation as violation:
        raise _refused(violation) from None
    async with limits.held(runtime.pool, match_id, me, players):    # counted and appended as one
        return await _append(runtime, cases.Invitation(), events, command_id, fingerprint)


async def accept(runtime: Runtime, principal: Principal, invitation_id: str, entropy: str | None,
                 command_id: uuid.UUID | None) -> tuple[cases.Invitation, Any]:
    """Take the invited seat (or the first free one), then record the acceptance. Returns the
    invitation and the seat command's outcome (None when this acceptance was a retry)."""
    me = principal.player_id
    fingerprint = _fingerprint("accept", invitation_id, me, entropy)
    if (first := await _replayed(runtime, invitation_id, command_id, fingerprint)) is not None:
        return first, None
    state = await load(runtime, invitation_id)
    try:
        cases.check_acceptable(state, me, _now())
    except RuleViolation as violation:
        raise _refused(violation) from None
    match = await runtime.matches.load(state.match_id)
    if match.status != "open":
        raise NotNow("match_not_open", "the match has started without you", {"status": match.status})
    seat = state.invitees.get(me) or next((str(s) for s in match.free_seats), None)
    if seat is None:
        raise NotNow("match_full", "every seat of this match is taken")
    seat_command = tables.command_id_for(state.match_id, f"invitation-{invitation_id}-{me}")
    try:
        outcome = await tables.take_seat(runtime.matches, principal, state.match_id, Seat(seat), entropy,
                                         seat_command, invited=True)
    except RuleViolation as violation:     # taken meanwhile, or he sat elsewhere at this table
        raise NotNow(violation.code, violation.message, violation.details) from None
    events = cases.accept(state, me, seat, _now())
    return await _append(runtime, state, events, command_id or uuid.uuid4(), fingerprint), outcome


async def decline(runtime: Runtime, principal: Principal, invitation_id: str,
                  command_id: uuid.UUID | None) -> cases.Invitation:
    fingerprint = _fingerprint("decline", invitation_id, principal.player_id)
    if (first := await _replayed(runtime, invitation_id, command_id, fingerprint)) is not None:
        return first
    state = await load(runtime, invitation_id)
    try:
        events = cases.decline(state, principal.player_id, _now())
    except RuleViolation as violation:
        raise _refused(violation) from None
    return await _append(runtime, state, events, command_id or uuid.uuid4(), fingerprint)


async def cancel(runtime: Runtime, principal: Principal, invitation_id: str,
                 command_id: uuid.UUID | None) -> cases.Invitation:
    fingerprint = _fingerprint("cancel", invitation_id, principal.player_id)
    if (first := await _replayed(runtime, invitation_id, command_id, fingerprint)) is not None:
        return first
    state = await load(runtime, invitation_id)
    try:
        events = cases.cancel(state, principal.player_id, _now())
    except RuleViolation as violation:
        raise _refused(violation) from None
    return await _append(runtime, state, events, command_id or uuid.uuid4(), fingerprint)


def shown(state: cases.Invitation, player_id: str) -> dict[str, Any]:
    """An invitation as its sender or an invitee sees it (nobody else sees it at all)."""
    if player_id != state.by and player_id not in state.invitees:
        raise NotFound("unknown_invitation", f"no invitation {state.invitation_id!r}",
                      {"invitation_id": state.invitation_id})
    return {"invitation_id": state.invitation_id, "match_id": state.match_id, "game": state.game, "kind": state.kind,
            "by": state.by, "invitees": dict(state.invitees), "accepted": dict(state.accepted),
            "status": state.status(_now()), "expires_at": state.expires_at}


async def audience(runtime: Runtime, match_id: str) -> set[str]:
    """Who an invitation admits to watch a private table (the visibility policy's lookup)."""
    return await listed.invited_players(runtime.pool, match_id)
