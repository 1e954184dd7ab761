"""Suspending a match the server cannot move on, and what an admin does with it then.

A task (a bot's turn, a clock) that fails for a reason retrying cannot fix — anything but
the database or the broker being away for a moment — would fail the same way on every
retry and every sweep, on the same state. Instead, the match is suspended at the version
the task was made for (`match_suspended`, status `suspended` with the reason): the
`bot_turns` read model drops it, so nothing retries it; the failure is logged once and
counted (`atout_matches_suspended_total`). An admin then resumes it (the turn is scheduled
again, once the cause is fixed), voids it, or abandons it — each an event of the match.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
import uuid
from typing import Any

import asyncpg

from domain import fair
from domain import match as rules
from domain.game import RuleViolation
from infra.observability import MATCHES_SUSPENDED
from infra.store import CommandConflictError, ConcurrencyError
from services.matches.service import MatchService, Outcome

log = logging.getLogger(__name__)

TRANSIENT = (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, asyncpg.CannotConnectNowError,
             asyncpg.TooManyConnectionsError, asyncpg.TransactionRollbackError, asyncpg.QueryCanceledError,
             ConnectionError, OSError, TimeoutError, asyncio.TimeoutError)
"""What a retry can fix: the database or the broker away for a moment, a deadlock, a timeout."""

SUSPENSIONS = uuid.UUID("0c6f1a8e-52d4-4b7e-9d0e-8a1f3c5b7e29")
ADMIN_ACTIONS = ("resume", "void", "abandon")


def reason_of(error: BaseException) -> str:
    """A stable code for what failed: the rules refused the action a task made, the next deal
    could not be made, or anything else."""
    if isinstance(error, RuleViolation):
        return "action_refused"
    missing_secret = type(error) is LookupError          # the vault's "no secret kept"
    return "deal_failed" if isinstance(error, fair.FairDealError) or missing_secret else "task_failed"


def describe(task: str, error: BaseException) -> str:
    """What failed and where, without the exception's message (a rule's message may name a
    card of a hidden hand): its type and the innermost frame of the traceback."""
    if isinstance(error, RuleViolation):
        return f"{task} was refused: {error.code}"
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}" if frames else ""
    return f"{task} raised {type(error).__name__}{where}"


async def suspend(matches: MatchService, match_id: str, version: int, task: str, error: BaseException) -> bool:
    """Suspend the match at `version` for `error` (True), or find it moved on meanwhile
    (False: somebody else's command went through, so it is not stuck). Logged and counted
    once per suspension: a retried task gets the first answer, which is not counted again."""
    reason = reason_of(error)
    command = rules.Suspend(reason=reason, message=describe(task, error))
    try:
        outcome = await matches.command(match_id, command, kind="suspend", expected_version=version,
                                        command_id=uuid.uuid5(SUSPENSIONS, f"{match_id}/{version}"))
    except (ConcurrencyError, CommandConflictError, RuleViolation):
        return False
    if not outcome.replayed:
        MATCHES_SUSPENDED.labels(reason).inc()
        log.error("match %s suspended at v%d: %s (%s)", match_id, version, reason, command.message,
                  extra={"match_id": match_id, "reason": reason})
    return True


async def on_stuck(matches: MatchService, match_id: str, version: int, error: Exception) -> bool:
    """The game service's hook when the end of a deal fails after an action was decided:
    suspend (True), unless a retry can fix it (False: the error propagates)."""
    if isinstance(error, TRANSIENT):
        return False
    return await suspend(matches, match_id, version, "the end of a deal", error)


async def act_on(matches: MatchService, match_id: str, action: str, admin: str, reason: str,
                 command_id: uuid.UUID | None = None) -> Outcome:
    """An admin's `resume`, `void` or `abandon` of a suspended match (abandon also of an open
    or playing one); the rules say when (422 `match_not_suspended`, `match_over`)."""
    command: Any = {"resume": rules.Resume(admin=admin, reason=reason),
                    "void": rules.VoidMatch(admin=admin, reason=reason),
                    "abandon": rules.Abandon(idle_seconds=0.0, admin=admin, reason=reason)}[action]
    return await matches.command(match_id, command, kind=f"admin-{action}", command_id=command_id or uuid.uuid4())
