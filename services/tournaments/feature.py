"""Tournaments: their routes and live streams, the standings read model, the scheduling
tasks, and who may see a board (a tournament table is public once its round has closed at
every table; the organiser and the entrants are named to the visibility policy)."""

from __future__ import annotations

from typing import Any

from infra.projections.standings import TournamentStandings
from services.features import Feature, plain
from services.runtime import Runtime
from services.tournaments import scheduling
from services.tournaments.service import TournamentService


def _service(runtime: Runtime) -> TournamentService:
    return TournamentService(runtime.store, runtime.matches)


async def organiser_of(runtime: Runtime, match_id: str) -> str | None:
    """Who organises this match's tournament (None: no tournament's)."""
    return await _service(runtime).organiser_of(match_id)


async def entrants_of(runtime: Runtime, match_id: str) -> set[str]:
    """The players of every entry of this match's tournament (none: no tournament's)."""
    return await _service(runtime).entrants_of(match_id)


async def board_public(runtime: Runtime, match_id: str) -> bool:
    """A tournament table is public once its round has closed at every table; any other match is."""
    return await _service(runtime).board_public(match_id)


def _routes() -> list[Any]:
    from services.tournaments.routes import formats, live, tournaments
    return [*formats.ROUTES, *tournaments.ROUTES, *live.ROUTES]


def _channels() -> list[Any]:
    from services.tournaments.routes import live
    return list(live.CHANNELS)


FEATURE = Feature("tournaments", routes=_routes, projections=(plain(TournamentStandings),),
                  public_checks=(board_public,), organiser_lookups=(organiser_of,), entrant_lookups=(entrants_of,),
                  after_commit=(scheduling.after_commit,), tasks=(scheduling.register_tasks,), channels=_channels)
