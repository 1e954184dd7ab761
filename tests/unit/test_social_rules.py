"""The invitation and circle deciders: given events, when a command, then events or a refusal."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from domain import invitations as inv
from domain import social
from domain.game import RuleViolation

NOW = datetime(2025, 5, 1, 18, 0, tzinfo=timezone.utc)


def sent(invitees: dict[str, str | None], ttl: int | None = None) -> inv.Invitation:
    return inv.fold(inv.send("i1", "m1", "belote", "host", invitees, inv.expiry(NOW, ttl)))


def code(call) -> str:
    with pytest.raises(RuleViolation) as caught:
        call()
    return caught.value.code


def test_an_invitation_is_answered_once_by_its_invitee_before_it_expires() -> None:
    state = sent({"a": "S"})
    assert state.status(NOW) == "pending" and state.expires_at == (NOW + timedelta(days=1)).isoformat()
    assert code(lambda: inv.accept(state, "b", "S", NOW)) == "not_your_invitation"
    assert code(lambda: inv.accept(state, "a", "S", NOW + timedelta(days=1))) == "invitation_expired"
    accepted = inv.evolve(state, inv.accept(state, "a", "S", NOW)[0])
    assert accepted.status(NOW) == "accepted"
    assert code(lambda: inv.accept(accepted, "a", "S", NOW)) == "invitation_accepted"
    declined = inv.evolve(state, inv.decline(state, "a", NOW)[0])
    assert code(lambda: inv.accept(declined, "a", "S", NOW)) == "invitation_declined"
    cancelled = inv.evolve(state, inv.cancel(state, "host", NOW)[0])
    assert code(lambda: inv.decline(cancelled, "a", NOW)) == "invitation_cancelled"
    assert code(lambda: inv.cancel(state, "a", NOW)) == "not_your_invitation"


def test_a_challenge_asks_one_side_and_waits_for_both() -> None:
    assert code(lambda: sent({"a": "N", "b": "E"})) == "bad_invitees"
    assert code(lambda: sent({"host": "S"})) == "cannot_invite_yourself"
    assert code(lambda: inv.expiry(NOW, 10)) == "bad_expiry"
    state = sent({"a": "E", "b": "W"})
    assert state.kind == "challenge"
    half = inv.evolve(state, inv.accept(state, "a", "E", NOW)[0])
    assert half.status(NOW) == "pending"
    assert inv.evolve(half, inv.accept(half, "b", "W", NOW)[0]).status(NOW) == "accepted"


def test_follow_and_block_hold_their_limits_and_blocking_stops_following() -> None:
    state = social.fold(social.follow(social.Circle(), "me", "x"))
    assert state.following == {"x"} and social.follow(state, "me", "x") == []
    blocked = social.fold([*social.follow(social.Circle(), "me", "x"), *social.block(state, "me", "x")])
    assert blocked.following == frozenset() and blocked.blocked == {"x"}
    assert code(lambda: social.follow(blocked, "me", "x")) == "player_blocked"
    assert code(lambda: social.block(blocked, "me", "me")) == "cannot_block_yourself"
    full = social.Circle(following=frozenset(str(i) for i in range(social.MAX_FOLLOWING)))
    assert code(lambda: social.follow(full, "me", "y")) == "too_many_follows"
    assert social.unblock(blocked, "me", "x")[0] == social.PlayerUnblocked(by="me", player_id="x")
