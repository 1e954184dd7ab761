"""No-show forfeits, the I/O half (the rules are `domain.tournaments.forfeits`): who at a
table has acted in person, and stopping a forfeited table's match.

Why here and not in the match service: "acted in person" is a tournament's question about a
match's history (`action_taken` with `by == "player"`, which the clock's or a takeover bot's
moves are not), asked once per table after its grace, never on the hot path of play.
"""

from __future__ import annotations

import logging

from domain import match as match_rules
from domain.tournaments.events import Table
from infra.store import ConcurrencyError
from services.matches.service import MatchService

log = logging.getLogger(__name__)


async def absent(matches: MatchService, match_id: str, table: Table) -> list[str]:
    """The entries of `table` none of whose human players has acted at it in person (an entry
    of bots only is never absent). None at an individual table: its forfeits are not done."""
    if table.seats:
        return []
    state = await matches.load(match_id)
    acted = {str(e.seat) for _, e, _ in await matches.events(match_id)
             if isinstance(e, match_rules.ActionTaken) and e.by == "player"}
    out = []
    for entry, seats in ((table.home, "NS"), (table.away, "EW")):
        humans = [s for s in seats if (h := state.seats.get(s)) is not None and h.kind == "player"]
        if humans and not acted.intersection(humans):
            out.append(entry)
    return out


async def stop(matches: MatchService, match_id: str, grace: int, tries: int = 5) -> bool:
    """End a forfeited table's match (`match_abandoned`) so nobody plays on for nothing; best
    effort: bots acting meanwhile move its version, so retry a few times, and a match that
    stays (or already ended) changes no result — the forfeit is recorded."""
    for _ in range(tries):
        state = await matches.load(match_id)
        if state.status not in ("open", "playing"):
            return False
        try:
            await matches.abandon(match_id, expected_version=state.version, idle_seconds=float(grace))
            return True
        except ConcurrencyError:
            continue
    log.warning("forfeited match %s is still being played", match_id)
    return False
