"""Tournament routes under `/v1/tournaments` (docs/tournaments.md).

Organiser-only commands (create; then start, pair, register house bots, withdraw any entry)
need the organiser role and, after creation, to be this tournament's organiser (admins may
too). Everyone signed in can read; a round's results (and its boards' seeds) are shown to
players only once the round has closed at every table. Importing this module registers the
routes, the standings projection, and the lookups disputes use, with `services.bootstrap`.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import uuid
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.params import Body

from domain import tournaments as rules
from domain.game import RuleViolation
from domain.tournaments import events as ev
from domain.tournaments import scoring
from infra.players import Principal
from infra.projections.standings import TournamentStandings
from services import visibility
from services.api.auth import authenticated, requires
from services.api.errors import ApiError, error_body
from services.api.ratelimit import rate_limited
from services.api import tournament_examples as X
from services.api.schemas import BEARER, Caller, FromQuery, PathStr, Runtime, ex
from services.tournaments import TournamentService, UnknownTournament

TAGS = ["tournaments"]
READER = [authenticated, rate_limited]
ORGANISER = [authenticated, rate_limited, requires("organiser")]
CONFLICTS = {"already_started", "bad_round", "round_open", "entry_exists", "already_registered", "tournament_closed",
             "registration_closed"}
RECORD_CODES = {"bad_record", "bad_deck", "wrong_dealer", "not_enough_boards"}   # of imported boards: 400
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=80)]


class CreateIn(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    game: str
    format: str
    options: dict[str, Any] = {}
    rounds: Annotated[int, msgspec.Meta(ge=1, le=rules.aggregate.MAX_ROUNDS)] | None = None
    schedule: str | None = None
    bots: dict[str, Any] = {}
    no_show_grace: Annotated[int, msgspec.Meta(ge=0, le=ev.MAX_NO_SHOW_GRACE)] | None = None
    boards: dict[str, Any] | None = None          # a match record: its decks are the boards
    command_id: uuid.UUID | None = None


class EntryIn(msgspec.Struct, forbid_unknown_fields=True):
    players: Annotated[list[str], msgspec.Meta(min_length=1, max_length=2)]
    name: str = ""
    command_id: uuid.UUID | None = None


class PairingIn(msgspec.Struct, forbid_unknown_fields=True):
    round: Annotated[int, msgspec.Meta(ge=1)]
    tables: list[list[str]]
    byes: list[str] = []


def service(runtime: Any) -> TournamentService:
    return TournamentService(runtime.store, runtime.matches)


def _violation(_: Request, exc: RuleViolation) -> Response:
    return Response(error_body(exc.code, exc.message, exc.details), status_code=409 if exc.code in CONFLICTS else 422)


def _unknown(_: Request, exc: UnknownTournament) -> Response:
    return Response(error_body("unknown_tournament", str(exc), {"tournament_id": exc.tournament_id}), status_code=404)


HANDLERS = {RuleViolation: _violation, UnknownTournament: _unknown}


def owns(principal: Principal, state: rules.State) -> bool:
    return principal.has_role("admin") or (principal.role == "organiser" and principal.player_id == state.organiser)


def sees_all(principal: Principal, state: rules.State) -> bool:
    """Whether `principal` reads every result as it comes (the organiser's and admins' view):
    not while he plays an entry of this tournament (services/visibility.py)."""
    players = {p for entry in state.entries.values() for p in entry}
    return visibility.may_review(principal, {state.organiser}, players)


def _owner(principal: Principal, state: rules.State) -> None:
    if not owns(principal, state):
        raise ApiError(403, "forbidden", "only this tournament's organiser (or an admin) may do this")


def view(state: rules.State, full: bool) -> dict[str, Any]:
    """The tournament as its reader may see it: a round's results and seeds only once closed
    (`full` for the organiser and admins)."""
    rounds = []
    for rnd in state.played:
        shown = full or rnd.closed
        rounds.append({"round": rnd.number, "closed": rnd.closed, "boards": rnd.boards, "byes": rnd.byes,
                       "manual": rnd.manual,
                       "tables": [{"table": t.table, "ns": t.home or None, "ew": t.away or None,
                                   "seats": t.seats or None, "match_id": rnd.matches.get(t.table),
                                   "result": msgspec.to_builtins(rnd.results[t.table]) if shown and t.table in rnd.results
                                   else None} for t in rnd.tables],
                       "seeds": rnd.seeds if rnd.closed else {}})
    return {"tournament_id": state.tournament_id, "name": state.name, "organiser": state.organiser,
            "game": state.game, "options": state.options, "format": state.format, "status": state.status,
            "schedule": state.schedule, "bots": state.bots, "no_show_grace": state.no_show_grace,
            "rounds_planned": state.rounds or state.rounds_wanted,
            "individual": state.individual, "commitment": state.commitment, "board_count": state.board_count,
            "boards": "record" if state.imported_boards else "shuffle" if state.options.get("deals") else None,
            "board_digests": state.board_digests,
            "entries": [{"entry_id": e, "players": p, "name": state.names.get(e, e),
                         "withdrawn": e in state.withdrawn} for e, p in state.entries.items()],
            "rounds": rounds, "version": state.version}


def standings(state: rules.State) -> dict[str, Any]:
    entries = list(state.entries)
    by_round = {}
    for rnd in state.played:
        if rnd.closed:
            cut = msgspec.structs.replace(state, played=[r for r in state.played if r.number <= rnd.number])
            by_round[str(rnd.number)] = scoring.standings(rules.lines(cut, closed_only=True), entries,
                                                          state.duplicate or state.individual)
    overall = scoring.standings(rules.lines(state, closed_only=True), entries, state.duplicate or state.individual)
    return {"tournament_id": state.tournament_id, "format": state.format, "status": state.status,
            "overall": overall, "by_round": by_round,
            "tie_breaks": ["matchpoints", "diff"] if state.duplicate else ["points", "diff"] if state.individual
            else ["points", "buchholz", "diff"]}


def _check_schedule(schedule: str) -> None:
    """A start time the tick and the standings can read: ISO 8601 with its offset."""
    try:
        parsed = dt.datetime.fromisoformat(schedule.replace("Z", "+00:00"))
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise ApiError(400, "invalid_field", "$.schedule: a date-time with its offset, e.g. 2026-12-04T20:00:00Z",
                       {"field": "$.schedule"})


@post("/v1/tournaments", guards=ORGANISER, tags=TAGS, security=BEARER, exception_handlers=HANDLERS,
      summary="Create a tournament (organisers)",
      responses=X.answers(201, dict, [ex("the new tournament", {**X.VIEW, "status": "registering", "rounds": []})],
                          "The tournament as its organiser sees it", 400, 401, 403, 409, 422, 429))
async def create(data: Annotated[CreateIn, Body(examples=X.CREATE_EXAMPLES)], principal: Caller,
                 runtime: Runtime) -> Response:
    if data.schedule is not None:
        _check_schedule(data.schedule)
    try:
        tid = await service(runtime).create(principal.player_id, data.name, data.game, data.options, data.format,
                                            data.rounds, data.schedule, data.bots, data.command_id,
                                            data.no_show_grace, data.boards)
    except RuleViolation as violation:
        if violation.code not in RECORD_CODES:
            raise
        deal = violation.details.get("deal")
        raise ApiError(400, violation.code, violation.message,
                       {"field": "$.boards" if deal is None else f"$.boards.deals[{deal}]", **violation.details}) from None
    state = await service(runtime).load(tid)
    return Response(view(state, True), status_code=201, headers={"Location": f"/v1/tournaments/{tid}"})


@get("/v1/tournaments/{tournament_id:str}", guards=READER, tags=TAGS, security=BEARER, exception_handlers=HANDLERS,
     summary="A tournament: entries, rounds, tables; results once each round has closed",
     responses=X.answers(200, dict, [ex("round 1 under way", X.VIEW)], "The tournament", 401, 404, 429))
async def read(tournament_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    state = await service(runtime).load(tournament_id)
    return view(state, sees_all(principal, state))


@post("/v1/tournaments/{tournament_id:str}/entries", guards=READER, tags=TAGS, security=BEARER,
      exception_handlers=HANDLERS, summary="Register an entry: a partnership (or one player, partnered by a bot)",
      responses=X.answers(201, dict, [ex("registered", {"entry_id": X.ENTRY_A})], "The entry", 401, 403, 404, 409, 429))
async def register_entry(tournament_id: PathStr, data: Annotated[EntryIn, Body(examples=X.ENTRY_EXAMPLES)],
                         principal: Caller, runtime: Runtime) -> Response:
    svc = service(runtime)
    state = await svc.load(tournament_id)
    if not owns(principal, state) and (principal.player_id not in data.players
                                       or any(p.startswith("bot:") for p in data.players)):
        raise ApiError(403, "forbidden", "a player registers an entry he plays in; house bots are the organiser's")
    entry_id = str(uuid.uuid4() if data.command_id is None else uuid.uuid5(data.command_id, "entry"))
    await svc.execute(tournament_id, ev.Register(entry_id=entry_id, players=data.players, name=data.name),
                      command_id=data.command_id)
    return Response({"entry_id": entry_id}, status_code=201)


@delete("/v1/tournaments/{tournament_id:str}/entries/{entry_id:str}", guards=READER, tags=TAGS, security=BEARER,
        exception_handlers=HANDLERS, status_code=200, summary="Withdraw an entry (its players, or the organiser)",
        responses=X.answers(200, dict, [ex("withdrawn", {"entry_id": X.ENTRY_B, "withdrawn": True})],
                            "The entry is out", 401, 403, 404, 422, 429))
async def withdraw(tournament_id: PathStr, entry_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    svc = service(runtime)
    state = await svc.load(tournament_id)
    if not owns(principal, state) and principal.player_id not in state.entries.get(entry_id, []):
        raise ApiError(403, "forbidden", "only the entry's players or the organiser may withdraw it")
    await svc.execute(tournament_id, ev.Withdraw(entry_id=entry_id))
    return {"entry_id": entry_id, "withdrawn": True}


@post("/v1/tournaments/{tournament_id:str}/start", guards=ORGANISER, tags=TAGS, security=BEARER,
      exception_handlers=HANDLERS, status_code=200, summary="Start now: commit to every board, pair round 1",
      responses=X.answers(200, dict, [ex("started", X.VIEW)], "The tournament, round 1 paired", 401, 403, 404, 409,
                          422, 429))
async def start(tournament_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    svc = service(runtime)
    _owner(principal, await svc.load(tournament_id))
    await svc.start(tournament_id)
    state = await svc.load(tournament_id)
    return view(state, sees_all(principal, state))


@post("/v1/tournaments/{tournament_id:str}/pairings", guards=ORGANISER, tags=TAGS, security=BEARER,
      exception_handlers=HANDLERS, status_code=200,
      summary="Pair the next round by hand (all or nothing); it replaces the automatic pairing",
      responses=X.answers(200, dict, [ex("paired", X.VIEW)], "The tournament", 400, 401, 403, 404, 409, 422, 429))
async def pair(tournament_id: PathStr, data: Annotated[PairingIn, Body(examples=X.PAIRING_EXAMPLES)], principal: Caller,
               runtime: Runtime) -> dict[str, Any]:
    svc = service(runtime)
    _owner(principal, await svc.load(tournament_id))
    await svc.execute(tournament_id, ev.SubmitPairing(round=data.round, tables=data.tables, byes=data.byes))
    state = await svc.advance(tournament_id)
    return view(state, sees_all(principal, state))


@get("/v1/tournaments/{tournament_id:str}/results", guards=READER, tags=TAGS, security=BEARER,
     exception_handlers=HANDLERS, summary="Every table's result, for closed rounds (all of them for the organiser)",
     responses=X.answers(200, list, [ex("round 1", X.RESULTS)], "Results", 401, 404, 429))
async def results(tournament_id: PathStr, principal: Caller, runtime: Runtime) -> list[dict[str, Any]]:
    state = await service(runtime).load(tournament_id)
    full = sees_all(principal, state)
    return [{"round": r.round, "table": r.table, "ns": r.home or None, "ew": r.away or None,
             "seats": dict(r.seats) or None, "score": dict(r.score),
             "boards": {str(b): dict(s) for b, s in r.boards.items()}, "forfeit": r.forfeit}
            for r in rules.results_of(state, closed_only=not full)]


@get("/v1/tournaments/{tournament_id:str}/standings", guards=READER, tags=TAGS, security=BEARER,
     exception_handlers=HANDLERS, summary="Standings per closed round and overall",
     responses=X.answers(200, dict, [ex("after round 1", X.STANDINGS)], "Standings", 401, 404, 429))
async def get_standings(tournament_id: PathStr, runtime: Runtime) -> dict[str, Any]:
    return standings(await service(runtime).load(tournament_id))


@get("/v1/tournaments/{tournament_id:str}/export", guards=READER, tags=TAGS, security=BEARER,
     exception_handlers=HANDLERS, summary="Export standings and results: `?format=json` (default) or `csv`",
     responses=X.answers(200, dict, [ex("json", {"tournament": X.VIEW, "standings": [X.LINE]})],
                         "The export (CSV with ?format=csv)", 400, 401, 404, 429))
async def export(tournament_id: PathStr, principal: Caller, runtime: Runtime,
                 format: FromQuery[str] = "json") -> Response:
    state = await service(runtime).load(tournament_id)
    table = standings(state)["overall"]
    if format == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, ["place", "entry", "name", "points", "tiebreak", "diff", "played", "wins", "byes"])
        writer.writeheader()
        for line in table:
            writer.writerow({**line, "name": state.names.get(line["entry"], line["entry"])})
        return Response(out.getvalue(), media_type="text/csv",  # Litestar adds "; charset=utf-8" to text types
                        headers={"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.csv"'})
    if format != "json":
        raise ApiError(400, "bad_format", "format must be json or csv")
    return Response({"tournament": view(state, sees_all(principal, state)), "standings": table})


ROUTES = [create, read, register_entry, withdraw, start, pair, results, get_standings, export]


def register() -> None:
    """Mount the feature: routes, standings projection, and the disputes lookups."""
    from services import bootstrap
    from services.api import tournament_live

    for route in [*ROUTES, *tournament_live.ROUTES]:
        if route not in bootstrap.EXTRA_ROUTES:
            bootstrap.EXTRA_ROUTES.append(route)
    if TournamentStandings not in bootstrap.EXTRA_PROJECTIONS:
        bootstrap.EXTRA_PROJECTIONS.append(TournamentStandings)
    if _lifespan not in bootstrap.LIFESPAN_HOOKS:
        bootstrap.LIFESPAN_HOOKS.append(_lifespan)
    if _organiser not in visibility.ORGANISER_LOOKUPS:
        visibility.ORGANISER_LOOKUPS.append(_organiser)
        visibility.PUBLIC_CHECKS.append(_public)
        visibility.ENTRANT_LOOKUPS.append(_entrants)


_runtime: dict[str, Any] = {}


@contextlib.asynccontextmanager
async def _lifespan(app: Any) -> Any:
    """Give the disputes lookups this process's runtime."""
    _runtime["runtime"] = app.state.runtime
    try:
        yield
    finally:
        _runtime.pop("runtime", None)


async def _organiser(match_id: str) -> str | None:
    runtime = _runtime.get("runtime")
    return None if runtime is None else await service(runtime).organiser_of(match_id)


async def _entrants(match_id: str) -> set[str]:
    runtime = _runtime.get("runtime")
    return set() if runtime is None else await service(runtime).entrants_of(match_id)


async def _public(match_id: str) -> bool:
    runtime = _runtime.get("runtime")
    return True if runtime is None else await service(runtime).board_public(match_id)


register()
