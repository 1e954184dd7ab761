"""What the tournament routes and the live tournament stream share: the service of a
runtime, the error mapping, who owns a tournament, and the tournament as a reader sees it."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response

from domain import tournaments as rules
from domain.game import RuleViolation
from domain.tournaments import scoring
from infra.players import PlayerStore, Principal
from services import visibility
from services.http.errors import ApiError, error_body
from services.runtime import Runtime
from services.tournaments.service import TournamentService, UnknownTournament

CONFLICTS = {"already_started", "bad_round", "round_open", "entry_exists", "already_registered", "tournament_closed",
             "registration_closed", "not_started", "runs_to_its_end"}


def service(runtime: Runtime) -> TournamentService:
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


async def player_names(players: PlayerStore, state: rules.State) -> dict[str, str]:
    """The display names of the entries' players (an erased player has none): what a reader
    shows at its tables and in its standings, read once for the whole view."""
    people = sorted({p for entry in state.entries.values() for p in entry if not p.startswith("bot:")})
    return await players.names(people) if people else {}


async def reader_view(runtime: Runtime, principal: Principal, state: rules.State) -> dict[str, Any]:
    """`view` as this reader may see it, with the players' names."""
    return view(state, sees_all(principal, state), await player_names(runtime.players, state))


def view(state: rules.State, full: bool, names: dict[str, str] | None = None) -> dict[str, Any]:
    """The tournament as its reader may see it: a round's results and seeds only once closed
    (`full` for the organiser and admins); `names` the players' (`player_names`)."""
    rounds = []
    for rnd in state.played:
        shown = full or rnd.closed
        rounds.append({"round": rnd.number, "closed": rnd.closed, "boards": rnd.boards, "byes": rnd.byes,
                       "manual": rnd.manual,
                       "tables": [{"table": t.table, "room": t.room or None, "ns": t.home or None,
                                   "ew": t.away or None,
                                   "seats": t.seats or None, "match_id": rnd.matches.get(t.table),
                                   "result": msgspec.to_builtins(rnd.results[t.table]) if shown and t.table in rnd.results
                                   else None} for t in rnd.tables],
                       "seeds": rnd.seeds if rnd.closed else {}})
    return {"tournament_id": state.tournament_id, "name": state.name, "organiser": state.organiser,
            "game": state.game, "options": state.options, "format": state.format, "status": state.status,
            "scoring": state.scoring if state.duplicate else None, "closes_at": state.closes_at,
            "closed_reason": state.closed_reason, "schedule": state.schedule, "bots": state.bots, "no_show_grace": state.no_show_grace,
            "rounds_planned": state.rounds or state.rounds_wanted,
            "individual": state.individual, "commitment": state.commitment, "board_count": state.board_count,
            "boards": "record" if state.imported_boards else "shuffle" if state.options.get("deals") else None,
            "board_digests": state.board_digests,
            "entries": [{"entry_id": e, "players": p, "name": state.names.get(e, e),
                         "withdrawn": e in state.withdrawn} for e, p in state.entries.items()],
            "rounds": rounds, "version": state.version, "player_names": names or {}}


def standings(state: rules.State) -> dict[str, Any]:
    """Each line says whether its entry seats a bot (a team's bot pair, a partner bot)."""
    entries = list(state.entries)
    plain = state.duplicate or state.individual or state.teams

    def table(lines: dict[str, scoring.Line]) -> list[dict[str, Any]]:
        return [{**line, "bots": any(p.startswith("bot:") for p in state.entries.get(line["entry"], []))}
                for line in scoring.standings(lines, entries, plain)]

    by_round = {}
    for rnd in state.played:
        if rnd.closed:
            cut = msgspec.structs.replace(state, played=[r for r in state.played if r.number <= rnd.number])
            by_round[str(rnd.number)] = table(rules.lines(cut, closed_only=True))
    overall = table(rules.lines(state, closed_only=True))
    return {"tournament_id": state.tournament_id, "format": state.format, "status": state.status,
            "overall": overall, "by_round": by_round,
            "scoring": state.scoring if state.duplicate else None,
            "tie_breaks": ["victory_points", "imps"] if state.teams else [state.scoring, "diff"] if state.duplicate else ["points", "diff"] if state.individual
            else ["points", "buchholz", "diff"]}
