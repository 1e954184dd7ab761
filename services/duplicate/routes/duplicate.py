"""Duplicate routes: play a robot duplicate event, read a board's traveller (docs/tournaments.md,
"Robot duplicate" and "Travellers")."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import PathParameter

from services.duplicate import service as duplicate
from services.duplicate.routes.answers import RobotEntryOut, TravellerOut
from services.http.auth import authenticated
from services.http.errors import error_body
from services.http.ratelimit import rate_limited
from services.http.schemas import BEARER, Caller, PathStr, Runtime, ex
from services.tournaments.routes import examples as X
from services.tournaments.routes.views import HANDLERS, service

TAGS = ["tournaments"]
# A number, spelled as the path's other parameters are (a string with its pattern), so a path
# that is not one is the 400 of every route rather than no route at all.
Board = Annotated[str, PathParameter(pattern=r"^[1-9][0-9]{0,3}$",
                                     description="the board's number in the tournament (1-based)")]
READER = [authenticated, rate_limited]
ENTRY = {"tournament_id": X.TOURNAMENT_ID, "entry_id": X.ENTRY_A, "table": 2, "seat": "S", "match_id": X.MATCH_ID,
         "closes_at": "2026-12-04T00:00:00+00:00"}
TRAVELLER = {"tournament_id": X.TOURNAMENT_ID, "board": 1, "round": 1, "scoring": "neuberg", "rows": [
    {"table": 2, "ns": X.ENTRY_A, "ew": None, "bots": False, "forfeit": None,
     "contract": {"seat": "S", "team": "NS", "trump": "H"}, "declarer": "S", "result": "made",
     "score": {"NS": 120, "EW": 42}, "ns_points": 2.0, "ew_points": None, "match_id": X.MATCH_ID, "deal": 0},
    {"table": 1, "ns": "house", "ew": None, "bots": True, "forfeit": None,
     "contract": {"seat": "W", "team": "EW", "trump": "S"}, "declarer": "W", "result": "made",
     "score": {"NS": 50, "EW": 112}, "ns_points": None, "ew_points": None,
     "match_id": "2c4e6a80-1b3d-4f5a-9c7e-8d0f2a4b6c8e", "deal": 0}],
    "hand": {"dealer": "N", "deck": ["JH", "9H", "…"], "seed": "5e0c…", "commitment": "4be1…", "verified": True,
             "par": {"contract": {"seat": "W", "team": "EW", "trump": "S"}, "score": {"NS": 35, "EW": 147},
                     "card_points": {"NS": 35, "EW": 127}}, "par_pending": False}}
SEALED = ex("its round has not closed", {"code": "board_sealed", "message": "a board's results and cards are "
                                         "shown once its round has closed at every table", "details": {"board": 1}})
UNKNOWN_BOARD = ex("no such board", {"code": "unknown_board", "message": "no board 9 in this tournament",
                                     "details": {"board": 9}})


def _sealed(_: Request, exc: duplicate.BoardSealed) -> Response:
    return Response(error_body("board_sealed", "a board's results and cards are shown once its round has closed "
                               "at every table", {"board": exc.args[0]}), status_code=403)


def _unknown_board(_: Request, exc: duplicate.UnknownBoard) -> Response:
    return Response(error_body("unknown_board", str(exc), {"board": exc.board}), status_code=404)


BOARD_HANDLERS = {**HANDLERS, duplicate.BoardSealed: _sealed, duplicate.UnknownBoard: _unknown_board}


@post("/v1/tournaments/{tournament_id:str}/play", guards=READER, tags=TAGS, security=BEARER,
      exception_handlers=HANDLERS, status_code=200,
      summary="Play a robot duplicate event: my entry and my table (South, three bots), opened now",
      description="Enters me once (a second call answers the same table) while the event's window is open: 422 "
                  "`window_closed` after it, `bad_format` for a tournament that is not a robot duplicate event, "
                  "`event_full` past its entries' limit; 403 `player_banned` for a banned player. My table's "
                  "match is an ordinary match (`GET /v1/matches/{id}`, play as usual); its hand records and "
                  "everyone's results stay sealed until the window closes.",
      responses=X.answers(200, RobotEntryOut, [ex("my table", ENTRY)], "My entry and table", 401, 403, 404, 409,
                          422, 429))
async def play(tournament_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    return await duplicate.play(service(runtime), tournament_id, principal.player_id, "")


@get("/v1/tournaments/{tournament_id:str}/boards/{board:str}/traveller", guards=READER, tags=TAGS,
     security=BEARER, exception_handlers=BOARD_HANDLERS,
     summary="A board's traveller: every table's contract, declarer, result, score and points; the hand record",
     description="Only once the board's round has closed at every table (a robot duplicate event: its window): "
                 "before, 403 `board_sealed`, for everyone, its organiser included. 404 `unknown_board` for a "
                 "board the tournament does not play (or a tournament that is not a duplicate).",
     responses={**X.answers(200, TravellerOut, [ex("a robot event's board", TRAVELLER)], "The traveller", 401,
                            404, 429),
                403: ResponseSpec(data_container=X.ErrorOut, description="The board is still sealed",
                                  examples=[SEALED], generate_examples=False),
                404: ResponseSpec(data_container=X.ErrorOut, description="No such tournament or board",
                                  examples=[X.UNKNOWN, UNKNOWN_BOARD], generate_examples=False)})
async def traveller(tournament_id: PathStr, board: Board, runtime: Runtime) -> dict[str, Any]:
    svc = service(runtime)
    return await duplicate.traveller(svc, await svc.load(tournament_id), int(board))


ROUTES = [play, traveller]
