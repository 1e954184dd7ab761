"""The limits on invitations waiting for an answer, held however many are sent at once.

Three limits, the invitation rules' own (`domain.invitations`): a match's pending invitations
(`MAX_PENDING_PER_MATCH`), a player's pending invitations received (`MAX_RECEIVED`: nobody
fills another's list), and those one sender asks of one player (`MAX_FROM_ONE`: asking again
and again is not asking). A check on the
read model alone is not enough: it lags the log, and two requests checked in the same instant
both pass. So a send holds Postgres advisory locks on its match and on each invitee (taken
together, all or none, retried for up to `LOCK_WAIT` s without holding a connection while it
waits), counts what is pending — the read model plus the invitations sent since its
checkpoint (`infra.projections.invitations.pending_around`) — and appends before it lets go.
Every process that sends takes the same locks, so no two sends around one match or one
player are counted at once.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from domain import invitations as cases
from infra.projections import invitations as listed
from services.refusals import Conflict, NotNow

MAX_RECEIVED, MAX_FROM_ONE = cases.MAX_RECEIVED, cases.MAX_FROM_ONE   # the rules' own limits
LOCK_WAIT = 5.0       # seconds a send waits for another send around the same match or player
LOCK_CLASS = 0x696E76  # 'inv': the advisory locks' first key, apart from the projector's and migrator's
TAKE = "SELECT bool_and(pg_try_advisory_lock($1, hashtext(k))) FROM unnest($2::text[]) k"


def check(pending: list[tuple[str, str, set[str]]], match_id: str, sender: str, invitees: list[str]) -> None:
    """Refuse the send that would pass a limit (422, the limit in `details`)."""
    if sum(1 for match, _, _ in pending if match == match_id) >= cases.MAX_PENDING_PER_MATCH:
        raise NotNow("too_many_invitations", f"a match has at most {cases.MAX_PENDING_PER_MATCH} invitations "
                      "waiting for an answer", {"limit": cases.MAX_PENDING_PER_MATCH})
    for player in invitees:
        theirs = [by for _, by, asked in pending if player in asked]
        if len(theirs) >= MAX_RECEIVED:
            raise NotNow("too_many_invitations_received", f"this player has {MAX_RECEIVED} invitations waiting "
                          "for his answer already", {"player_id": player, "limit": MAX_RECEIVED})
        if theirs.count(sender) >= MAX_FROM_ONE:
            raise NotNow("too_many_invitations_to_player", f"at most {MAX_FROM_ONE} of your invitations wait "
                          "for this player's answer at once", {"player_id": player, "limit": MAX_FROM_ONE})


@asynccontextmanager
async def held(pool: Any, match_id: str, sender: str, invitees: list[str]) -> AsyncIterator[None]:
    """Within the limits, or refused; the send appends inside the block (see the module). No
    connection is held while waiting: the locks are tried, and tried again a moment later."""
    keys = sorted({f"match:{match_id}", *(f"player:{p}" for p in invitees)})
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        async with pool.acquire() as conn:
            if await conn.fetchval(TAKE, LOCK_CLASS, keys):
                try:
                    check(await listed.pending_around(conn, match_id, invitees), match_id, sender, invitees)
                    yield
                finally:
                    await conn.execute("SELECT pg_advisory_unlock_all()")
                return
            await conn.execute("SELECT pg_advisory_unlock_all()")     # those it did get
        if time.monotonic() > deadline:
            raise Conflict("invitation_busy", "other invitations to this match or these players are being sent; "
                          "retry in a moment", {"retry_after": 1})
        await asyncio.sleep(random.uniform(0.005, 0.03))
