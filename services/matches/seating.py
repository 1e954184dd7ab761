"""One door to a seat: every path that sits a player, or has him sat, passes through `admit`.

A player comes to a table in several ways — creating a match (its seat `me`), taking a seat
(with a private table's code, or by accepting an invitation, which takes the seat), a rematch
(which sits every player of the finished match again, whoever asks), entering a tournament
(whose rounds will sit him) — and a ban or a block that one of them forgot would be a side
door. So they all call `admit`, and it alone decides:

- A banned player (his `moderation-<id>` stream, read at the moment he would sit, so a ban
  holds from the moment it is recorded) is sat nowhere: 403 `player_banned`, with the reason
  when he is the one asking, without it when someone else's request would sit him.
- Two players one of whom blocks the other (the `social_ties` read model: a block holds within
  the projector's poll) are never sat at one table, whichever of them asks, or whoever asks
  for both: 403 `blocked`.

`may_invite` is the same door for an invitation or a challenge: a banned player sends none,
and none goes between two players one of whom blocks the other. A refusal names a player only
to the one who named him in the request (an invitee, an entry's partner).

What a player already plays goes on (his seat's clock and the bots cover it), and so does a
tournament he entered before his ban: its door was the entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from domain import moderation as rules
from infra import streams
from infra.projections import social
from infra.serialization import EventRegistry
from infra.store import PostgresEventStore
from services.refusals import Forbidden, Refused

REGISTRY = EventRegistry()
REGISTRY.register_all(rules.SANCTION_EVENTS)
BANNED, BLOCKED = "player_banned", "blocked"


async def sanctions(store: PostgresEventStore, player_id: str) -> rules.Sanctions:
    """A player's mutes and ban as they stand, folded from his own stream."""
    recorded = await store.read_stream(streams.moderation_stream(player_id))
    return rules.fold([REGISTRY.decode_recorded(r) for r in recorded])


async def ensure_not_banned(store: PostgresEventStore, player_id: str) -> None:
    """403 `player_banned` (with the reason: he is the one asking) for a banned player."""
    state = await sanctions(store, player_id)
    if state.banned:
        raise Forbidden(BANNED, f"you are banned: {state.ban_reason}", {"reason": state.ban_reason})


async def admit(store: PostgresEventStore, players: Iterable[str], *, asker: str, beside: Iterable[str] = (),
                named: Iterable[str] = ()) -> None:
    """Refused unless `players` (player ids: bots have none) may be sat, at `asker`'s request,
    at one table with each other and with `beside` (who is there already: its host and its
    seated players). `named`: the players the asker named himself."""
    newcomers = sorted(set(players), key=lambda p: (p != asker, p))    # his own ban first
    shown = set(named)
    for player in newcomers:
        if player == asker:
            await ensure_not_banned(store, player)
        elif (await sanctions(store, player)).banned:
            raise Forbidden(BANNED, "a player this would seat is banned: he joins no table",
                          {"player_id": player} if player in shown else {})
    await _unblocked(store.pool, newcomers, sorted(set(beside) - set(newcomers)), asker, shown)


async def may_invite(store: PostgresEventStore, sender: str, invitees: Sequence[str]) -> None:
    """Refused unless `sender` may invite `invitees` (one, or a challenged partnership) to a
    table of his: he is not banned, and no block stands between any two of them. Whether an
    invitee is banned is his acceptance's question (`admit`), not the sender's to learn."""
    await ensure_not_banned(store, sender)
    await _unblocked(store.pool, list(invitees), [sender], sender, set(invitees))


async def _unblocked(pool: Any, newcomers: Sequence[str], beside: Sequence[str], asker: str, shown: set[str]) -> None:
    """403 `blocked` when one of `newcomers` blocks, or is blocked by, another newcomer or one
    of `beside` (a block between two of `beside` is not this request's doing)."""
    table = [*newcomers, *beside]
    for blocked in table:
        others = [p for p in table if p != blocked and (blocked in newcomers or p in newcomers)]
        if blockers := await social.blockers_among(pool, others, blocked):
            raise _blocked(blockers[0], blocked, asker, shown)


def _blocked(blocker: str, blocked: str, asker: str, shown: set[str]) -> Refused:
    if blocked == asker:
        return Forbidden(BLOCKED, "a player at this table has blocked you: you cannot sit with him",
                       {"player_id": blocker} if blocker in shown else {})
    if blocker == asker:
        return Forbidden(BLOCKED, "you block a player at this table: unblock him to sit with him",
                       {"player_id": blocked})
    return Forbidden(BLOCKED, "of two players this would seat at one table, one blocks the other")
