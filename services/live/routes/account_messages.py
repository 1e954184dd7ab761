"""What the account stream carries, declared once: the AsyncAPI document's channels
(`services.http.asyncapi`) are built from these Structs, and the tests decode every message a
real stream sends with them (`tests/e2e/test_account_stream.py`).

A feature that adds a notice (`Feature(account_events=…)`) adds its Struct to `NOTICES`:
one declaration, and the document and the decoding test follow. `at` is when the event
behind the notice was recorded.
"""

from __future__ import annotations

from typing import Any, Union

import msgspec

from services.http import asyncapi as A


class _Notice(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    at: str


class YourTurn(_Notice, tag="your_turn"):
    """It is `seat`'s turn in `match_id`: act with `expected_version: match_version`."""

    match_id: str
    match_version: int
    seat: str


class SeatTaken(_Notice, tag="seat_taken"):
    """Someone sat at my table (`holder`: `{kind: player, player_id}` or `{kind: bot, level}`)."""

    match_id: str
    seat: str
    holder: dict[str, str]


class SeatLeft(_Notice, tag="seat_left"):
    match_id: str
    seat: str


class MatchStarted(_Notice, tag="match_started"):
    match_id: str
    game: str
    seat: str


class MatchFinished(_Notice, tag="match_finished"):
    """`status`: finished, abandoned or void; `winner` and `match_score` as the match's
    own `match_finished` says them (null when abandoned or voided)."""

    match_id: str
    status: str
    winner: str | None
    match_score: dict[str, int] | None


class TournamentStarted(_Notice, tag="tournament_started"):
    tournament_id: str


class RoundStarted(_Notice, tag="round_started"):
    """My entry's table of `round` (its match), or a bye."""

    tournament_id: str
    round: int
    table: int | None = None
    match_id: str | None = None
    bye: bool = False


class RoundClosed(_Notice, tag="round_closed"):
    tournament_id: str
    round: int


class TournamentClosed(_Notice, tag="tournament_closed"):
    """`reason`: `completed` after its last round, `finished_early` when its organiser made a
    round in play the last, `cancelled` by its organiser before the start, or why it closed
    without starting (`too_few_entries`, `too_many_boards`, `not_enough_boards`:
    docs/tournaments.md)."""

    tournament_id: str
    reason: str = "completed"


class DisputeRuled(_Notice, tag="dispute_ruled"):
    dispute_id: str
    match_id: str
    ruling: str
    status: str


class MatchSuspended(_Notice, tag="match_suspended"):
    """The server could not move my match on: nothing is played until an admin resumes,
    voids or abandons it. `reason`: the stable code (`action_refused`, `deal_failed`,
    `task_failed`)."""

    match_id: str
    reason: str


class MatchResumed(_Notice, tag="match_resumed"):
    """An admin resumed my suspended match (`status`: what it is again, `playing`); a
    `your_turn` follows for whoever must act."""

    match_id: str
    status: str


class RatingChanged(_Notice, tag="rating_changed"):
    """My display rating in `pool` moved (mu − 3·sigma, docs/ratings.md) from `old_rating` to
    `new_rating` because `match_id` was rated, or (`rerated`) a ruling on it rated the pool
    again; `games`: my rated matches in the pool now; `provisional`: fewer than 10."""

    pool: str
    match_id: str
    old_rating: float
    new_rating: float
    games: int
    provisional: bool
    rerated: bool = False


class InvitationReceived(_Notice, tag="invitation_received"):
    """I am invited to `seat` of `match_id` (null: any free seat) by `by`; `kind` seat or challenge.
    Accept or decline with `POST /v1/invitations/{invitation_id}/accept` (or `/decline`)."""

    invitation_id: str
    match_id: str
    game: str
    kind: str
    by: str
    seat: str | None
    expires_at: str


class InvitationAnswered(_Notice, tag="invitation_answered"):
    """`player_id` accepted (and took `seat`) or declined the invitation I sent."""

    invitation_id: str
    match_id: str
    player_id: str
    answer: str
    seat: str | None


class InvitationCancelled(_Notice, tag="invitation_cancelled"):
    """The invitation to me was cancelled by its sender."""

    invitation_id: str
    match_id: str


class QuickplaySeated(_Notice, tag="quickplay_seated"):
    """My quick-play entry is seated: `seat` of `match_id` (docs/quickplay.md). `rated: false`
    with `bots: true`: bots fill the table, so it is casual; told before the match starts."""

    entry_id: str
    match_id: str
    game: str
    pool: str
    seat: str
    rated: bool
    bots: bool


class QuickplayExpired(_Notice, tag="quickplay_expired"):
    """My quick-play entry ended unseated: `reason` `timeout` (ATOUT_QUICKPLAY_EXPIRY), `banned`,
    `partner_left`, `partner_unavailable`."""

    entry_id: str
    reason: str


NOTICES: tuple[type, ...] = (YourTurn, SeatTaken, SeatLeft, MatchStarted, MatchFinished, MatchSuspended,
                             MatchResumed, TournamentStarted, RoundStarted, RoundClosed, TournamentClosed,
                             DisputeRuled, RatingChanged, InvitationReceived, InvitationAnswered, InvitationCancelled,
                             QuickplaySeated, QuickplayExpired)
Notice = Union[NOTICES]  # type: ignore[valid-type]


class AccountSnapshot(msgspec.Struct, tag_field="type", tag="snapshot", forbid_unknown_fields=True):
    """The account stream's first message at `version` (its own sequence): my open, playing
    and suspended matches (`to_act`: whose turn; `my_turn`), my registering and running
    tournaments (my entry, its round, table and match)."""

    version: int
    matches: list[dict[str, Any]]
    tournaments: list[dict[str, Any]]


class AccountEvent(msgspec.Struct, tag_field="type", tag="event", forbid_unknown_fields=True):
    """One notice, numbered by the account stream's own sequence."""

    version: int
    event: Notice  # type: ignore[valid-type]


SNAPSHOT = A.Message("accountSnapshot", AccountSnapshot, "what concerns me now, at the account stream's version")
EVENT = A.Message("accountEvent", AccountEvent, "one notice: your turn, a seat taken, a match or round begun, "
                  "suspended, resumed or over, a dispute ruled, my rating changed, an invitation received, "
                  "answered or cancelled")
AFTER = {"after": "resume: the notices after this account version follow the snapshot (kept "
                  "ATOUT_ACCOUNT_RETENTION seconds, default a day; older: resync, details.reason expired)"}
CHANNELS = (
    A.Channel("accountSocket", "/v1/stream/me/ws", "ws",
              "The caller's account stream: the snapshot, then his notices, numbered by the stream's own "
              "sequence; closes 4401 unauthorized (or token revoked), 4008 resync, 1013 unavailable (docs/live.md).",
              (SNAPSHOT, EVENT, A.ERROR), (A.AUTH,), AFTER),
    A.Channel("accountStream", "/v1/stream/me", "http",
              "The same messages as accountSocket on SSE or NDJSON (by Accept); SSE ids are versions and "
              "Last-Event-ID counts as after.", (SNAPSHOT, EVENT, A.ERROR), (), AFTER),
)
DECODER = msgspec.json.Decoder(Union[AccountSnapshot, AccountEvent, A.Error])
