"""What a text other players read must be: something they can see, in the order it was typed.

Every name (a player's, a tournament's, a team's) and every chat line is shown to others. Two
kinds of character let one text pass for another there, and neither has a use in a name or a
table chat: the bidirectional controls (U+202E turns "Ada‮nimda" into something else on
screen, and the isolates and marks reorder text around them), and a text with nothing visible
in it — zero-width spaces, joiners, word joiners, byte-order marks, combining marks with no
letter to sit on, Hangul fillers, the blank Braille pattern — which looks like no name at all,
or like someone else's. Any script is welcome, emoji too: a zero-width joiner inside an emoji
sequence is fine, as long as the text shows something.
"""

from __future__ import annotations

import unicodedata

BIDI_CONTROL = "text_bidi_control"
INVISIBLE = "text_invisible"

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
# Letters and symbols that draw nothing (Unicode's Default_Ignorable, and what is used as such).
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")
# Format characters (zero-width spaces and joiners, U+2060, U+FEFF, tags…) and combining marks:
# none of them is a visible character by itself.
NOT_SHOWN = frozenset({"Cf", "Mn", "Mc", "Me", "Zs", "Zl", "Zp", "Cc"})


def visible(c: str) -> bool:
    return not c.isspace() and c not in BLANK_LOOKING and unicodedata.category(c) not in NOT_SHOWN


def refusal(text: str) -> tuple[str, str] | None:
    """(code, why) of a text no one else should be shown, or None when it may be."""
    if any(c in BIDI_CONTROLS for c in text):
        return BIDI_CONTROL, ("holds a bidirectional control character (U+202A-U+202E, U+2066-U+2069, U+200E, "
                              "U+200F, U+061C), which reorders what others read")
    if text.strip() and not any(visible(c) for c in text):
        return INVISIBLE, ("shows nothing: only zero-width, format or combining characters; "
                           "it needs at least one visible character")
    return None
