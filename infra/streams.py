"""The names of the event store's streams: one place for every prefix.

A stream's name is its kind's prefix and its aggregate's id (`match-<id>`, `clock-<id>`, ...).
Writers name a stream with the functions below, readers (projections, hooks) tell a stream's
kind and id with `id_of`; no other module spells a prefix.
"""

from __future__ import annotations

MATCH = "match-"            # a match: the match layer's and its game's events
CLOCK = "clock-"            # a match's turn clock (`clock_set`), beside the match stream
PRESENCE = "presence-"      # who of a match is connected (seat_disconnected, seat_reconnected)
TOURNAMENT = "tournament-"  # a tournament
DISPUTE = "dispute-"        # a dispute on a deal
AUDIT = "audit-"            # one UTC day of the audit log (who saw or changed what)
HINTS = "hints-"            # the hints given in a match (counted in its view)
CHAT = "chat-"              # a match's table chat: the seats' and the spectators' messages
REPORT = "report-"          # a report of a chat message or a player, and what an admin did with it
MODERATION = "moderation-"  # one player's mutes and bans
INVITATION = "invitation-"  # an invitation or a challenge to a match's seats, and its answers
SOCIAL = "social-"          # one player's circle: whom he follows and whom he blocks
QUICKPLAY = "quickplay-"    # one quick-play entry's outcome: seated at a table, or expired


def match_stream(match_id: str) -> str:
    return MATCH + match_id


def clock_stream(match_id: str) -> str:
    return CLOCK + match_id


def presence_stream(match_id: str) -> str:
    return PRESENCE + match_id


def tournament_stream(tournament_id: str) -> str:
    return TOURNAMENT + tournament_id


def dispute_stream(dispute_id: str) -> str:
    return DISPUTE + dispute_id


def audit_stream(day: str) -> str:
    """`day` in ISO form (YYYY-MM-DD)."""
    return AUDIT + day


def chat_stream(match_id: str) -> str:
    return CHAT + match_id


def report_stream(report_id: str) -> str:
    return REPORT + report_id


def moderation_stream(player_id: str) -> str:
    return MODERATION + player_id


def invitation_stream(invitation_id: str) -> str:
    return INVITATION + invitation_id


def social_stream(player_id: str) -> str:
    return SOCIAL + player_id


def quickplay_stream(entry_id: str) -> str:
    return QUICKPLAY + entry_id


def id_of(prefix: str, stream_id: str) -> str | None:
    """The aggregate id of a stream of this kind; None for a stream of another kind."""
    return stream_id[len(prefix):] if stream_id.startswith(prefix) else None


def match_id_of(stream_id: str) -> str | None:
    return id_of(MATCH, stream_id)
