"""What the tasks do, as plain async functions over the game service.

`play_turn` and `expire` load the match, check that it is still at the version the task
was made for (a stale task is a no-op), ask a policy with the seat's VIEW only, and submit
the action through `MatchService.act` with that expected version and a command id derived
from (match, version, seat): a retried or duplicated task either replays the first answer
or finds the match moved on, so no action is ever applied twice.
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from domain import match as rules
from domain.bots import policy_for
from domain.cards import Seat
from domain.game import RuleViolation
from domain.playout import concrete
from infra import presence
from infra.store import CommandConflictError, ConcurrencyError
from services.matches import clocks, suspensions
from services.matches.service import MatchService, UnknownMatch

log = logging.getLogger(__name__)

TRANSIENT = suspensions.TRANSIENT

COMMANDS = uuid.UUID("5b0f6a52-7d0e-4c61-9a53-3b1f1c0c7e11")
FALLBACK_LEVEL = "basic"       # plays for a human whose clock ran out, or who is away


def standin(state: Any, settings: dict[str, Any] | None = None) -> Any:
    """The policy that plays for an absent person: his table's stand-in level (a tournament
    organiser's choice), else `basic`."""
    return policy_for(state.game_name, state.standin or FALLBACK_LEVEL, **(settings or {}))


def command_id(match_id: str, version: int, seat: str) -> uuid.UUID:
    return uuid.uuid5(COMMANDS, f"{match_id}/{version}/{seat}")


def rng_for(match_id: str, version: int, seat: str) -> random.Random:
    """Seeded by the turn: a retried task makes the same decision."""
    return random.Random(f"{match_id}/{version}/{seat}")


def single_action(view: rules.MatchView, seat: Seat) -> dict[str, Any] | None:
    """The only thing the seat in turn can do, or None when it has a choice."""
    table = view.table
    legal = list(getattr(table, "legal", []) or [])
    if getattr(table, "turn", None) != seat or len(legal) != 1:
        return None
    action = legal[0]
    for value in action.values():
        if isinstance(value, dict) and "choose" in value and value["choose"] != len(value["from"]):
            return None
    return {"seat": str(seat), **concrete(dict(action), random.Random(0))}


async def _submit(matches: MatchService, match_id: str, version: int, seat: str, action: dict[str, Any],
                  by: str) -> str:
    """Append the action; the after-commit hook (`fastpath`) schedules the next bot."""
    try:
        await matches.act(match_id, action, player_id=None, expected_version=version,
                          command_id=command_id(match_id, version, seat), by=by)
    except (ConcurrencyError, CommandConflictError):
        return "stale"
    except RuleViolation as violation:
        if violation.code == "match_suspended":
            return "suspended"                         # the end of the deal failed: `act` suspended it
        # The same action on the same state is refused again on every retry: suspend (logged
        # there, once, with the code only: a rule's message may name a card of a hidden hand).
        return "suspended" if await suspensions.suspend(matches, match_id, version, f"a {by} action",
                                                        violation) else "stale"
    return "played"


async def guarded(matches: MatchService, match_id: str, version: int, task: str,
                  job: Callable[[], Awaitable[Any]]) -> Any:
    """Run a task's work; a failure retrying cannot fix suspends the match at `version`
    ("suspended"; "stale" when it moved on meanwhile). TRANSIENT failures propagate, for the
    Celery task to retry."""
    try:
        return await job()
    except TRANSIENT:
        raise
    except Exception as error:
        return "suspended" if await suspensions.suspend(matches, match_id, version, task, error) else "stale"


async def play_turn(matches: MatchService, match_id: str, seat: str, version: int, *,
                    clock: bool = False, settings: dict[str, Any] | None = None, takeover: bool = False,
                    grace: float = 60.0) -> str:
    """A bot's turn; or, for a human under a clock, a single legal action played at once
    (`by="automatic"`); or, with `takeover`, the stand-in bot's action for a human whose
    player has been disconnected for `grace` seconds (`by="takeover"`; "present" when the
    player is back). Returns what happened, for logs and tests."""
    try:
        state = await matches.load(match_id)
    except UnknownMatch:
        return "unknown"
    if state.version != version or state.status != "playing":
        return "stale"
    holder = state.seats.get(seat)
    if holder is None:
        return "empty"
    view = rules.view(state, Seat(seat))
    if holder.kind == "bot":
        policy = policy_for(state.game_name, holder.level or FALLBACK_LEVEL, **(settings or {}))
        try:
            action = policy(view, rng_for(match_id, version, seat))
        except Exception:              # a policy bug must not stall the match: play at random
            log.exception("the %s bot failed in %s v%d; playing a random legal action", holder.level, match_id,
                          version)
            action = policy_for(state.game_name, "random")(view, rng_for(match_id, version, seat))
        by = "bot"
    elif takeover:
        since = (await presence.away(matches.store, match_id)).get(seat)
        if since is None:
            return "present"
        if since + grace > time.time() + 0.05:
            return "waiting"                           # away again, but not for long: a later task plays
        action = standin(state, settings)(view, rng_for(match_id, version, seat))
        by = "takeover"
    elif clock:
        action, by = single_action(view, Seat(seat)), "automatic"
    else:
        return "human"
    if action is None:
        return "nothing"
    return await _submit(matches, match_id, version, seat, action, by)


async def expire(matches: MatchService, match_id: str, version: int) -> list[str]:
    """The clock ran out at `version`: the stand-in bot plays for the human in turn (and,
    his clock having run out too often in a row, he counts as away)."""
    try:
        state = await matches.load(match_id)
    except UnknownMatch:
        return ["unknown"]
    if state.version != version or state.status != "playing":
        return ["stale"]
    out = []
    for seat in state.game.status(state.game_state).to_act:
        holder = state.seats.get(str(seat))
        if holder is None or holder.kind == "bot":
            continue
        view = rules.view(state, seat)
        if getattr(view.table, "turn", None) != seat:
            continue                                   # only the seat whose turn it is
        action = standin(state)(view, rng_for(match_id, version, str(seat)))
        if action is not None:
            out.append(await _submit(matches, match_id, version, str(seat), action, "clock"))
            if out[-1] == "played":                    # too many in a row: away (`clocks.after_timeout`)
                out += await clocks.after_timeout(matches, match_id, str(seat))
            break
    return out or ["nothing"]
