"""Who may see what of a match beyond its own seats: one place, so no route can forget.

A tournament table is, until its round has closed at every table, a board another table may
still be playing: its cards and its result are no one else's business yet. The features say
which matches those are through the checks they declare (`Feature.public_checks`,
`Feature.organiser_lookups`, see `services/bootstrap.py`); the runtime holds the policy they
make up (`Runtime.visibility`). It fails closed: with no check declared no match is public,
and without a lookup no organiser owns any.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from domain import match as rules
from infra.players import Principal

PublicCheck = Callable[[str], Awaitable[bool]]
OrganiserLookup = Callable[[str], Awaitable["str | None"]]


class Visibility:
    """The policy of one runtime: `public_checks` (all must agree that anyone may see a
    finished match's deals; none declared: nobody may) and `organiser_lookups` (who
    organises a match's event)."""

    def __init__(self, public_checks: Sequence[PublicCheck] = (),
                 organiser_lookups: Sequence[OrganiserLookup] = ()) -> None:
        self.public_checks = tuple(public_checks)
        self.organiser_lookups = tuple(organiser_lookups)

    async def is_public(self, match_id: str) -> bool:
        """Whether every declared check lets anyone see this match; False with none declared."""
        if not self.public_checks:
            return False
        return all([await check(match_id) for check in self.public_checks])

    async def organisers(self, match_id: str) -> set[str]:
        return {o for o in [await lookup(match_id) for lookup in self.organiser_lookups] if o}

    async def may_watch(self, principal: Principal | None, state: rules.MatchState) -> bool:
        """Whether `principal` may look at a match it holds no seat in (its spectator view, its
        events, its live stream): anyone once every check agrees, else only reviewers
        (admins, the match's tournament's organiser)."""
        if principal is not None and seated(state, principal.player_id):
            return True
        if await self.is_public(state.match_id):
            return True
        if principal is None:
            return False
        if principal.has_role("admin"):
            return True
        return may_review(principal, await self.organisers(state.match_id))

    async def seal_listing(self, principal: Principal, summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A list of match summaries as `principal` may see it: a table it may not watch (see
        `may_watch`) keeps its place in the list, but not its score, winner, deals or version —
        another table may still be playing the same boards."""
        shown = []
        for summary in summaries:
            seats = (summary.get("seats") or {}).values()
            sitting = any(isinstance(h, dict) and h.get("player_id") == principal.player_id for h in seats)
            if not sitting and not await self.is_public(summary["match_id"]):
                if not may_review(principal, await self.organisers(summary["match_id"])):
                    summary = {**summary, "score": None, "winner": None, "deals": None, "version": None,
                               "sealed": True}
            shown.append(summary)
        return shown


def seated(state: rules.MatchState, player_id: str) -> bool:
    return any(h is not None and h.player_id == player_id for h in state.seats.values())


_seated = seated


def may_review(principal: Principal, organisers: set[str]) -> bool:
    """Admins review every match; an organiser only the matches of his own tournaments."""
    return principal.has_role("admin") or (principal.role == "organiser" and principal.player_id in organisers)
