"""Invitations and challenges: who is asked to sit at which match, and what he answered.

An invitation lives in its own stream (`invitation-<id>`), never the match's: asking a friend
must not move a match's version under the players already seated, and it outlives the match's
open phase as a record of what was asked. A *seat* invitation asks one player to one seat (or
to any free seat); a *challenge* asks a partnership (two players) to take the two seats of
one side of my table. Each invitee answers for himself: accepting takes his seat (the match's
own rules decide whether it still can), declining a challenge declines it for both, since a
partnership of one cannot play.

Pure: the service hands in the time (`now`), and checks what depends on the match itself
(open, free seats, blocks) before it asks here. Events name the sender and the invitees so
that read models and account notices need nothing but the event.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import msgspec

from domain.game import verify

KINDS = ("seat", "challenge")
DEFAULT_TTL = 86_400          # seconds an invitation stays open unless `expires_in` says otherwise
MIN_TTL, MAX_TTL = 60, 7 * 86_400
MAX_PENDING_PER_MATCH = 20    # invitations a match may have waiting for an answer at once
MAX_RECEIVED = 50             # invitations a player may have waiting for his answer at once
MAX_FROM_ONE = 3              # of them, from one sender
PARTNERSHIPS = (("N", "S"), ("E", "W"))


class InvitationSent(msgspec.Struct, frozen=True, tag="invitation_sent"):
    invitation_id: str
    match_id: str
    game: str
    kind: str                          # seat | challenge
    by: str                            # the sender's player id (events carry ids only)
    invitees: dict[str, str | None]    # invited player id -> the seat he is asked to (None: any free seat)
    expires_at: str                    # ISO 8601, UTC


class InvitationAccepted(msgspec.Struct, frozen=True, tag="invitation_accepted"):
    invitation_id: str
    match_id: str
    by: str                            # the sender, told of the answer
    player_id: str
    seat: str


class InvitationDeclined(msgspec.Struct, frozen=True, tag="invitation_declined"):
    invitation_id: str
    match_id: str
    by: str
    player_id: str


class InvitationCancelled(msgspec.Struct, frozen=True, tag="invitation_cancelled"):
    invitation_id: str
    match_id: str
    by: str
    invitees: list[str]                # told that it is off


INVITATION_EVENTS = (InvitationSent, InvitationAccepted, InvitationDeclined, InvitationCancelled)


class Invitation(msgspec.Struct, frozen=True):
    invitation_id: str = ""
    match_id: str = ""
    game: str = ""
    kind: str = "seat"
    by: str = ""
    invitees: dict[str, str | None] = {}
    expires_at: str = ""
    accepted: dict[str, str] = {}      # player id -> the seat he took
    declined_by: str | None = None
    cancelled: bool = False
    version: int = 0

    def status(self, now: datetime) -> str:
        """pending, accepted (every invitee sat down), declined, cancelled or expired."""
        if self.cancelled:
            return "cancelled"
        if self.declined_by is not None:
            return "declined"
        if self.invitees and set(self.accepted) == set(self.invitees):
            return "accepted"
        if now >= datetime.fromisoformat(self.expires_at):
            return "expired"
        return "pending"


def evolve(state: Invitation, event: Any) -> Invitation:
    state = msgspec.structs.replace(state, version=state.version + 1)
    if isinstance(event, InvitationSent):
        return msgspec.structs.replace(state, invitation_id=event.invitation_id, match_id=event.match_id,
                                       game=event.game, kind=event.kind, by=event.by, invitees=dict(event.invitees),
                                       expires_at=event.expires_at)
    if isinstance(event, InvitationAccepted):
        return msgspec.structs.replace(state, accepted={**state.accepted, event.player_id: event.seat})
    if isinstance(event, InvitationDeclined):
        return msgspec.structs.replace(state, declined_by=event.player_id)
    if isinstance(event, InvitationCancelled):
        return msgspec.structs.replace(state, cancelled=True)
    return state


def fold(events: list[Any]) -> Invitation:
    state = Invitation()
    for event in events:
        state = evolve(state, event)
    return state


def expiry(now: datetime, expires_in: int | None) -> datetime:
    """When an invitation sent `now` lapses; `expires_in` seconds, MIN_TTL..MAX_TTL."""
    ttl = DEFAULT_TTL if expires_in is None else expires_in
    verify(MIN_TTL <= ttl <= MAX_TTL, "bad_expiry", f"expires_in is {MIN_TTL} to {MAX_TTL} seconds",
           min=MIN_TTL, max=MAX_TTL)
    return now + timedelta(seconds=ttl)


def send(invitation_id: str, match_id: str, game: str, by: str, invitees: dict[str, str | None],
         expires_at: datetime) -> list[Any]:
    """A seat invitation (one invitee) or a challenge (two, on the two seats of one side)."""
    verify(by not in invitees, "cannot_invite_yourself", "you cannot invite yourself")
    verify(len(invitees) in (1, 2), "bad_invitees", "invite one player, or a partnership of two")
    kind = "seat" if len(invitees) == 1 else "challenge"
    if kind == "challenge":
        seats = tuple(sorted(s for s in invitees.values() if s is not None))
        verify(any(seats == tuple(sorted(p)) for p in PARTNERSHIPS), "bad_invitees",
               "a challenge asks a partnership to the two seats of one side: N and S, or E and W")
    return [InvitationSent(invitation_id=invitation_id, match_id=match_id, game=game, kind=kind, by=by,
                           invitees=dict(invitees), expires_at=expires_at.isoformat())]


def _answerable(state: Invitation, player_id: str, now: datetime) -> None:
    verify(player_id in state.invitees, "not_your_invitation", "this invitation is not addressed to you")
    verify(player_id not in state.accepted, "invitation_accepted", "you have already accepted this invitation")
    status = state.status(now)
    verify(status != "expired", "invitation_expired", "this invitation has expired", expires_at=state.expires_at)
    verify(status == "pending", f"invitation_{status}", f"this invitation was {status}")


def accept(state: Invitation, player_id: str, seat: str, now: datetime) -> list[Any]:
    """`seat`: the one the invitee was given (the service took it for him just before)."""
    _answerable(state, player_id, now)
    return [InvitationAccepted(invitation_id=state.invitation_id, match_id=state.match_id, by=state.by,
                               player_id=player_id, seat=seat)]


def check_acceptable(state: Invitation, player_id: str, now: datetime) -> None:
    """What `accept` checks, before the service takes the seat it is about."""
    _answerable(state, player_id, now)


def decline(state: Invitation, player_id: str, now: datetime) -> list[Any]:
    _answerable(state, player_id, now)
    return [InvitationDeclined(invitation_id=state.invitation_id, match_id=state.match_id, by=state.by,
                               player_id=player_id)]


def cancel(state: Invitation, player_id: str, now: datetime) -> list[Any]:
    verify(player_id == state.by, "not_your_invitation", "only its sender may cancel an invitation")
    status = state.status(now)
    verify(status == "pending", f"invitation_{status}", f"this invitation was {status}")
    return [InvitationCancelled(invitation_id=state.invitation_id, match_id=state.match_id, by=state.by,
                                invitees=sorted(p for p in state.invitees if p not in state.accepted))]
