"""Match routes: create, lobby, my matches, my view, seats, start, rematch.

Each handler decodes (Litestar, from the Structs in `schemas`), calls the game service
(directly or through `flows` when a request is several commands) and shows the result
to the caller's seat. Errors are raised and mapped in `errors`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from litestar import Request, Response, delete, get, post, put
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Body

from domain.cards import DECK_32
from infra.players import Principal
from infra.projections import match_queries as queries
from services.http import paging
from services.http.auth import authenticated
from services.http.ratelimit import rate_limited
from services.http.schemas import (
    BEARER,
    COMMAND_EXAMPLE,
    MATCH_ID,
    PLAYER_ID,
    TABLE_ENVELOPE,
    VIEW_EXAMPLE,
    Caller,
    CommandOut,
    CreateMatch,
    ErrorOut,
    FromQuery,
    GiveEntropy,
    Limit,
    PathStr,
    Rematch,
    Runtime,
    TakeSeat,
    ex,
    responses,
)
from services.matches.routes.answers import EntropyOut, LobbyRow, MatchSummary, MatchViewOut
from services.matches import clocks, tables
from services.matches.routes import flows, hints
from services.matches.routes.play import ensure_readable

TAGS = ["matches"]
PAGED = ("Pages of `limit` (1..200, default 50) newest first; when a next page may exist the answer has "
         "`Link: <…&cursor=…>; rel=\"next\"` (docs/api.md, \"Lists and pages\").")
PLAYER = [authenticated, rate_limited]

CREATE_EXAMPLES = [
    ex("coinche, me in the north, three open seats",
       {"game": "belote", "options": {"variant": "coinche", "rules": "official"},
        "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}, "entropy": "my own random words"}),
    ex("a private table for friends", {"game": "belote", "options": {"variant": "coinche"}, "visibility": "private",
                                       "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}}),
    ex("a one-deal cinch match against bots", {"game": "cinch", "options": {"deals": 1},
                                               "seats": {"N": "me", "E": "bot:basic", "S": "bot:basic",
                                                         "W": "bot:basic"}}),
    ex("replay a board from a record", {"game": "belote", "options": {"deals": 1},
                                        "seats": {"N": "me", "E": "open", "S": "open", "W": "open"},
                                        "record": {"game": "belote", "deals": [{"dealer": "N",
                                                                                "deck": list(DECK_32)}]}}),
]
LOBBY_EXAMPLE = [{"match_id": MATCH_ID, "game": "belote", "options": {"variant": "coinche"},
                  "seats": {"N": {"kind": "player", "player_id": PLAYER_ID, "level": None}, "E": None, "S": None,
                            "W": None}, "free_seats": 3, "created_at": "2025-05-01T18:00:00+00:00"}]
SUMMARY_EXAMPLE = [{"match_id": MATCH_ID, "game": "cinch", "options": {"deals": 1}, "seats": {},
                    "status": "finished", "score": {"NS": 11, "EW": 3}, "deals": 1, "winner": "NS", "version": 88,
                    "created_at": "2025-05-01T18:00:00+00:00", "updated_at": "2025-05-01T18:09:00+00:00"}]

# The 403 of the routes that sit a player or have him sat (services/matches/seating.py): its codes
# are the door's, and a client reading one route's document learns them for all.
DOOR_403 = ResponseSpec(data_container=ErrorOut, generate_examples=False, description=(
    "Not at this table (the one door to a seat: docs/api.md, \"One door to a seat\"): a "
    "banned player, the caller or one this would seat (`player_banned`); a block between two players this would "
    "seat together, either way (`blocked`); a caller who may not ask (`forbidden`)."), examples=[
    ex("banned", {"code": "player_banned", "message": "you are banned: repeated insults",
                  "details": {"reason": "repeated insults"}}),
    ex("another is banned", {"code": "player_banned",
                             "message": "a player this would seat is banned: he joins no table", "details": {}}),
    ex("blocked", {"code": "blocked", "message": "a player at this table has blocked you: you cannot sit with him",
                   "details": {}}),
    ex("you block", {"code": "blocked", "message": "you block a player at this table: unblock him to sit with him",
                     "details": {"player_id": PLAYER_ID}}),
    ex("not a player", {"code": "forbidden", "message": "only a player of this match may ask for its rematch",
                        "details": {}})])


def seating(answers: dict[int, ResponseSpec]) -> dict[int, ResponseSpec]:
    """`answers` with the 403 of a route that sits a player, or has him sat."""
    return {**answers, 403: DOOR_403}


async def _created(runtime: Any, state: Any, principal: Principal) -> Response:
    body = flows.view(state, tables.seat_of(state, principal.player_id))
    body.update(await hints.counts(runtime, state.match_id))
    if state.private and state.host == principal.player_id:   # the code is its host's, shown only here
        body["invitation_code"] = await tables.invitation_code(runtime.matches, state.match_id)
    return Response(body, status_code=201, headers={"Location": f"/v1/matches/{state.match_id}"})


@post("/v1/matches", guards=PLAYER, tags=TAGS, summary="Create a match", security=BEARER,
      description="Seats: `open`, `me` (at most once) or `bot:LEVEL`. Options are the game's (400 naming the option "
                  "when unknown or bad). `record`: a match record whose deals (dealer and deck) are dealt in order. "
                  "A match whose seats are all taken starts at once. `visibility: private` makes a private table "
                  "(docs/social.md): out of the lobby and every public list, seats by invitation or by the "
                  "`invitation_code` the answer then holds (shown to its creator only, here), watched only by its "
                  "seats, its host and its invitees; casual (`rated: true` is 400 `not_rateable`). A banned "
                  "player creates none (403 `player_banned`).",
      responses=seating(responses(201, MatchViewOut, [ex("the creator's view", VIEW_EXAMPLE)],
                                  "The match as the creator sees it", 400, 401, 403, 429)))
async def create_match(data: Annotated[CreateMatch, Body(examples=CREATE_EXAMPLES)], principal: Caller,
                       runtime: Runtime) -> Response:
    return await _created(runtime, await flows.create(runtime.matches, principal, data), principal)


@get("/v1/matches", guards=PLAYER, tags=TAGS, summary="The lobby (open matches), or matches by status",
     security=BEARER, description=PAGED,
     responses=responses(200, list[LobbyRow | MatchSummary], [ex("open matches", LOBBY_EXAMPLE)], "Matches, newest first", 400, 401, 429))
async def list_matches(request: Request, principal: Caller, runtime: Runtime,
                       status: FromQuery[Literal["open", "playing", "finished"]] = "open",
                       game: FromQuery[str | None] = None, limit: Limit = 50, cursor: paging.Cursor = None
                       ) -> Response:
    before = paging.decode(cursor)
    if status == "open":
        return paging.page(request, await queries.open_matches(runtime.pool, game, limit, before), limit,
                           "created_at", "match_id")
    rows = await queries.matches_by_status(runtime.pool, status, limit, before)
    return paging.page(request, await runtime.visibility.seal_rows(principal, rows), limit, "updated_at",
                       "match_id")


@get("/v1/matches/mine", guards=PLAYER, tags=TAGS, summary="My matches", security=BEARER,
     description=PAGED,
     responses=responses(200, list[MatchSummary], [ex("my matches", SUMMARY_EXAMPLE)], "Matches where I hold a seat", 400, 401,
                         429))
async def my_matches(request: Request, principal: Caller, runtime: Runtime,
                     status: FromQuery[Literal["open", "playing", "finished"] | None] = None,
                     limit: Limit = 50, cursor: paging.Cursor = None) -> Response:
    rows = await queries.my_matches(runtime.pool, principal.player_id, status, limit, paging.decode(cursor))
    return paging.page(request, rows, limit, "updated_at", "match_id")


@get("/v1/matches/{match_id:str}", guards=PLAYER, tags=TAGS, summary="The match as my seat sees it", security=BEARER,
     description="My seat's view (hand, legal actions, trick, contract, scores), `to_act`, `deadline`, "
                 "`hints_used` (every seat's count of hints used, never what they said) and `hints_limit` (each "
                 "seat's allowance here, 0 where hints are off); the spectator view when I hold no seat. "
                 + TABLE_ENVELOPE,
     responses=responses(200, MatchViewOut, [ex("north's view", VIEW_EXAMPLE)], "The view", 401, 403, 404, 429))
async def get_match(match_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    state = await runtime.matches.load(match_id)
    await ensure_readable(runtime, principal, state, "view", route="view")
    view = flows.view(state, tables.seat_of(state, principal.player_id))
    view.update(await hints.counts(runtime, match_id))
    if state.status == "playing":
        store = runtime.matches.store
        view["clock"] = await runtime.clocks.of(match_id)
        deadline = await clocks.deadline_of(store, state, view["clock"])
        view["deadline"] = deadline.isoformat().replace("+00:00", "Z") if deadline is not None else None
    return view


SEAT_BODY = Body(examples=[ex("with entropy", {"entropy": "words only I know"}),
                           ex("a private table's code", {"code": "MFRGGZDFMZTWQ2LK"}), ex("nothing", {})])


@post("/v1/matches/{match_id:str}/seats/{seat:str}", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER,
      summary="Take a seat",
      description="Optional `entropy` (at most 1024 bytes in UTF-8; 400 `bad_entropy` naming `$.entropy`) is mixed "
                  "into every shuffled deal. Taking the last free seat starts the match: the answer then holds the "
                  "start and the first deal, as this seat sees them. A private table seats its host, its invitees "
                  "and whoever brings its `code`; anyone else (a wrong code too) is answered 404 `unknown_match`. "
                  "A banned player: 403 `player_banned`; a block either way between him and the host or a seated "
                  "player: 403 `blocked` (docs/social.md).",
      responses=seating(responses(200, CommandOut, [ex("seated", COMMAND_EXAMPLE)], "The new version and events",
                                  400, 401, 403, 404, 422, 429)))
async def take_seat(match_id: PathStr, seat: PathStr, principal: Caller, runtime: Runtime,
                    data: Annotated[TakeSeat | None, SEAT_BODY] = None) -> CommandOut:
    body = data or TakeSeat()
    outcome = await tables.take_seat(runtime.matches, principal, match_id, flows.parse_seat(seat), body.entropy,
                                    body.command_id, code=body.code)
    return await _answer(runtime, match_id, outcome, principal)


ENTROPY_OUT = {"match_id": MATCH_ID, "seat": "N", "chain": 2}


@put("/v1/matches/{match_id:str}/seats/{seat:str}/entropy", guards=PLAYER, status_code=200, tags=TAGS,
     security=BEARER, summary="Give my seat (new) entropy",
     description="Replaces the seat's entropy for every deal dealt from now on, under the newest published chain "
                 "(`chain` in the answer): a deal uses only entropy given after its chain's tip was published "
                 "(docs/fair-deal.md). Give it after each `chain_renewed` event so the next chain's deals have "
                 "yours. The seat must be yours (422 `not_your_seat`) and the match not over (422 `match_over`); "
                 "at most 1024 bytes in UTF-8 (400 `bad_entropy`). A rematch waiting for its players' entropy "
                 "starts with the last player's.",
     responses=responses(200, EntropyOut, [ex("given under chain 2", ENTROPY_OUT)], "The seat and the chain", 400, 401,
                         404, 422, 429))
async def give_entropy(match_id: PathStr, seat: PathStr, principal: Caller, runtime: Runtime,
                       data: Annotated[GiveEntropy, Body(examples=[ex("fresh words",
                                                                      {"entropy": "words only I know"})])]
                       ) -> dict[str, Any]:
    at = flows.parse_seat(seat)
    entropy = tables.checked_entropy(data.entropy)
    chain = await tables.give_entropy(runtime.matches, principal, match_id, at, entropy)
    return {"match_id": match_id, "seat": str(at), "chain": chain}


@delete("/v1/matches/{match_id:str}/seats/{seat:str}", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER,
        summary="Leave a seat (before the start), or remove a bot from one",
        responses=responses(200, CommandOut, [ex("left", COMMAND_EXAMPLE)], "The new version and events", 400, 401,
                            403, 404, 422, 429))
async def leave_seat(match_id: PathStr, seat: PathStr, principal: Caller, runtime: Runtime) -> CommandOut:
    outcome = await tables.leave_seat(runtime.matches, principal, match_id, flows.parse_seat(seat))
    return await _answer(runtime, match_id, outcome, principal)


@post("/v1/matches/{match_id:str}/start", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER,
      summary="Start a fully seated match",
      description="Rarely needed: a match starts by itself when its last seat is taken. Any seated player (or an "
                  "organiser) may ask; a match already started answers 422 match_not_open.",
      responses=responses(200, CommandOut, [ex("started", COMMAND_EXAMPLE)], "The start and the first deal", 401,
                          403, 404, 422, 429))
async def start_match(match_id: PathStr, principal: Caller, runtime: Runtime) -> CommandOut:
    outcome = await tables.start(runtime.matches, principal, match_id)
    return await _answer(runtime, match_id, outcome, principal)


@post("/v1/matches/{match_id:str}/rematch", guards=PLAYER, tags=TAGS, security=BEARER,
      summary="A new match with the same game, options and seats",
      description="For the players of a finished match only: anyone else is 403 `forbidden`, or 404 "
                  "`unknown_match` where the match is a private table hidden from him. Every player asking gets the "
                  "same new match, its seats taken by the same holders; none is made when one of its players is "
                  "banned (403 `player_banned`) or two of them are kept apart by a block (403 `blocked`). Optional "
                  "`entropy` goes to the caller's seat in it, after its tip was published (the same limit as a "
                  "seat's). It starts once every player seat has given entropy (asking with it, or `PUT "
                  "…/entropy`), when a seated player starts it, or when the sweeper starts full matches left idle "
                  "(docs/fair-deal.md, \"Entropy when it helps\").",
      responses=seating(responses(201, MatchViewOut, [ex("the new match", VIEW_EXAMPLE)], "The new match as I see it", 400,
                                  401, 403, 404, 422, 429)))
async def rematch(match_id: PathStr, principal: Caller, runtime: Runtime,
                  data: Annotated[Rematch | None, Body(examples=[ex("with entropy", {"entropy": "my words"}),
                                                                 ex("nothing", {})])] = None) -> Response:
    entropy = data.entropy if data is not None else None
    made = await tables.rematch(runtime.matches, principal, match_id, entropy, visibility=runtime.visibility)
    return await _created(runtime, made, principal)


async def _answer(runtime: Any, match_id: str, outcome: Any, principal: Principal) -> CommandOut:
    state = await runtime.matches.load(match_id)
    seat = tables.seat_of(state, principal.player_id)
    return CommandOut(match_id=match_id, version=outcome.version, events=flows.show(state, outcome.events, seat))


ROUTES = [create_match, list_matches, my_matches, get_match, take_seat, give_entropy, leave_seat, start_match,
          rematch]
