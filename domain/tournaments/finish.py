"""Ending a running tournament early, with the round in play.

An organiser's day runs out, or too many entries left: the usual club answer is "this round
is the last". The round's tables play on and are scored as any other; nothing after it is
paired, and the tournament closes when the round does (at once between rounds). An
elimination bracket without its final has no winner and a robot event ends with its window,
so both run to their end."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.game import verify
from domain.tournaments.events import TournamentClosed, TournamentShortened

if TYPE_CHECKING:
    from domain.tournaments.aggregate import State

REASON = "finished_early"


def finish(state: State) -> list[Any]:
    verify(state.format != "elimination" and not state.robot, "runs_to_its_end",
           "an elimination bracket runs to its final and a robot event to the close of its window")
    last = len(state.played)                 # the round in play, or the last one played
    if last >= state.rounds:                 # already ending with this round: a repeat changes nothing
        return []
    rnd = state.current
    between = rnd is None or rnd.closed
    return [TournamentShortened(rounds=last), *([TournamentClosed(reason=REASON)] if between else [])]


def closing(state: State) -> TournamentClosed:
    """The close after the last round: as planned, or as its organiser shortened it."""
    return TournamentClosed(reason=REASON if state.shortened else "completed")
