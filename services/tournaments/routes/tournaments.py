"""Tournament routes under `/v1/tournaments` (docs/tournaments.md).

Organiser-only commands (create; then start, pair, register house bots, withdraw any entry)
need the organiser role and, after creation, to be this tournament's organiser (admins may
too). Everyone signed in can read; a round's results (and its boards' seeds) are shown to
players only once the round has closed at every table. `FEATURE` declares the routes (these
and the live ones), the standings projection, the visibility checks (a board is sealed
until its round has closed everywhere; who organises a match) and the workers' tasks.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import uuid
from typing import Annotated, Any, Literal

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.params import Body

from domain import tournaments as rules
from domain.game import RuleViolation
from domain.tournaments import events as ev
from domain.tournaments.standing import entry_players
from infra.projections import standings as standings_projection
from services.http import paging
from services.http.auth import authenticated, requires
from services.http.bodies import shown
from services.http.errors import ApiError
from services.http.ratelimit import rate_limited
from services.http.schemas import BEARER, Caller, FromQuery, Limit, PathStr, Runtime, ex
from services.matches.routes.matches import seating
from services.tournaments.routes import examples as X
from services.tournaments.routes.answers import (
    EntryRegistered,
    EntryWithdrawn,
    ResultRow,
    StandingsOut,
    TournamentExport,
    TournamentOut,
    TournamentRow,
)
from services.tournaments.routes.views import (
    HANDLERS,
    _owner,
    owns,
    player_names,
    reader_view,
    sees_all,
    service,
    standings,
    view,
)

TAGS = ["tournaments"]
READER = [authenticated, rate_limited]
ORGANISER = [authenticated, rate_limited, requires("organiser")]
RECORD_CODES = {"bad_record", "bad_deck", "wrong_dealer", "not_enough_boards"}   # of imported boards: 400
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=80)]


Level = Literal["random", "basic", "expert", "master"]


class BotsIn(msgspec.Struct, forbid_unknown_fields=True):
    """The tournament's bots: `level` partners an entrant who comes alone and sits at a robot
    event's tables; `standin` plays, at every table, for a person who is away past the grace
    or whose clock ran out (docs/bots.md, "Disconnects"); `fill` is kept with the tournament
    and changes nothing today (an entry's empty seats always take bots of `level`)."""

    level: Level = "basic"
    fill: bool = True
    standin: Level = "basic"


class CreateIn(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    game: str
    format: str
    options: dict[str, Any] = {}
    rounds: Annotated[int, msgspec.Meta(ge=1, le=rules.aggregate.MAX_ROUNDS)] | None = None
    schedule: str | None = None
    bots: BotsIn = msgspec.field(default_factory=BotsIn)
    no_show_grace: Annotated[int, msgspec.Meta(ge=0, le=ev.MAX_NO_SHOW_GRACE)] | None = None
    boards: dict[str, Any] | None = None          # a match record: its decks are the boards
    rated: bool = True                            # tables of four humans rate in their pool (docs/ratings.md)
    seeding: Literal["registration", "rating"] = "registration"   # Swiss and elimination only
    scoring: Literal["matchpoints", "neuberg", "butler", "cross_imps"] = "matchpoints"   # duplicate and robot
    closes_at: str | None = None                  # robot: when its window closes (ISO 8601 with offset)
    command_id: uuid.UUID | None = None


class EntryIn(msgspec.Struct, forbid_unknown_fields=True):
    players: Annotated[list[str], msgspec.Meta(min_length=1, max_length=4)]   # 4: a team (its two pairs)
    name: str = ""
    command_id: uuid.UUID | None = None


class PairingIn(msgspec.Struct, forbid_unknown_fields=True):
    round: Annotated[int, msgspec.Meta(ge=1)]
    tables: list[list[str]]
    byes: list[str] = []


def _check_schedule(schedule: str, field: str = "$.schedule") -> None:
    """A start time the tick and the standings can read: ISO 8601 with its offset."""
    try:
        parsed = dt.datetime.fromisoformat(schedule.replace("Z", "+00:00"))
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise ApiError(400, "invalid_field", f"{field}: a date-time with its offset, e.g. 2026-12-04T20:00:00Z",
                       {"field": field})


@post("/v1/tournaments", guards=ORGANISER, tags=TAGS, security=BEARER, exception_handlers=HANDLERS,
      summary="Create a tournament (organisers)",
      responses=X.answers(201, TournamentOut,
                          [ex("the new tournament", {**X.VIEW, "status": "registering", "rounds": []})],
                          "The tournament as its organiser sees it", 400, 401, 403, 409, 422, 429))
async def create(data: Annotated[CreateIn, Body(examples=X.CREATE_EXAMPLES)], principal: Caller,
                 runtime: Runtime) -> Response:
    shown(data.name, "$.name")
    if data.schedule is not None:
        _check_schedule(data.schedule)
    if data.closes_at is not None:
        _check_schedule(data.closes_at, "$.closes_at")
    try:
        tid = await service(runtime).create(principal.player_id, data.name, data.game, data.options, data.format,
                                            data.rounds, data.schedule, msgspec.structs.asdict(data.bots),
                                            data.command_id,
                                            data.no_show_grace, data.boards, rated=data.rated,
                                            seeding=data.seeding, scoring=data.scoring,
                                            closes_at=data.closes_at)
    except RuleViolation as violation:
        if violation.code not in RECORD_CODES:
            raise
        deal = violation.details.get("deal")
        raise ApiError(400, violation.code, violation.message,
                       {"field": "$.boards" if deal is None else f"$.boards.deals[{deal}]", **violation.details}) from None
    state = await service(runtime).load(tid)
    return Response(view(state, True, await player_names(runtime.players, state)), status_code=201,
                    headers={"Location": f"/v1/tournaments/{tid}"})


LIST_EXAMPLE = [{"tournament_id": "c0a8012e-4f3b-5b1a-9d2e-7f6a5b4c3d2e", "name": "Friday cup", "game": "belote",
                 "format": "swiss", "individual": False, "status": "registering",
                 "organiser": "0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a", "schedule": "2026-12-04T20:00:00+00:00",
                 "entries": 6, "created_at": "2026-12-01T18:00:00+00:00"}]
Status = Literal["registering", "running", "closed"]


@get("/v1/tournaments", guards=READER, tags=TAGS, security=BEARER, summary="Tournaments, newest first",
    
     description="Every tournament, or those of one `status`, newest first, in pages of `limit` (1..200, default "
                 "50); when a next page may exist the answer has `Link: <…&cursor=…>; rel=\"next\"`. `entries` "
                 "counts the entries not withdrawn.",
     responses=X.answers(200, list[TournamentRow], [ex("open for entries", LIST_EXAMPLE)], "Tournaments", 400, 401,
                         429))
async def list_tournaments(request: Request, runtime: Runtime, status: FromQuery[Status | None] = None,
                           limit: Limit = 50, cursor: paging.Cursor = None) -> Response:
    rows = await standings_projection.listing(runtime.pool, status, None, limit, paging.decode(cursor))
    return paging.page(request, rows, limit, "created_at", "tournament_id")


@get("/v1/tournaments/mine", guards=READER, tags=TAGS, security=BEARER,
     summary="Tournaments I organise or play an entry in",
     description="As `GET /v1/tournaments`, for the tournaments I organise or hold an entry in.",
     responses=X.answers(200, list[TournamentRow], [ex("mine", LIST_EXAMPLE)], "Tournaments", 400, 401, 429))
async def my_tournaments(request: Request, principal: Caller, runtime: Runtime, status: FromQuery[Status | None] = None,
                         limit: Limit = 50, cursor: paging.Cursor = None) -> Response:
    rows = await standings_projection.listing(runtime.pool, status, principal.player_id, limit,
                                              paging.decode(cursor))
    return paging.page(request, rows, limit, "created_at", "tournament_id")


@get("/v1/tournaments/{tournament_id:str}", guards=READER, tags=TAGS, security=BEARER, exception_handlers=HANDLERS,
     summary="A tournament: entries, rounds, tables; results once each round has closed",
     responses=X.answers(200, TournamentOut, [ex("round 1 under way", X.VIEW)], "The tournament", 401, 404, 429))
async def read(tournament_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    svc = service(runtime)
    state = await svc.load(tournament_id)
    return await reader_view(runtime, principal, state)


@post("/v1/tournaments/{tournament_id:str}/entries", guards=READER, tags=TAGS, security=BEARER,
      exception_handlers=HANDLERS, summary="Register an entry: a partnership (or one player, partnered by a bot)",
      description="A player registers an entry he plays in (house bots are the organiser's: 403 `forbidden`). Its "
                  "rounds will seat its players, so they pass the one door to a seat first: 403 `player_banned` "
                  "when one is banned, `blocked` when one of the partners blocks the other (docs/api.md, \"One "
                  "door to a seat\").",
      responses=seating(X.answers(201, EntryRegistered, [ex("registered", {"entry_id": X.ENTRY_A})], "The entry",
                                  401, 403, 404, 409, 422, 429)))
async def register_entry(tournament_id: PathStr, data: Annotated[EntryIn, Body(examples=X.ENTRY_EXAMPLES)],
                         principal: Caller, runtime: Runtime) -> Response:
    if data.name:
        shown(data.name, "$.name")
    svc = service(runtime)
    state = await svc.load(tournament_id)
    if not owns(principal, state) and (principal.player_id not in data.players
                                       or (any(p.startswith("bot:") for p in data.players) and not state.teams)):
        raise ApiError(403, "forbidden", "a player registers an entry he plays in; house bots are the organiser's "
                                         "(a team he plays in may seat a bot pair)")
    entry_id = str(uuid.uuid4() if data.command_id is None else uuid.uuid5(data.command_id, "entry"))
    await svc.enter(tournament_id, entry_id, data.players, data.name, asker=principal.player_id,
                    command_id=data.command_id)
    return Response({"entry_id": entry_id}, status_code=201)


@delete("/v1/tournaments/{tournament_id:str}/entries/{entry_id:str}", guards=READER, tags=TAGS, security=BEARER,
        exception_handlers=HANDLERS, status_code=200, summary="Withdraw an entry (its players, or the organiser)",
        responses=X.answers(200, EntryWithdrawn, [ex("withdrawn", {"entry_id": X.ENTRY_B, "withdrawn": True})],
                            "The entry is out", 401, 403, 404, 409, 422, 429))
async def withdraw(tournament_id: PathStr, entry_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    svc = service(runtime)
    state = await svc.load(tournament_id)
    if not owns(principal, state) and principal.player_id not in state.entries.get(entry_id, []):
        raise ApiError(403, "forbidden", "only the entry's players or the organiser may withdraw it")
    await svc.execute(tournament_id, ev.Withdraw(entry_id=entry_id))
    return {"entry_id": entry_id, "withdrawn": True}


@post("/v1/tournaments/{tournament_id:str}/start", guards=ORGANISER, tags=TAGS, security=BEARER,
      exception_handlers=HANDLERS, status_code=200, summary="Start now: commit to every board, pair round 1",
      responses=X.answers(200, TournamentOut, [ex("started", X.VIEW)], "The tournament, round 1 paired", 401, 403,
                          404, 409, 422, 429))
async def start(tournament_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    svc = service(runtime)
    _owner(principal, await svc.load(tournament_id))
    await svc.start(tournament_id)
    state = await svc.load(tournament_id)
    return await reader_view(runtime, principal, state)


@post("/v1/tournaments/{tournament_id:str}/cancel", guards=ORGANISER, tags=TAGS, security=BEARER,
      exception_handlers=HANDLERS, status_code=200, summary="Close a tournament that has not started",
      description="Its organiser (or an admin) closes a tournament still taking entries: `tournament_closed` "
                  "with `reason` `cancelled` (the view's `closed_reason`), which ends its live stream. Once "
                  "started it runs to its end: 409 `already_started`; closed already: 409 `tournament_closed`.",
      responses=X.answers(200, TournamentOut,
                          [ex("cancelled", {**X.VIEW, "status": "closed", "closed_reason": "cancelled", "rounds": []})],
                          "The tournament, closed", 401, 403, 404, 409, 429))
async def cancel(tournament_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    svc = service(runtime)
    _owner(principal, await svc.load(tournament_id))
    await svc.execute(tournament_id, ev.Cancel(reason="cancelled"))
    state = await svc.load(tournament_id)
    return await reader_view(runtime, principal, state)


@post("/v1/tournaments/{tournament_id:str}/finish", guards=ORGANISER, tags=TAGS, security=BEARER,
      exception_handlers=HANDLERS, status_code=200, summary="End a running tournament with the round in play",
      description="Its organiser (or an admin) makes the round in play the last: its tables play on and are "
                  "scored, no later round is paired, and the tournament closes when the round does (at once "
                  "between rounds) with `reason` `finished_early`; `rounds_planned` becomes that round "
                  "(`tournament_shortened` on the live stream). Asked again, it changes nothing. Not started: "
                  "409 `not_started` (cancel it instead); closed: 409 `tournament_closed`; an elimination "
                  "bracket or a robot event: 409 `runs_to_its_end`.",
      responses=X.answers(200, TournamentOut, [ex("finishing", X.VIEW)], "The tournament, ending with its round "
                          "in play", 401, 403, 404, 409, 429))
async def finish(tournament_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    svc = service(runtime)
    _owner(principal, await svc.load(tournament_id))
    await svc.execute(tournament_id, ev.Finish())
    state = await svc.load(tournament_id)
    return await reader_view(runtime, principal, state)


@post("/v1/tournaments/{tournament_id:str}/pairings", guards=ORGANISER, tags=TAGS, security=BEARER,
      exception_handlers=HANDLERS, status_code=200,
      summary="Pair the next round by hand (all or nothing); it replaces the automatic pairing",
      responses=X.answers(200, TournamentOut, [ex("paired", X.VIEW)], "The tournament", 400, 401, 403, 404, 409,
                          422, 429))
async def pair(tournament_id: PathStr, data: Annotated[PairingIn, Body(examples=X.PAIRING_EXAMPLES)], principal: Caller,
               runtime: Runtime) -> dict[str, Any]:
    svc = service(runtime)
    _owner(principal, await svc.load(tournament_id))
    await svc.execute(tournament_id, ev.SubmitPairing(round=data.round, tables=data.tables, byes=data.byes))
    state = await svc.advance(tournament_id)
    return await reader_view(runtime, principal, state)


@get("/v1/tournaments/{tournament_id:str}/results", guards=READER, tags=TAGS, security=BEARER,
     exception_handlers=HANDLERS, summary="Every table's result, for closed rounds (all of them for the organiser)",
     responses=X.answers(200, list[ResultRow], [ex("round 1", X.RESULTS)], "Results", 401, 404, 429))
async def results(tournament_id: PathStr, principal: Caller, runtime: Runtime) -> list[dict[str, Any]]:
    state = await service(runtime).load(tournament_id)
    full = sees_all(principal, state)
    return [{"round": r.round, "table": r.table, "ns": r.home or None, "ew": r.away or None,
             "seats": dict(r.seats) or None, "score": dict(r.score),
             "boards": {str(b): dict(s) for b, s in r.boards.items()}, "forfeit": r.forfeit}
            for r in rules.results_of(state, closed_only=not full)]


@get("/v1/tournaments/{tournament_id:str}/standings", guards=READER, tags=TAGS, security=BEARER,
     exception_handlers=HANDLERS, summary="Standings per closed round and overall",
     responses=X.answers(200, StandingsOut, [ex("after round 1", X.STANDINGS)], "Standings", 401, 404, 429))
async def get_standings(tournament_id: PathStr, runtime: Runtime) -> dict[str, Any]:
    return standings(await service(runtime).load(tournament_id))


def _entry_name(state: rules.State, entry: str, names: dict[str, str]) -> str:
    """The entry's own name, else its players': a spreadsheet read away from the site has no
    other way to tell an unnamed entry's id from a person."""
    named = state.names.get(entry, entry)              # an unnamed entry may be kept under its id
    if named != entry:
        return named
    return " & ".join(names.get(p, p) for p in entry_players(state, entry)) or entry


@get("/v1/tournaments/{tournament_id:str}/export", guards=READER, tags=TAGS, security=BEARER,
     exception_handlers=HANDLERS, summary="Export standings and results: `?format=json` (default) or `csv`",
     responses=X.answers(200, TournamentExport, [ex("json", {"tournament": X.VIEW, "standings": [X.LINE]})],
                         "The export (CSV with ?format=csv)", 400, 401, 404, 429))
async def export(tournament_id: PathStr, principal: Caller, runtime: Runtime,
                 format: FromQuery[str] = "json") -> Response:
    state = await service(runtime).load(tournament_id)
    table = standings(state)["overall"]
    names = await player_names(runtime.players, state)
    if format == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, ["place", "entry", "name", "points", "tiebreak", "diff", "played", "wins", "byes",
                                     "bots"])
        writer.writeheader()
        for line in table:
            writer.writerow({**line, "name": _entry_name(state, line["entry"], names)})
        return Response(out.getvalue(), media_type="text/csv",  # Litestar adds "; charset=utf-8" to text types
                        headers={"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.csv"'})
    if format != "json":
        raise ApiError(400, "bad_format", "format must be json or csv")
    return Response({"tournament": view(state, sees_all(principal, state), names), "standings": table})


ROUTES = [list_tournaments, my_tournaments, create, read, register_entry, withdraw, start, cancel, finish, pair, results,
          get_standings, export]
