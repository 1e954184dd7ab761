"""Table chat that cannot carry a hand: who may say what, and when.

In a partnership card game, words between partners while the cards are out are cheating.
So from a match's start to its end a seat may only send a preset — a code from a fixed
catalogue whose meaning is courtesy ("well played", "sorry, back in a moment"), never a
card, a suit or a count — and the clients translate it. Free text is a seat's in the waiting
room (no card dealt yet) and after the match ends. Spectators write in a channel of their
own, with free text at any time; while the match is played no seat receives it (services/
visibility.py decides that), so a friend on the rail cannot whisper a hand either.

A message is an event of the match's chat stream (`chat-<match id>`), never of the match
stream: chat never moves a match's version under its players, and a dispute can read it.
Events name the player by id only; his name is looked up when shown (erased: none).
"""

from __future__ import annotations

import unicodedata
from typing import Literal

import msgspec

from domain import text as shown
from domain.game import RuleViolation

# The catalogue: codes, never sentences (clients translate them). Nothing here can say
# which card to lead, what trump to name or how many points a hand holds.
PRESETS: tuple[str, ...] = ("hello", "good_luck", "have_fun", "well_played", "thanks", "sorry", "oops",
                            "back_in_a_moment", "no_problem", "good_game", "rematch", "bye")
MAX_TEXT = 280       # characters (Unicode code points) of a free-text message, once trimmed

Channel = Literal["table", "spectators"]
Phase = Literal["waiting", "playing", "over"]
TABLE: Channel = "table"
SPECTATORS: Channel = "spectators"

FREE_TEXT_DURING_PLAY = "chat_free_text_during_play"
TOO_LONG = "chat_too_long"
EMPTY = "chat_empty"
CONTROL = "chat_control_character"
UNKNOWN_PRESET = "chat_unknown_preset"
ONE_OF = "chat_preset_or_text"


class ChatMessageSent(msgspec.Struct, frozen=True, tag="chat_message"):
    """One message: `channel` is the seats' (`table`) or the spectators'; `phase` is the
    match's when it was sent (what the visibility policy reads); `match_version` the match's
    version then (a dispute lines messages up with the play)."""

    message_id: str
    player_id: str
    channel: str
    phase: str
    match_version: int
    seat: str | None = None
    preset: str | None = None
    text: str | None = None


CHAT_EVENTS = (ChatMessageSent,)


def phase_of(status: str) -> Phase:
    """Where a match stands for the chat: before its start, being played (a suspended match
    is still being played: its cards are out), or over (finished, abandoned, void)."""
    if status in ("new", "open"):
        return "waiting"
    if status in ("playing", "suspended"):
        return "playing"
    return "over"


def refusal_of_text(text: str) -> RuleViolation | None:
    """Why a free text cannot be sent (None: it can). Any script is welcome; control
    characters (C0, DEL, C1) are not: they hide, reorder or break what others read; nor are
    what the rule of every shown text refuses (domain/text.py: bidi controls, nothing visible)."""
    if any(unicodedata.category(c) == "Cc" for c in text):
        return RuleViolation(CONTROL, "a message holds no control characters (newlines, tabs, escapes)")
    trimmed = text.strip()
    if not trimmed:
        return RuleViolation(EMPTY, "a message needs something to say")
    if (why := shown.refusal(trimmed)) is not None:
        return RuleViolation(why[0], f"a message {why[1]}")
    if len(trimmed) > MAX_TEXT:
        return RuleViolation(TOO_LONG, f"a message is at most {MAX_TEXT} characters, not {len(trimmed)}",
                             {"max": MAX_TEXT, "length": len(trimmed)})
    return None


def content(preset: str | None, text: str | None) -> tuple[str | None, str | None]:
    """The message's one part, checked: a preset of the catalogue, or a free text (trimmed)."""
    if (preset is None) == (text is None):
        raise RuleViolation(ONE_OF, "send either a preset or a text")
    if preset is not None:
        if preset not in PRESETS:
            raise RuleViolation(UNKNOWN_PRESET, f"no preset {preset[:40]!r}", {"presets": list(PRESETS)})
        return preset, None
    assert text is not None
    refused = refusal_of_text(text)
    if refused is not None:
        raise refused
    return None, text.strip()


def decide(*, message_id: str, player_id: str, seat: str | None, status: str, match_version: int,
           preset: str | None, text: str | None) -> ChatMessageSent:
    """The message a seat (`seat`) or a spectator (`seat` None) sends, or the rule it breaks."""
    preset, text = content(preset, text)
    phase = phase_of(status)
    if seat is not None and text is not None and phase == "playing":
        raise RuleViolation(FREE_TEXT_DURING_PLAY, "while the match is played a seat sends presets only: free "
                                                   "text returns when it ends", {"presets": list(PRESETS)})
    return ChatMessageSent(message_id=message_id, player_id=player_id, channel=SPECTATORS if seat is None else TABLE,
                           phase=phase, match_version=match_version, seat=seat, preset=preset, text=text)
