"""Who may see what of a match beyond its own seats: one place, so no route can forget.

A tournament table is, until its round has closed at every table, a board another table may
still be playing: its cards and its result are no one else's business yet. The tournaments
feature says which matches those are through the hooks below (`services/api/tournaments.py`
registers them); without it every finished match is public and no organiser owns any.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from domain import match as rules
from infra.players import Principal

# Who organises a match's tournament: `async lookup(match_id) -> organiser player id | None`.
# Tournaments register theirs here; until then no organiser owns any match.
ORGANISER_LOOKUPS: list[Callable[[str], Awaitable[str | None]]] = []
# Whether a finished match's deals may be shown to anyone (a tournament board still being
# played at another table may not): `async check(match_id) -> bool`, all must agree.
PUBLIC_CHECKS: list[Callable[[str], Awaitable[bool]]] = []


async def is_public(match_id: str) -> bool:
    """Whether every registered check lets anyone see this match (no tournament says no)."""
    return all([await check(match_id) for check in PUBLIC_CHECKS])


async def may_watch(principal: Principal | None, state: rules.MatchState) -> bool:
    """Whether `principal` may look at a match it holds no seat in (its spectator view, its
    events, its live stream): anyone once every PUBLIC_CHECKS agrees, else only reviewers
    (admins, the match's tournament's organiser). A tournament table is, until its round has
    closed at every table, a board another table may still be playing: its cards and result
    are no one else's business yet. One place for every route, so none of them can forget."""
    if principal is not None and _seated(state, principal.player_id):
        return True
    if await is_public(state.match_id):
        return True
    if principal is None:
        return False
    if principal.has_role("admin"):
        return True
    return may_review(principal, {o for o in [await lookup(state.match_id) for lookup in ORGANISER_LOOKUPS] if o})


async def seal_listing(principal: Principal, summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A list of match summaries as `principal` may see it: a table it may not watch (see
    `may_watch`) keeps its place in the list, but not its score, winner, deals or version —
    another table may still be playing the same boards."""
    shown = []
    for summary in summaries:
        seated = any(isinstance(h, dict) and h.get("player_id") == principal.player_id
                     for h in (summary.get("seats") or {}).values())
        if not seated and not await is_public(summary["match_id"]):
            organisers = {o for o in [await lookup(summary["match_id"]) for lookup in ORGANISER_LOOKUPS] if o}
            if not may_review(principal, organisers):
                summary = {**summary, "score": None, "winner": None, "deals": None, "version": None, "sealed": True}
        shown.append(summary)
    return shown


def _seated(state: rules.MatchState, player_id: str) -> bool:
    return any(h is not None and h.player_id == player_id for h in state.seats.values())


def may_review(principal: Principal, organisers: set[str]) -> bool:
    """Admins review every match; an organiser only the matches of his own tournaments."""
    return principal.has_role("admin") or (principal.role == "organiser" and principal.player_id in organisers)
