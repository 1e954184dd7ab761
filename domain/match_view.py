"""What a seat may see of a match: the one path out for players, spectators, bots and the
live streams (`domain.match.view`, `domain.match.redact`, re-exported there).

The game's own view and redaction do the hiding (hands, the kitty, the buried cards); the
match adds only public facts, and hides what the match layer itself holds: the dealt deck,
another seat's action marks, and a sealed tournament board's deck, seed and play while other
tables still play it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from domain.cards import Seat
from domain.match_events import (
    MATCH_EVENTS,
    ActionTaken,
    DealDealt,
    DealFinished,
    SeatHolder,
    SeedRevealed,
)

if TYPE_CHECKING:
    from domain.match import MatchState


class MatchView(msgspec.Struct, frozen=True):
    match_id: str
    game: str
    options: dict[str, Any]
    seats: dict[str, SeatHolder | None]
    status: str
    version: int
    commitment: str | None
    seat: Seat | None
    table: Any                     # the game's own view for this seat
    details: dict[str, Any] | None = None   # while suspended: {reason, message}


def view(state: MatchState, seat: Seat | None) -> MatchView:
    """The one path from a match to a seat, a spectator or a bot: the game's view does the
    hiding; the match adds only public facts."""
    table = state.game.view(state.game_state, seat) if state.game_state is not None else None
    return MatchView(match_id=state.match_id, game=state.game_name, options=state.raw_options, seats=state.seats,
                     status=state.status, version=state.version, commitment=state.commitment, seat=seat, table=table,
                     details={k: state.suspension[k] for k in ("reason", "message")} if state.suspension else None)


def redact(state: MatchState, event: Any, seat: Seat | None) -> Any | None:
    """What `seat` (None: a spectator) may see of one event; None is a placeholder."""
    if isinstance(event, DealDealt):
        return None
    if isinstance(event, ActionTaken):
        return event if seat is not None and event.seat == seat else None
    if state.sealed and isinstance(event, SeedRevealed):
        return None
    if state.sealed and isinstance(event, DealFinished):
        # A board still being played at another table: the table keeps its own result, but
        # not the deck, the seed or the actions it could pass on. The sealed record is
        # released through the service once the round has closed everywhere.
        return msgspec.structs.replace(event, deck=(), actions=(), fair=None)
    if isinstance(event, MATCH_EVENTS):
        return event
    return state.game.redact(event, seat)
