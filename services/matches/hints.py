"""Hints for human seats: the master bot's choice and its reason, at most one per decision and
a stated number per seat per match, each recorded in the match's own `hints-<match id>`
stream.

A hint is not a move, so it stays out of the match stream, whose versions players act on:
asking for one never makes anyone's `expected_version` stale. A decision is (seat, match
version): asking again before the match moves on answers the recorded hint, uncounted.
What a hint said is the seat's own business (it is computed from that seat's view only,
`domain.bots.hints`); what everyone may know is how many hints each seat has used.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec

from domain import match as rules
from domain.bots import hints as advice
from domain.cards import Seat
from infra import streams
from infra.lru import Lru
from infra.store import (
    CommandConflictError,
    ConcurrencyError,
    NewEvent,
    PostgresEventStore,
)
from services.matches.service import MatchService
from services.refusals import Conflict, Forbidden, NotNow, Refused, TooMany

PREFIX = streams.HINTS
HINT_GIVEN = "hint_given"
SEATS = ("N", "E", "S", "W")
ATTEMPTS = 5
# Whether hints are off in a match never changes once it exists (a tournament table is
# registered before its match is created), so each process keeps what it found.
_OFF: Lru[str, "Refused | None"] = Lru(4096)
# The expert's search is CPU work (tens of ms, up to about a second on a loaded machine):
# one search at a time per process, beside the event loop, so that hints asked together
# queue behind each other instead of all taking the API's CPU from every other request.
_SEARCH = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hint-search")


class Given(msgspec.Struct, frozen=True):
    """One hint as recorded: for `seat`'s decision at match `version`."""

    seat: str
    version: int
    player_id: str
    action: dict[str, Any] | None       # in the shared vocabulary, without the seat
    reason: dict[str, Any]              # {code, words, params}


def stream_of(match_id: str) -> str:
    return f"{PREFIX}{match_id}"


class HintService:
    def __init__(self, store: PostgresEventStore, matches: MatchService, per_match: int) -> None:
        self.store, self.matches, self.per_match = store, matches, per_match

    async def given(self, match_id: str) -> tuple[int, list[Given]]:
        """(the hint stream's version, every hint given in the match, in order)."""
        events = await self.store.read_stream(stream_of(match_id))
        version = events[-1].stream_version if events else 0
        return version, [msgspec.json.decode(e.data, type=Given) for e in events
                         if e.type == HINT_GIVEN and e.data is not None]

    async def used(self, match_id: str) -> dict[str, int]:
        """How many hints each seat has used: what every seat may know, never what they said."""
        counts = Counter(g.seat for g in (await self.given(match_id))[1])
        return {seat: counts.get(seat, 0) for seat in SEATS}

    async def give(self, state: rules.MatchState, seat: Seat | None, player_id: str) -> dict[str, Any]:
        """The hint for `seat`'s decision now: the recorded one if already asked, else the
        expert's, recorded (and counted) once."""
        if seat is None:
            raise Forbidden("no_seat", "a hint is for a seat's own decision: you hold no seat in this match",
                              {"match_id": state.match_id})
        await self._check_allowed(state)
        if state.status != "playing" or state.game_state is None:
            raise NotNow("match_not_playing", f"the match is {state.status}: there is nothing to decide",
                              {"status": state.status})
        to_act = [str(s) for s in state.game.status(state.game_state).to_act]
        if str(seat) not in to_act:
            raise NotNow("not_your_turn", "a hint is for a decision of yours: it is not your turn",
                              {"to_act": to_act})
        hint: advice.Hint | None = None
        for _ in range(ATTEMPTS):
            stream_version, given = await self.given(state.match_id)
            mine = [g for g in given if g.seat == str(seat)]
            earlier = next((g for g in mine if g.version == state.version), None)
            if earlier is not None:
                return self._answer(state.match_id, earlier, len(mine), replayed=True)
            if len(mine) >= self.per_match:
                raise TooMany("hint_limit", f"each seat has {self.per_match} hints per match, all used",
                                  {"limit": self.per_match, "used": len(mine)})
            if hint is None:
                view = rules.view(state, seat)
                hint = await asyncio.get_running_loop().run_in_executor(_SEARCH, advice.suggest,
                                                                         state.game_name, view)
            record = Given(seat=str(seat), version=state.version, player_id=player_id,
                           action=None if hint.action is None else {k: v for k, v in hint.action.items() if k != "seat"},
                           reason=msgspec.to_builtins(hint.reason))
            try:
                await self.store.append(stream_of(state.match_id), stream_version,
                                        [NewEvent(type=HINT_GIVEN, data=msgspec.json.encode(record))],
                                        command_id=uuid.uuid5(uuid.NAMESPACE_URL,
                                                              f"atout:hint:{state.match_id}:{seat}:{state.version}"))
            except (ConcurrencyError, CommandConflictError):
                continue                 # another hint was recorded meanwhile: read again
            return self._answer(state.match_id, record, len(mine) + 1, replayed=False)
        raise Conflict("hint_busy", "hints for this match kept changing while this one was recorded; ask again")

    async def limit(self, match_id: str) -> int:
        """Hints each seat may have in this match: 0 where they are off."""
        return 0 if await self._off(match_id) is not None else self.per_match

    async def _check_allowed(self, state: rules.MatchState) -> None:
        refused = await self._off(state.match_id)
        if refused is not None:
            raise refused

    async def _off(self, match_id: str) -> Refused | None:
        """The one place that says where hints are off. Tournament tables and rated
        matches: a hint is help from outside the table."""
        if match_id in _OFF:
            return _OFF.get(match_id)
        from services.tournaments.service import TournamentService

        refused = None
        if await TournamentService(self.store, self.matches).tournament_of(match_id) is not None:
            refused = NotNow("hints_off_tournament", "hints are off in tournament matches",
                                  {"match_id": match_id})
        elif (await self.matches.load(match_id)).rated:
            refused = NotNow("hints_off_rated", "hints are off in rated matches", {"match_id": match_id})
        _OFF.put(match_id, refused)
        return refused

    def _answer(self, match_id: str, given: Given, used: int, replayed: bool) -> dict[str, Any]:
        return {"match_id": match_id, "seat": given.seat, "version": given.version, "action": given.action,
                "reason": given.reason, "used": used, "limit": self.per_match, "replayed": replayed}
