"""Follow and block routes: whom I follow and block, and the tables of the players I follow.

Thin: decode, call `services.social.circle`, show. `FEATURE` declares the feature: these routes and
the `social_ties` read model (which the seat check, the invitations and the chat ask).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.params import Body

from domain import social as cases
from infra.projections import social as ties
from services.http import paging
from services.http.auth import authenticated
from services.http.examples import ex
from services.http.ratelimit import rate_limited
from services.http.schemas import (
    BEARER,
    COMMAND_ID,
    MATCH_ID,
    PLAYER_ID,
    Caller,
    FromQuery,
    Limit,
    PathStr,
    Runtime,
    responses,
)
from services.social import circle
from services.social.routes.answers import FollowedTableOut, TiedPlayerOut
from services.social.routes.invitations import FRIEND_ID, PlayerRef

TAGS = ["social"]
PLAYER = [authenticated, rate_limited]


class Tie(msgspec.Struct, forbid_unknown_fields=True):
    player_id: PlayerRef
    command_id: uuid.UUID | None = None


class TieOut(msgspec.Struct):
    player_id: str
    following: bool
    blocked: bool
    changed: bool                      # false: it already was so (nothing recorded)


TIE_BODY = Body(examples=[ex("a player", {"player_id": FRIEND_ID}),
                          ex("with a command id", {"player_id": FRIEND_ID, "command_id": COMMAND_ID})])
LIST_EXAMPLE = [{"player_id": FRIEND_ID, "name": "Ada", "since": "2025-05-01T18:00:00+00:00"}]
TABLES_EXAMPLE = [{"match_id": MATCH_ID, "game": "belote", "options": {"variant": "coinche"},
                   "seats": {"N": {"kind": "player", "player_id": FRIEND_ID, "level": None}, "E": None, "S": None,
                             "W": None}, "free_seats": 3, "at": "2025-05-01T18:00:00+00:00"}]
SEATED = {"N": {"kind": "player", "player_id": FRIEND_ID, "level": None},
          "E": {"kind": "bot", "player_id": None, "level": "basic"},
          "S": {"kind": "player", "player_id": PLAYER_ID, "level": None},
          "W": {"kind": "bot", "player_id": None, "level": "expert"}}
PLAYING_EXAMPLE = [{"match_id": MATCH_ID, "game": "belote", "options": {"deals": 4}, "seats": SEATED,
                    "status": "playing", "score": {"NS": 162, "EW": 90}, "version": 57,
                    "at": "2025-05-01T18:20:00+00:00"},
                   {"match_id": "1e2d3c4b-5a69-4788-9766-554433221100", "game": "belote", "options": {"deals": 4},
                    "seats": SEATED, "status": "playing", "score": None, "version": None,
                    "at": "2025-05-01T18:05:00+00:00", "sealed": True}]
PAGED = ("Newest first, in pages (docs/api.md, \"Lists and pages\"); from a read model, current within the "
         "projector's poll.")


async def _tie(runtime: Runtime, principal: Caller, command: str, player_id: str,
               command_id: uuid.UUID | None = None) -> TieOut:
    changed = await circle.change(runtime, principal, command, player_id, command_id)
    state = await circle.load(runtime, principal.player_id)
    return TieOut(player_id=player_id, following=player_id in state.following, blocked=player_id in state.blocked,
                  changed=changed)


def _example(following: bool, blocked: bool) -> list:
    return [ex("done", {"player_id": FRIEND_ID, "following": following, "blocked": blocked, "changed": True})]


@post("/v1/players/me/following", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER,
      summary="Follow a player",
      description=f"See his open tables and the matches he plays (`GET /v1/players/me/following/tables`). At most "
                  f"{cases.MAX_FOLLOWING} players (422 `too_many_follows`); not yourself (422 "
                  "`cannot_follow_yourself`), not a player you block (422 `player_blocked`); 404 `unknown_player`. "
                  "Following twice changes nothing (`changed: false`).",
      responses=responses(200, TieOut, _example(True, False), "Whether I follow him now", 400, 401, 404, 409, 422,
                          429))
async def follow(data: Annotated[Tie, TIE_BODY], principal: Caller, runtime: Runtime) -> TieOut:
    return await _tie(runtime, principal, "follow", data.player_id, data.command_id)


@delete("/v1/players/me/following/{player_id:str}", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER,
        summary="Stop following a player",
        responses=responses(200, TieOut, _example(False, False), "Whether I follow him now", 400, 401, 429))
async def unfollow(player_id: PathStr, principal: Caller, runtime: Runtime) -> TieOut:
    return await _tie(runtime, principal, "unfollow", player_id)


@get("/v1/players/me/following", guards=PLAYER, tags=TAGS, security=BEARER, summary="The players I follow",
     description=PAGED,
     responses=responses(200, list[TiedPlayerOut], [ex("followed", LIST_EXAMPLE)], "Players, newest first", 400,
                         401, 429))
async def following(request: Request, principal: Caller, runtime: Runtime, limit: Limit = 50,
                    cursor: paging.Cursor = None) -> Response:
    rows = await ties.ties(runtime.pool, principal.player_id, "follow", limit, paging.decode(cursor))
    return paging.page(request, rows, limit, "since", "player_id")


@get("/v1/players/me/following/tables", guards=PLAYER, tags=TAGS, security=BEARER,
     summary="The tables of the players I follow",
     description="`status=open` (default): open tables with a free seat where a player I follow sits; `playing`: "
                 "the matches they play, to watch. Never a private table, nor a table where a player who blocks me "
                 "sits. `at`: when the table was made (open) or last moved (playing; a tournament table's moves only with "
                 "its status). A table I may not watch (another table of my tournament's open round) keeps its place "
                 "without its `score` and `version` (`sealed: true`). " + PAGED,
     responses=responses(200, list[FollowedTableOut], [ex("open tables", TABLES_EXAMPLE),
                                                       ex("tables being played", PLAYING_EXAMPLE)],
                         "Tables, newest first", 400, 401, 429))
async def followed_tables(request: Request, principal: Caller, runtime: Runtime,
                          status: FromQuery[Literal["open", "playing"]] = "open", limit: Limit = 50,
                          cursor: paging.Cursor = None) -> Response:
    rows = await ties.followed_tables(runtime.pool, principal.player_id, status, limit, paging.decode(cursor))
    return paging.page(request, await runtime.visibility.seal_rows(principal, rows), limit, "at", "match_id")


@post("/v1/players/me/blocks", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER, summary="Block a player",
      description=f"He can no longer invite me, sit at a table I host or sit at (403 `blocked`), nor talk to me; "
                  f"I stop following him. At most {cases.MAX_BLOCKED} players (422 `too_many_blocks`); not yourself "
                  "(422 `cannot_block_yourself`); 404 `unknown_player`. Blocking twice changes nothing.",
      responses=responses(200, TieOut, _example(False, True), "Whether I block him now", 400, 401, 404, 409, 422, 429))
async def block(data: Annotated[Tie, TIE_BODY], principal: Caller, runtime: Runtime) -> TieOut:
    return await _tie(runtime, principal, "block", data.player_id, data.command_id)


@delete("/v1/players/me/blocks/{player_id:str}", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER,
        summary="Unblock a player",
        responses=responses(200, TieOut, _example(False, False), "Whether I block him now", 400, 401, 429))
async def unblock(player_id: PathStr, principal: Caller, runtime: Runtime) -> TieOut:
    return await _tie(runtime, principal, "unblock", player_id)


@get("/v1/players/me/blocks", guards=PLAYER, tags=TAGS, security=BEARER, summary="The players I block",
     description=PAGED,
     responses=responses(200, list[TiedPlayerOut], [ex("blocked", LIST_EXAMPLE)], "Players, newest first", 400,
                         401, 429))
async def blocks(request: Request, principal: Caller, runtime: Runtime, limit: Limit = 50,
                 cursor: paging.Cursor = None) -> Response:
    rows = await ties.ties(runtime.pool, principal.player_id, "block", limit, paging.decode(cursor))
    return paging.page(request, rows, limit, "since", "player_id")


ROUTES = (follow, unfollow, following, followed_tables, block, unblock, blocks)
