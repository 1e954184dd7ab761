"""A player's circle: whom he follows and whom he blocks, as a decider over his own stream.

Each player's choices live in `social-<player id>`, written only by him, so the limits below
hold exactly (the stream's version guards them) and his circle replays from its events.
Following someone shows his open tables and the matches he plays (never a private table);
blocking someone keeps him from inviting me, from sitting at a table I host or sit at, and
from talking to me. Blocking a player I follow stops following him: I chose not to see him.
Following or blocking twice, or undoing what is not there, changes nothing (no event).
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.game import verify

MAX_FOLLOWING = 500     # players one may follow at once
MAX_BLOCKED = 500       # players one may block at once


class PlayerFollowed(msgspec.Struct, frozen=True, tag="player_followed"):
    by: str
    player_id: str


class PlayerUnfollowed(msgspec.Struct, frozen=True, tag="player_unfollowed"):
    by: str
    player_id: str


class PlayerBlocked(msgspec.Struct, frozen=True, tag="player_blocked"):
    by: str
    player_id: str


class PlayerUnblocked(msgspec.Struct, frozen=True, tag="player_unblocked"):
    by: str
    player_id: str


SOCIAL_EVENTS = (PlayerFollowed, PlayerUnfollowed, PlayerBlocked, PlayerUnblocked)


class Circle(msgspec.Struct, frozen=True):
    following: frozenset[str] = frozenset()
    blocked: frozenset[str] = frozenset()
    version: int = 0


def evolve(state: Circle, event: Any) -> Circle:
    state = msgspec.structs.replace(state, version=state.version + 1)
    if isinstance(event, PlayerFollowed):
        return msgspec.structs.replace(state, following=state.following | {event.player_id})
    if isinstance(event, PlayerUnfollowed):
        return msgspec.structs.replace(state, following=state.following - {event.player_id})
    if isinstance(event, PlayerBlocked):
        return msgspec.structs.replace(state, blocked=state.blocked | {event.player_id})
    if isinstance(event, PlayerUnblocked):
        return msgspec.structs.replace(state, blocked=state.blocked - {event.player_id})
    return state


def fold(events: list[Any]) -> Circle:
    state = Circle()
    for event in events:
        state = evolve(state, event)
    return state


def follow(state: Circle, by: str, player_id: str) -> list[Any]:
    verify(player_id != by, "cannot_follow_yourself", "you cannot follow yourself")
    if player_id in state.following:
        return []
    verify(player_id not in state.blocked, "player_blocked", "you block this player: unblock him to follow him")
    verify(len(state.following) < MAX_FOLLOWING, "too_many_follows",
           f"you follow {MAX_FOLLOWING} players already, the most one may", limit=MAX_FOLLOWING)
    return [PlayerFollowed(by=by, player_id=player_id)]


def unfollow(state: Circle, by: str, player_id: str) -> list[Any]:
    return [PlayerUnfollowed(by=by, player_id=player_id)] if player_id in state.following else []


def block(state: Circle, by: str, player_id: str) -> list[Any]:
    verify(player_id != by, "cannot_block_yourself", "you cannot block yourself")
    if player_id in state.blocked:
        return []
    verify(len(state.blocked) < MAX_BLOCKED, "too_many_blocks",
           f"you block {MAX_BLOCKED} players already, the most one may", limit=MAX_BLOCKED)
    out: list[Any] = [PlayerUnfollowed(by=by, player_id=player_id)] if player_id in state.following else []
    return [*out, PlayerBlocked(by=by, player_id=player_id)]


def unblock(state: Circle, by: str, player_id: str) -> list[Any]:
    return [PlayerUnblocked(by=by, player_id=player_id)] if player_id in state.blocked else []
