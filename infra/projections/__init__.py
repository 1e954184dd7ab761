"""Read models fed from the event log: the runner, rebuilds, the projector process.

`default_projections()` is the list the projector and `atout projections` work on; a new
read model is a `Projection` subclass added there.
"""

from infra.projections.base import Change, Projection, RowProjection
from infra.projections.hand_records import HandRecords
from infra.projections.lobby import Lobby
from infra.projections.match_summaries import MATCH_EVENTS, MatchSummaries
from infra.projections.projector import close_projections, run_projector
from infra.projections.rebuild import RebuildBusy, RebuildReport, rebuild
from infra.projections.runner import ProjectionRunner
from infra.projections.wake import WakeListener, WakePublisher, WakeWire, events_channel


def default_projections() -> list[Projection]:
    return [MatchSummaries(), Lobby(), HandRecords()]


__all__ = [
    "MATCH_EVENTS",
    "Change",
    "HandRecords",
    "Lobby",
    "MatchSummaries",
    "Projection",
    "ProjectionRunner",
    "RebuildBusy",
    "RebuildReport",
    "RowProjection",
    "WakeListener",
    "WakePublisher",
    "WakeWire",
    "close_projections",
    "default_projections",
    "events_channel",
    "rebuild",
    "run_projector",
]
