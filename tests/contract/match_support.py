"""Driving a match through the game service as four clients would (shared by contract tests)."""

from __future__ import annotations

import random
import uuid

import msgspec

from domain import match as rules
from domain.cards import Seat
from domain.playout import concrete
from services.matches.service import MatchService


async def seated_match(svc: MatchService, game: str, options: dict) -> str:
    players = {s: f"player-{s}-{uuid.uuid4().hex[:6]}" for s in "NESW"}
    created = await svc.create_match(game, options, {"N": "me", "E": "open", "S": "open", "W": "open"},
                                     player_id=players["N"], entropy="north's entropy")
    match_id = created.match_id
    for seat in "ESW":
        await svc.take_seat(match_id, Seat(seat), player_id=players[seat], entropy=f"{seat} entropy")
    await svc.start(match_id)
    return match_id


async def play_out(svc: MatchService, match_id: str, rng: random.Random, limit: int = 2000) -> rules.MatchState:
    """Each step: a seat that may act picks a legal action from its own view, as a client would."""
    for _ in range(limit):
        state = await svc.load(match_id)
        if state.status != "playing":
            return state
        choices = []
        for seat in Seat:
            table = msgspec.to_builtins(rules.view(state, seat).table)
            choices += [(seat, a) for a in table["legal"]]
        seat, action = rng.choice(choices)
        holder = state.seats[seat.value]
        await svc.act(match_id, {"seat": seat.value, **concrete(action, rng)}, player_id=holder.player_id,
                      expected_version=state.version, command_id=uuid.uuid4())
    raise AssertionError("match did not finish")
