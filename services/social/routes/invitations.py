"""Invitation routes: invite to my match, challenge a partnership, my invitations, answer them.

Thin: decode (msgspec), call `services.social.invitations`, show. `FEATURE` declares the feature:
these routes, the `invitations` read model, the notices on the invitees' and senders'
account streams, and the visibility policy's audience of a private table (who is invited).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

import msgspec
from litestar import Request, Response, get, post
from litestar.params import Body

from domain import invitations as cases
from infra.projections import invitations as listed
from services.http import paging
from services.http.auth import authenticated
from services.http.examples import ex
from services.http.ratelimit import rate_limited
from services.http.schemas import (
    BEARER,
    COMMAND_EXAMPLE,
    COMMAND_ID,
    ID_PATTERN,
    MATCH_ID,
    MAX_ID,
    PLAYER_ID,
    Caller,
    CommandOut,
    Entropy,
    FromQuery,
    Limit,
    PathStr,
    Runtime,
    responses,
)
from services.matches.routes.matches import _answer, seating
from services.social import invitations as service

TAGS = ["invitations"]
PLAYER = [authenticated, rate_limited]
SeatName = Literal["N", "E", "S", "W"]
PlayerRef = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID, pattern=ID_PATTERN,
                                        description="a player id")]
ExpiresIn = Annotated[int, msgspec.Meta(ge=cases.MIN_TTL, le=cases.MAX_TTL, description=(
    f"seconds until the invitation lapses: {cases.MIN_TTL} to {cases.MAX_TTL}, default {cases.DEFAULT_TTL}"))]
INVITATION_ID = "3f1d2c4b-8a9e-5f70-b1c2-d3e4f5a6b7c8"
FRIEND_ID = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"


class Invite(msgspec.Struct, forbid_unknown_fields=True):
    player_id: PlayerRef
    seat: SeatName | None = None          # none: whichever seat is free when he accepts
    expires_in: ExpiresIn | None = None
    command_id: uuid.UUID | None = None


class Challenge(msgspec.Struct, forbid_unknown_fields=True):
    players: Annotated[list[str], msgspec.Meta(min_length=2, max_length=2)]   # player ids (unknown: 404)
    seats: Annotated[list[SeatName], msgspec.Meta(min_length=2, max_length=2)] | None = None
    expires_in: ExpiresIn | None = None
    command_id: uuid.UUID | None = None


class Answer(msgspec.Struct, forbid_unknown_fields=True):
    command_id: uuid.UUID | None = None


class Accept(msgspec.Struct, forbid_unknown_fields=True):
    entropy: Entropy | None = None
    command_id: uuid.UUID | None = None


class InvitationOut(msgspec.Struct):
    invitation_id: str
    match_id: str
    game: str
    kind: str                              # seat | challenge
    by: str
    invitees: dict[str, str | None]        # player id -> seat asked (null: any free seat)
    accepted: dict[str, str]               # player id -> seat taken
    status: str                            # pending, accepted, declined, cancelled, expired
    expires_at: str


class ListedInvitationOut(InvitationOut):
    """An invitation as my list shows it: the invitation, and when it was sent (the list's order)."""

    created_at: str


class Accepted(msgspec.Struct):
    invitation: InvitationOut
    match: CommandOut | None               # the seat taken, as my seat sees it (null: a retried acceptance)


INVITATION_EXAMPLE = {"invitation_id": INVITATION_ID, "match_id": MATCH_ID, "game": "belote", "kind": "seat",
                      "by": PLAYER_ID, "invitees": {FRIEND_ID: "S"}, "accepted": {}, "status": "pending",
                      "expires_at": "2025-05-02T18:00:00+00:00"}
CHALLENGE_EXAMPLE = {**INVITATION_EXAMPLE, "kind": "challenge", "invitees": {FRIEND_ID: "E", PLAYER_ID: "W"}}
CODES = ("Codes: 404 `unknown_invitation`; 403 `not_your_invitation`; 422 `invitation_expired`, "
         "`invitation_declined`, `invitation_cancelled`, `invitation_accepted`, `match_not_open` (started), "
         "`match_full`, `seat_taken`; 403 `player_banned` (a banned player accepts none), `blocked` (a block "
         "either way with the host or a seated player: docs/social.md).")


def _out(state: Any, player_id: str) -> InvitationOut:
    return msgspec.convert(service.shown(state, player_id), InvitationOut)


def _created(state: Any, player_id: str) -> Response:
    return Response(_out(state, player_id), status_code=201,
                    headers={"Location": f"/v1/invitations/{state.invitation_id}"})


@post("/v1/matches/{match_id:str}/invitations", guards=PLAYER, tags=TAGS, security=BEARER,
      summary="Invite a player to a seat of my match",
      description="For the match's host or a player seated at it, while it is open. `seat`: the seat he is asked "
                  "to (none: any seat free when he accepts). Expires after `expires_in` seconds (default 86400, "
                  f"{cases.MIN_TTL}..{cases.MAX_TTL}); at most {cases.MAX_PENDING_PER_MATCH} invitations of a match "
                  "wait for an answer at once (422 `too_many_invitations`), at most 50 received by one player "
                  "(`too_many_invitations_received`) and 3 from one sender to one player "
                  "(`too_many_invitations_to_player`), held under concurrent sends (409 `invitation_busy` after 5 s "
                  "of waiting for them). Refused: 422 `match_not_open`, "
                  "`match_full`, `seat_taken`, `already_seated`, `cannot_invite_yourself`; 404 `unknown_player`; "
                  "403 `player_banned` (a banned player invites no one), `blocked` (he blocks you, or you him), "
                  "`forbidden` (not your match). The invitee hears of it on his account stream "
                  "(`invitation_received`). A retried `command_id` invites once.",
      responses=seating(responses(201, InvitationOut, [ex("sent", INVITATION_EXAMPLE)], "The invitation", 400, 401,
                                  403, 404, 409, 422, 429)))
async def invite(match_id: PathStr, data: Annotated[Invite, Body(examples=[
        ex("to the south seat", {"player_id": FRIEND_ID, "seat": "S", "command_id": COMMAND_ID}),
        ex("to any seat, for an hour", {"player_id": FRIEND_ID, "expires_in": 3600})])],
        principal: Caller, runtime: Runtime) -> Response:
    state = await service.invite(runtime, principal, match_id, [data.player_id], [data.seat], data.expires_in,
                                 data.command_id)
    return _created(state, principal.player_id)


@post("/v1/matches/{match_id:str}/challenges", guards=PLAYER, tags=TAGS, security=BEARER,
      summary="Challenge a partnership to play my match",
      description="Two players, asked to the two seats of one side (`seats`, N and S or E and W; none: the first "
                  "side with both seats free). Each accepts his own seat; one declining declines it for both. The "
                  "same rules and codes as an invitation (422 `bad_invitees` when the seats are not one side; 403 "
                  "`blocked` also when one of the two blocks the other).",
      responses=seating(responses(201, InvitationOut, [ex("sent", CHALLENGE_EXAMPLE)], "The challenge", 400, 401,
                                  403, 404, 409, 422, 429)))
async def challenge(match_id: PathStr, data: Annotated[Challenge, Body(examples=[
        ex("east and west", {"players": [FRIEND_ID, PLAYER_ID], "seats": ["E", "W"]}),
        ex("whichever side is free", {"players": [FRIEND_ID, PLAYER_ID]})])],
        principal: Caller, runtime: Runtime) -> Response:
    seats: list[str | None] = list(data.seats) if data.seats else [None, None]
    state = await service.invite(runtime, principal, match_id, list(data.players), seats, data.expires_in,
                                 data.command_id)
    return _created(state, principal.player_id)


@get("/v1/invitations", guards=PLAYER, tags=TAGS, security=BEARER, summary="My invitations",
     description="Those I `received` (default) or `sent`, newest first, of one `status` or all; pages as every "
                 "list (docs/api.md, \"Lists and pages\"). Read from a read model: a new invitation shows within "
                 "the projector's poll.",
     responses=responses(200, list[ListedInvitationOut], [
         ex("received", [{**INVITATION_EXAMPLE, "created_at": "2025-05-01T18:00:00+00:00"}]),
         ex("sent: to any seat, and a challenge half accepted", [
             {**INVITATION_EXAMPLE, "invitation_id": "6b2e4f81-0c3d-5a9e-8f71-2d4c6e8a0b13",
              "invitees": {FRIEND_ID: None}, "created_at": "2025-05-01T18:05:00+00:00"},
             {**CHALLENGE_EXAMPLE, "accepted": {FRIEND_ID: "E"}, "created_at": "2025-05-01T18:00:00+00:00"}])],
                         "Invitations, newest first", 400, 401, 429))
async def list_invitations(request: Request, principal: Caller, runtime: Runtime,
                           role: FromQuery[Literal["received", "sent"]] = "received",
                           status: FromQuery[Literal["pending", "accepted", "declined", "cancelled", "expired"] | None]
                           = None, limit: Limit = 50, cursor: paging.Cursor = None) -> Response:
    rows = await listed.listed(runtime.pool, principal.player_id, role, status, limit, paging.decode(cursor))
    return paging.page(request, rows, limit, "created_at", "invitation_id")


@get("/v1/invitations/{invitation_id:str}", guards=PLAYER, tags=TAGS, security=BEARER, summary="An invitation",
     description="For its sender and its invitees (anyone else: 404 `unknown_invitation`); always current.",
     responses=responses(200, InvitationOut, [ex("pending", INVITATION_EXAMPLE)], "The invitation", 401, 404, 429))
async def get_invitation(invitation_id: PathStr, principal: Caller, runtime: Runtime) -> InvitationOut:
    return _out(await service.load(runtime, invitation_id), principal.player_id)


@post("/v1/invitations/{invitation_id:str}/accept", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER,
      summary="Accept: take the invited seat",
      description="Takes the seat I was asked to (or the first free one), with my optional `entropy`, then records "
                  "the acceptance; the last seat taken starts the match, as any seat does. " + CODES,
      responses=seating(responses(200, Accepted, [ex("seated", {"invitation": {**INVITATION_EXAMPLE,
                                                                                  "status": "accepted",
                                                                                  "accepted": {FRIEND_ID: "S"}},
                                                                 "match": COMMAND_EXAMPLE})],
                                  "The invitation and my seat's command", 400, 401, 403, 404, 409, 422, 429)))
async def accept(invitation_id: PathStr, principal: Caller, runtime: Runtime,
                 data: Annotated[Accept | None, Body(examples=[ex("with entropy", {"entropy": "my words"}),
                                                               ex("nothing", {})])] = None) -> Accepted:
    body = data or Accept()
    state, outcome = await service.accept(runtime, principal, invitation_id, body.entropy, body.command_id)
    match = await _answer(runtime, state.match_id, outcome, principal) if outcome is not None else None
    return Accepted(invitation=_out(state, principal.player_id), match=match)


ANSWER_BODY = Body(examples=[ex("with a command id", {"command_id": COMMAND_ID}), ex("nothing", {})])


@post("/v1/invitations/{invitation_id:str}/decline", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER,
      summary="Decline an invitation (a challenge: for both players)", description=CODES,
      responses=responses(200, InvitationOut, [ex("declined", {**INVITATION_EXAMPLE, "status": "declined"})],
                          "The invitation", 400, 401, 403, 404, 409, 422, 429))
async def decline(invitation_id: PathStr, principal: Caller, runtime: Runtime,
                  data: Annotated[Answer | None, ANSWER_BODY] = None) -> InvitationOut:
    state = await service.decline(runtime, principal, invitation_id, (data or Answer()).command_id)
    return _out(state, principal.player_id)


@post("/v1/invitations/{invitation_id:str}/cancel", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER,
      summary="Cancel an invitation I sent", description="Its sender only (403 `not_your_invitation`). " + CODES,
      responses=responses(200, InvitationOut, [ex("cancelled", {**INVITATION_EXAMPLE, "status": "cancelled"})],
                          "The invitation", 400, 401, 403, 404, 409, 422, 429))
async def cancel(invitation_id: PathStr, principal: Caller, runtime: Runtime,
                 data: Annotated[Answer | None, ANSWER_BODY] = None) -> InvitationOut:
    state = await service.cancel(runtime, principal, invitation_id, (data or Answer()).command_id)
    return _out(state, principal.player_id)


ROUTES = (invite, challenge, list_invitations, get_invitation, accept, decline, cancel)
