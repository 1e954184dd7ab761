"""The visibility policy's one decision (`services.visibility.refusal`), case by case."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from services.visibility import BOARD_SEALED, FORBIDDEN, PRIVILEGED_WHILE_PLAYING, Reader, refusal


def match(status: str = "playing", sealed: bool = False, deal_index: int = 1, phase: str = "in_deal"):
    """What the policy reads of a match: its status, whether it is a sealed board, its deal."""
    game = SimpleNamespace(status=lambda _: SimpleNamespace(phase=phase))
    return SimpleNamespace(status=status, sealed=sealed, deal_index=deal_index, game=game, game_state=None)


def code(reader: Reader, state, read: str, deal: int | None = None) -> str | None:
    found = refusal(reader, state, read, deal)  # type: ignore[arg-type]
    return None if found is None else found.code


PLAYER, SPECTATOR = Reader(seat="N"), Reader()
ADMIN, SEATED_ADMIN = Reader(admin=True), Reader(admin=True, seat="E")
ENTRANT_ORGANISER = Reader(organiser=True, entrant=True, public=False)
SEATED_ORGANISER = Reader(organiser=True, seat="S", entrant=True, public=False)


def test_an_ordinary_match() -> None:
    state = match()
    assert code(PLAYER, state, "view") is code(SPECTATOR, state, "view") is None
    assert code(PLAYER, state, "deals") is None and code(SPECTATOR, state, "deals") == FORBIDDEN
    assert code(ADMIN, state, "replay", 1) is None                      # an admin who does not play
    assert code(PLAYER, state, "replay", 0) == FORBIDDEN                 # the replay needs a role
    assert code(SEATED_ADMIN, state, "replay", 1) == PRIVILEGED_WHILE_PLAYING   # the deal in play
    assert code(SEATED_ADMIN, state, "replay", 5) == PRIVILEGED_WHILE_PLAYING   # not dealt yet
    assert code(SEATED_ADMIN, state, "replay", 0) is None                # over: on his seat's record


def test_a_sealed_board_while_its_round_is_open() -> None:
    state = match(sealed=True)
    player = Reader(seat="N", entrant=True, public=False)
    other_table = Reader(entrant=True, public=False)
    assert code(player, state, "view") is None
    for read in ("record", "deals"):
        assert code(player, state, read) == BOARD_SEALED, read          # his own finished board too
    for read in ("view", "record", "deals"):
        assert code(other_table, state, read) == BOARD_SEALED
        assert code(ENTRANT_ORGANISER, state, read) == PRIVILEGED_WHILE_PLAYING
    assert code(SEATED_ORGANISER, state, "deals") == PRIVILEGED_WHILE_PLAYING
    for deal in (0, 1):
        assert code(SEATED_ORGANISER, state, "replay", deal) == PRIVILEGED_WHILE_PLAYING
    outside = Reader(organiser=True, public=False)                       # organises, plays no entry
    assert all(code(outside, state, r, 0) is None for r in ("view", "record", "deals", "replay"))


@pytest.mark.parametrize("reader", [SEATED_ORGANISER, ENTRANT_ORGANISER, Reader(seat="N", entrant=True)])
def test_once_the_round_has_closed_everything_over_is_public(reader: Reader) -> None:
    state = match(status="finished", sealed=True, deal_index=1, phase="match_over")
    public = Reader(admin=reader.admin, organiser=reader.organiser, seat=reader.seat, entrant=reader.entrant)
    for read in ("view", "record", "deals"):
        assert code(public, state, read) is None, read
    if public.reviewer:
        assert code(public, state, "replay", 1) is None


def test_a_queue_row_is_read_as_the_seat_would_until_the_match_is_over_and_public() -> None:
    """A report's message or a dispute's reason may name any card: whoever plays in the match
    or its tournament reads it once the match is over and public, whatever his role."""
    playing, over = match(), match(status="finished", phase="match_over")
    assert code(ADMIN, playing, "queue") is None                             # a reviewer who does not play
    assert code(SEATED_ADMIN, playing, "queue") == PRIVILEGED_WHILE_PLAYING  # his own table, in play
    assert code(SEATED_ADMIN, over, "queue") is None                         # over, and public
    assert code(ENTRANT_ORGANISER, over, "queue") == PRIVILEGED_WHILE_PLAYING   # another table, round open
    assert code(Reader(organiser=True, entrant=True, public=True), over, "queue") is None
    assert code(SPECTATOR, playing, "queue") == FORBIDDEN                    # queues are the reviewers'
