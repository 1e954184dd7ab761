"""A round's table as a match: its seats (the entries' players, a bot for a missing partner),
its boards (the tournament's shuffles, or the imported record's decks), whether it is rated
(then with the rated clock, as every rated match), created, seated and started — each step exactly once however many workers race
(`TournamentService.advance` calls it from any of them).

Exactly once: the match id is derived from the create command's id, which is derived from
(tournament, round, table); each seat and the start carry their own derived command ids, and
a step another worker already took is skipped (`ConcurrencyError`, `RuleViolation`,
`CommandConflictError`: the store refused the duplicate).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from domain import tournaments as rules
from domain.cards import Seat
from domain.game import RuleViolation
from domain.match import TournamentRound
from domain.tournaments import events as ev
from domain.tournaments import teams
from infra.store import CommandConflictError, ConcurrencyError
from services.matches.clocks import match_clock, set_clock
from services.matches.service import MatchService
from services.tournaments import boards as tournament_boards
from services.tournaments.boards import board_deals


async def open_match(matches: MatchService, pool: Any, state: rules.State, rnd: rules.aggregate.Round,
                     table: ev.Table, secret: Callable[[], Awaitable[bytes]],
                     command: Callable[[str], uuid.UUID]) -> str:
    """The table's match, created, seated and started; its id. `secret()`: the tournament's
    board secret; `command(what)`: the derived command id of each step ("create", a seat,
    "start")."""
    create_id = command("create")
    match_id = str(uuid.uuid5(create_id, "match"))
    await pool.execute("INSERT INTO tournament_matches (match_id, tournament_id, round, table_no)"
                       " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING", match_id, state.tournament_id, rnd.number,
                       table.table)
    level = state.bots.get("level", "basic")
    people: dict[str, str] = {}
    specs: dict[str, str] = {}
    sitting = [(e, s) for s, e in table.seats.items()] or [(table.home, "NS"), (table.away, "EW")]
    for entry, seats in sitting:                   # an individual table: one seat an entry
        players = state.entries.get(entry, [])       # the robot event's house table: no one
        if table.room:                               # a team: the pair of this room
            players = teams.pair_of(players, table.room)
        for i, seat in enumerate(seats):
            player = players[i] if i < len(players) else f"bot:{level}"
            if player.startswith("bot:"):
                specs[seat] = player
            else:
                specs[seat], people[seat] = "open", player
    for seat in "NESW":                            # a robot duplicate table: bots around its one player
        specs.setdefault(seat, f"bot:{level}")
    predefined = None
    if rnd.boards and state.imported_boards:
        predefined = await tournament_boards.imported(pool, state.tournament_id, rnd.boards)
    elif rnd.boards:
        predefined = board_deals(state.game, state.tournament_id, await secret(), state.board_count, rnd.boards)
    # Rated where the organiser left it on, every seat is a person's, and the boards are the
    # tournament's own shuffles (imported boards are known cards).
    rated = state.rated and not state.imported_boards and not any(s.startswith("bot") for s in specs.values())
    await matches.create_match(state.game, state.options, specs, predefined=predefined,
                               sealed=predefined is not None, rated=rated, command_id=create_id,
                               tournament=TournamentRound(tournament_id=state.tournament_id, round=rnd.number,
                                                          standin=state.bots.get("standin")))
    if rated:                                      # a rated match always has a clock, set before the start
        await set_clock(matches.store, match_id, match_clock(None, rated=True))
    for seat, player in people.items():
        await _seat(matches, match_id, Seat(seat), player, command(seat))
    match = await matches.load(match_id)
    if match.status == "open":
        try:
            await matches.start(match_id, command_id=command("start"))
        except (ConcurrencyError, RuleViolation, CommandConflictError):
            pass                                   # another worker started it
    return match_id


async def _seat(matches: MatchService, match_id: str, seat: Seat, player: str, command_id: uuid.UUID) -> None:
    state = await matches.load(match_id)
    holder = state.seats.get(str(seat))
    if holder is not None and holder.player_id == player:
        return
    try:
        await matches.take_seat(match_id, seat, player_id=player, command_id=command_id)
    except (ConcurrencyError, RuleViolation, CommandConflictError):
        pass                                       # a racing worker seated them
