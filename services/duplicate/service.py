"""Robot duplicate entries and travellers over the tournament service.

Why here and not in the tournament service: entering a robot event and reading a traveller
need a clock and the matches' hand records, and add nothing to how a tournament moves on;
the tournament service keeps the rounds (and closes a robot event's window in `advance`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from functools import lru_cache
from typing import Any

from domain import fair
from domain import match as match_rules
from domain.game import RuleViolation
from domain.games import GAMES
from domain.tournaments import aggregate, robot, scoring, standing, teams, travellers
from domain.tournaments import events as ev
from services.matches import seating
from services.matches.service import UnknownMatch
from services.tournaments.service import NS, TournamentService

log = logging.getLogger(__name__)


class UnknownBoard(LookupError):
    def __init__(self, board: int) -> None:
        super().__init__(f"no board {board} in this tournament")
        self.board = board


class BoardSealed(PermissionError):
    """The board's round has not closed at every table: its results and cards stay hidden."""


def entry_of(tournament_id: str, player: str) -> str:
    return str(uuid.uuid5(NS, f"{tournament_id}/robot/{player}"))


async def play(tournaments: TournamentService, tournament_id: str, player: str, name: str) -> dict[str, Any]:
    """Enter `player` in a robot duplicate event (once; a second call answers his table) and
    open his table: South, three bots of the event's level around him."""
    state = await tournaments.load(tournament_id)
    entry = entry_of(tournament_id, player)
    if entry not in state.entries:
        await seating.admit(tournaments.store, [player], asker=player, named=[player])
        try:
            await tournaments.execute(tournament_id, ev.Enter(entry_id=entry, players=[player], name=name,
                                                              now=tournaments.clock().isoformat()))
        except RuleViolation as violation:
            if violation.code != "entry_exists":
                raise
    await tournaments.advance(tournament_id)
    # Read again: a worker's tick may have opened my table while this advance tried to (the
    # rules refused the second opening), after the state advance last read.
    state = await tournaments.load(tournament_id)
    rnd = state.current
    table = next((t.table for t in (rnd.tables if rnd else []) if t.home == entry), None)
    return {"tournament_id": tournament_id, "entry_id": entry, "table": table, "seat": robot.SEAT,
            "match_id": rnd.matches.get(table) if rnd and table else None, "closes_at": state.closes_at}


def round_of(state: aggregate.State, board: int) -> aggregate.Round:
    for rnd in state.played:
        if board in rnd.boards:
            return rnd
    raise UnknownBoard(board)


async def traveller(tournaments: TournamentService, state: aggregate.State, board: int) -> dict[str, Any]:
    """Board `board`'s traveller: every table's contract, declarer, result, score and points,
    and the hand record (dealer, deck, seed and whether it verifies against the commitment).
    Only once the board's round has closed at every table (`BoardSealed` before)."""
    if not (state.duplicate or state.teams) or board < 1:
        raise UnknownBoard(board)
    rnd = round_of(state, board)
    if not rnd.closed:
        raise BoardSealed(board)
    results = [r for r in standing.results_of(state) if r.round == rnd.number]
    index = rnd.boards.index(board)
    summaries: dict[int, dict[str, Any] | None] = {}
    deal: match_rules.DealFinished | None = None
    for table, match_id in rnd.matches.items():
        try:
            finished = [e for _, e, _ in await tournaments.matches.events(match_id)
                        if isinstance(e, match_rules.DealFinished)]
        except UnknownMatch:
            finished = []
        if index < len(finished):
            summaries[table] = finished[index].summary
            deal = deal or finished[index]
    scale, unit = standing.scale_of(state.game, state.options)
    if state.teams:
        scored = teams.board_points(results, board, scale)
    else:
        fields = scoring.fields([r for r in results if r.home != robot.HOUSE])
        scored = scoring.scored_fields({k: v for k, v in fields.items() if k[0] == board}, state.scoring, scale, unit)
    seed = rnd.seeds.get(str(board))
    verified = None
    if seed and state.commitment and not state.imported_boards:
        verified = fair.verify_seed(bytes.fromhex(seed), bytes.fromhex(state.commitment), steps=board)
    par, pending = await board_par(state.game, state.options, str(deal.dealer), tuple(deal.deck)) if deal else (None, False)
    return {"tournament_id": state.tournament_id, "board": board, "round": rnd.number,
            "scoring": "imps" if state.teams else state.scoring,
            "rows": travellers.rows(board, results, summaries, scored, rnd.matches, index),
            "hand": {"dealer": str(deal.dealer) if deal else None, "deck": list(deal.deck) if deal else [],
                     "seed": seed, "commitment": state.commitment, "verified": verified, "par": par,
                     "par_pending": pending}}


@lru_cache(maxsize=512)
def par_of(game_name: str, options: str, dealer: str, deck: tuple[str, ...]) -> dict[str, Any] | None:
    """The board's par in the traveller's words (None for a way of playing without one): a
    board's cards never change, so it is worked out once per process."""
    game = GAMES[game_name]
    if game.par is None:
        return None
    found = game.par(game.parse_options(json.loads(options)), dealer, deck)
    if found is None:
        return None
    return {"contract": found.contract, "score": found.score, "card_points": found.card_points, "unit": found.unit}


async def board_par(game: str, options: dict[str, Any], dealer: str,
                    deck: tuple[str, ...]) -> tuple[dict[str, Any] | None, bool]:
    """(the board's par or None, whether it is still being worked out). A board's cards never
    change, so each is solved once per process, off the event loop: a fraction of a second to
    a few (up to sixteen deals solved), rarely more — a read waits `PAR_WAIT` at most and the
    work goes on for the next read."""
    key = (game, json.dumps(options, sort_keys=True), dealer, deck)
    task = _SOLVING.get(key)
    if task is None:
        task = _SOLVING[key] = asyncio.ensure_future(asyncio.to_thread(par_of, *key))
        task.add_done_callback(lambda _: _SOLVING.pop(key, None))
    try:
        return await asyncio.wait_for(asyncio.shield(task), PAR_WAIT), False
    except TimeoutError:
        return None, True
    except Exception:                        # a defect in a solver: the traveller is still served
        log.exception("the par of a %s board failed", game)
        return None, False


PAR_WAIT = 2.0
_SOLVING: dict[tuple[str, str, str, tuple[str, ...]], asyncio.Future[dict[str, Any] | None]] = {}
