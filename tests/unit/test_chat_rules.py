"""The chat's rules and the policy of who reads which channel, without I/O."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from domain import chat, moderation
from domain.game import RuleViolation
from services.visibility import chat_shown


def send(status: str, seat: str | None, **content: str):
    return chat.decide(message_id="m", player_id="p", seat=seat, status=status, match_version=3, **{
        "preset": None, "text": None, **content})


@pytest.mark.parametrize("status", ["playing", "suspended"])
def test_a_seat_sends_only_presets_while_the_cards_are_out(status: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        send(status, "N", text="lead a spade")
    assert refused.value.code == chat.FREE_TEXT_DURING_PLAY
    sent = send(status, "N", preset="well_played")
    assert (sent.channel, sent.phase, sent.preset, sent.text) == ("table", "playing", "well_played", None)


@pytest.mark.parametrize("status", ["open", "finished", "abandoned", "void"])
def test_free_text_before_the_start_and_after_the_end(status: str) -> None:
    assert send(status, "N", text="  à bientôt !  ").text == "à bientôt !"


def test_a_spectator_writes_free_text_at_any_time_in_his_own_channel() -> None:
    sent = send("playing", None, text="Отличная игра")
    assert (sent.channel, sent.phase, sent.seat) == ("spectators", "playing", None)


@pytest.mark.parametrize(("content", "code"), [
    ({"text": "é" * (chat.MAX_TEXT + 1)}, chat.TOO_LONG), ({"text": "a\tb"}, chat.CONTROL),
    ({"text": "bell\x07"}, chat.CONTROL), ({"text": "c1\x85"}, chat.CONTROL), ({"text": "   "}, chat.EMPTY),
    ({"preset": "ace_of_spades"}, chat.UNKNOWN_PRESET), ({}, chat.ONE_OF),
    ({"preset": "hello", "text": "hello"}, chat.ONE_OF)])
def test_what_a_message_cannot_be(content: dict, code: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        send("open", "N", **content)
    assert refused.value.code == code


def test_the_longest_message_in_any_script() -> None:
    assert send("open", None, text="ł" * chat.MAX_TEXT).text == "ł" * chat.MAX_TEXT


def test_a_seat_never_reads_the_rail_while_the_match_is_played() -> None:
    assert not chat_shown(True, "spectators", "playing", "playing")
    assert chat_shown(True, "spectators", "playing", "over")          # once it is over
    assert chat_shown(True, "spectators", "waiting", "playing")       # said before any card was dealt
    assert chat_shown(False, "spectators", "playing", "playing")      # another spectator
    assert chat_shown(True, "table", "playing", "playing")


def test_a_mute_lasts_until_its_time_and_a_ban_until_lifted() -> None:
    now = datetime(2026, 12, 1, 15, 0, tzinfo=timezone.utc)
    state = moderation.Sanctions()
    muted = moderation.mute(state, player_id="p", admin="a", minutes=30, reason="insults", now=now)
    state = moderation.evolve(state, muted)
    assert state.muted(now + timedelta(minutes=29)) and not state.muted(now + timedelta(minutes=31))
    with pytest.raises(RuleViolation):
        moderation.mute(state, player_id="p", admin="a", minutes=0, reason="x", now=now)
    state = moderation.evolve(state, moderation.ban(state, player_id="p", admin="a", reason="again"))
    assert state.banned and state.version == 2
    with pytest.raises(RuleViolation) as twice:
        moderation.ban(state, player_id="p", admin="a", reason="again")
    assert twice.value.code == "already_banned"
    with pytest.raises(RuleViolation) as self_report:
        moderation.report(report_id="r", reporter="p", player_id="p", reason="me")
    assert self_report.value.code == "cannot_report_self"
