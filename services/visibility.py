"""Who may see what of a match beyond its own seats: one place, so no route can forget.

Every route that can show a deck, a seed, a hand or a table's play asks `check` (or, with the
facts already in hand, `refusal`) what it may show, and answers the refusal's code when there
is one (`services/matches/routes/play.py` `ensure_readable` raises it and audits the privileged ones).

The policy, in words (docs/api.md "Who may read what"):

- A seat sees its own view, events and live stream; a finished deal's record, seed and
  verification are its players' at once, and everyone's once the match is over, unless the
  match is a sealed tournament board: then no one's until the match is over and its round
  has closed at every table (another table may still be playing the same cards).
- A tournament table is no one else's to watch until its round has closed at every table.
- A private table (docs/social.md) is nobody else's to know of: its seats, its host and the
  players invited to it (`audience_lookups`) watch it as spectators do; anyone else is told
  there is no such match (404 `unknown_match`). Admins read it as any other match.
- Admins, and an organiser for the matches of his own tournaments, may read beyond that
  (the admin replay shows every card) — but not while they play: whoever holds a seat in the
  match, or an entry in its tournament, reads only what his seat may, whatever his role
  (`privileged_while_playing`). Once what he asks for is public, it is public to him too.

What is *derived* from a match follows the same policy (docs/api.md, "What a match derives
follows its match"): figures folded from results (ratings, stats, leaderboards) hold a
tournament table's result until its round closes (`infra.projections.rating_fold`); rows about
one match are sealed per reader by `Visibility.seal_rows`, and privileged queues' free text by
`Visibility.seal_queue` (the `queue` read).

The features say which matches are whose through the checks they declare
(`Feature.public_checks`, `organiser_lookups`, `entrant_lookups`, `audience_lookups`; the
tournaments feature in `services/tournaments/routes/tournaments.py` declares the first three, the invitations
feature the last); the runtime holds the policy they make
up (`Runtime.visibility`, a `Visibility`). It fails closed: with no public check declared no
match is public; without lookups no organiser owns any and nobody holds an entry.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

import msgspec

from domain import chat
from domain import match as rules
from infra.players import Principal

# Whether a finished match's deals may be shown to anyone (a tournament board still being
# played at another table may not): `async check(match_id) -> bool`, all must agree.
PublicCheck = Callable[[str], Awaitable[bool]]
# Who organises a match's tournament: `async lookup(match_id) -> organiser player id | None`.
OrganiserLookup = Callable[[str], Awaitable["str | None"]]
# Who plays in a match's tournament (the players of every entry): `async lookup(match_id) -> set`.
EntrantLookup = Callable[[str], Awaitable["set[str]"]]
# Who is invited to a private match besides its seats and host: `async lookup(match_id) -> set`.
AudienceLookup = Callable[[str], Awaitable["set[str]"]]

PRIVILEGED_WHILE_PLAYING = "privileged_while_playing"
BOARD_SEALED = "board_sealed"
FORBIDDEN = "forbidden"
UNKNOWN_MATCH = "unknown_match"

# What a route shows: `view` a seat's or the spectator's view, events and live stream;
# `record` the finished deals' hand records (GET …/record); `deals` the same with seeds and
# their verification (export, verify); `replay` every card of one deal (the admin replay);
# `queue` a privileged queue's row about the match (a report's message, a dispute's reason:
# free text that may name any card).
Read = Literal["view", "record", "deals", "replay", "queue"]
OVER = frozenset({"finished", "abandoned", "void"})
# What a row about a match (a listing's summary, a followed table) derives from its play:
# sealed for a reader who may not watch the match.
DERIVED = ("score", "winner", "deals", "version")


class Reader(msgspec.Struct, frozen=True):
    """What the policy needs to know of one caller and one match."""

    admin: bool = False
    seat: str | None = None       # the seat he holds in the match
    organiser: bool = False       # an organiser, of the match's tournament
    entrant: bool = False         # a player of an entry of the match's tournament
    public: bool = True           # no check keeps the match from anyone (its round is closed)
    hidden: bool = False          # a private table he is neither seated at, hosting nor invited to

    @property
    def playing(self) -> bool:
        return self.seat is not None or self.entrant

    @property
    def reviewer(self) -> bool:
        return self.admin or self.organiser


class Refusal(msgspec.Struct, frozen=True):
    """Why a read is refused; `hidden`: the match is not to exist for this reader at all (a
    private table he has no part in), so he is answered as if there were no such match."""

    code: str
    message: str
    hidden: bool = False


SEALED = Refusal(BOARD_SEALED, "a tournament board is shown only to its seats, and its hand records to no one, "
                               "until its round has closed at every table")
PLAYING = Refusal(PRIVILEGED_WHILE_PLAYING, "you hold a seat in this match or an entry in its tournament: you "
                                            "read only what your seat may see, whatever your role, until it is public")
NOT_YET = Refusal(FORBIDDEN, "a deal is shown to the match's players, and to everyone once the match is over")
HIDDEN = Refusal(UNKNOWN_MATCH, "no such match", hidden=True)
NOT_A_REVIEWER = Refusal(FORBIDDEN, "an organiser reviews only the matches of his own tournaments")


def deal_over(state: rules.MatchState, deal: int) -> bool:
    """Whether deal `deal` (0-based, as dealt) has ended: its cards are then all on record."""
    if deal < 0 or state.deal_index < 0:
        return False
    if deal < state.deal_index:
        return True
    return deal == state.deal_index and state.game.status(state.game_state).phase != "in_deal"


def open_to(reader: Reader, state: rules.MatchState, read: Read, deal: int | None = None) -> bool:
    """What `reader` may see with no role at all: his seat's or a spectator's share."""
    seated = reader.seat is not None
    sealed = state.sealed and not (state.status == "finished" and reader.public)
    if read == "view":
        return seated or reader.public
    if read == "record":
        return (seated or reader.public) and not sealed
    if read == "deals":
        return (seated or (state.status == "finished" and reader.public)) and not sealed
    # replay: every card of one deal, which a seat saw anyway once the deal is over and on record
    return deal is not None and deal_over(state, deal) and (seated or reader.public) and not sealed


def refusal(reader: Reader, state: rules.MatchState, read: Read, deal: int | None = None) -> Refusal | None:
    """The one decision: None when `reader` may have `read` of this match (deal `deal`),
    else why not. A role reads beyond the seat's share only while its holder plays in
    neither the match nor its tournament. A private table hidden from him does not exist
    for him, unless he is an admin."""
    if reader.hidden and not reader.admin:
        return HIDDEN
    if read == "queue":       # whoever plays reads it as his seat would: once the match is over and public
        if reader.playing:
            return None if state.status in OVER and reader.public else PLAYING
        return None if reader.reviewer else NOT_A_REVIEWER
    if read == "replay" and not reader.reviewer:
        return NOT_A_REVIEWER
    if open_to(reader, state, read, deal):
        return None
    if reader.reviewer:
        return PLAYING if reader.playing else None
    if read == "deals" and reader.public and not state.sealed:
        return NOT_YET
    return SEALED


def seat_of(state: rules.MatchState, player_id: str | None) -> str | None:
    return next((s for s, h in state.seats.items() if h is not None and h.player_id == player_id), None)


class Visibility:
    """The policy of one runtime, from the checks the features declared (bound to it):
    `public_checks` (all must agree that anyone may see a match; none declared: nobody
    may), `organiser_lookups` (who organises a match's event), `entrant_lookups` (who plays
    in it). The decision itself is `refusal`'s; this class looks the facts up."""

    def __init__(self, public_checks: Sequence[PublicCheck] = (), organiser_lookups: Sequence[OrganiserLookup] = (),
                 entrant_lookups: Sequence[EntrantLookup] = (),
                 audience_lookups: Sequence[AudienceLookup] = ()) -> None:
        self.public_checks = tuple(public_checks)
        self.organiser_lookups = tuple(organiser_lookups)
        self.entrant_lookups = tuple(entrant_lookups)
        self.audience_lookups = tuple(audience_lookups)

    async def is_public(self, match_id: str) -> bool:
        """Whether every declared check lets anyone see this match; False with none declared."""
        if not self.public_checks:
            return False
        return all([await check(match_id) for check in self.public_checks])

    async def organisers(self, match_id: str) -> set[str]:
        return {o for o in [await lookup(match_id) for lookup in self.organiser_lookups] if o}

    async def entrants(self, match_id: str) -> set[str]:
        found: set[str] = set()
        for lookup in self.entrant_lookups:
            found |= set(await lookup(match_id))
        return found

    async def audience(self, match_id: str) -> set[str]:
        found: set[str] = set()
        for lookup in self.audience_lookups:
            found |= set(await lookup(match_id))
        return found

    async def hidden(self, principal: Principal | None, state: rules.MatchState, seat: str | None) -> bool:
        """Whether `state` is a private table `principal` has no part in (no seat, not its
        host, not invited): fails closed, with no audience declared only seats and host see it."""
        if not state.private or seat is not None:
            return False
        player_id = getattr(principal, "player_id", None)
        if player_id is not None and player_id == state.host:
            return False
        return player_id is None or player_id not in await self.audience(state.match_id)

    async def reader_of(self, principal: Principal | None, match_id: str, seat: str | None) -> Reader:
        """The facts about `principal` and one match, from the declared lookups."""
        public = await self.is_public(match_id)
        if principal is None or not principal.has_role("organiser"):
            return Reader(seat=seat, public=public)   # no role: who organises or enters changes nothing
        admin = principal.has_role("admin")
        return Reader(admin=admin, seat=seat, public=public,
                      organiser=not admin and principal.player_id in await self.organisers(match_id),
                      entrant=principal.player_id in await self.entrants(match_id))

    async def check(self, principal: Principal | None, state: rules.MatchState, read: Read,
                    deal: int | None = None) -> Refusal | None:
        """`refusal` with the facts looked up. A seat's own view, and an unsealed match's
        finished deals to its seats, need no lookup (what `refusal` answers them anyway)."""
        seat = seat_of(state, getattr(principal, "player_id", None))
        if seat is not None and (read == "view" or (read in ("record", "deals") and not state.sealed)):
            return None
        reader = await self.reader_of(principal, state.match_id, seat)
        if await self.hidden(principal, state, seat):
            reader = msgspec.structs.replace(reader, hidden=True)
        return refusal(reader, state, read, deal)

    async def may_watch(self, principal: Principal | None, state: rules.MatchState) -> bool:
        """Whether `principal` may look at a match (its view, its events, its live stream)."""
        return await self.check(principal, state, "view") is None

    async def seal_rows(self, principal: Principal, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Rows about matches (a listing's summaries, the tables of followed players) as
        `principal` may see them: a table he may not watch keeps its place, but not what its
        play derives (`DERIVED`: score, winner, deals, version) — another table may still be
        playing the same boards. The rows' time is the read model's, which for a tournament
        table moves only with its status (`infra.projections.match_summaries`)."""
        shown = []
        for row in rows:
            seat = next((s for s, h in (row.get("seats") or {}).items()
                         if isinstance(h, dict) and h.get("player_id") == principal.player_id), None)
            if seat is None:
                reader = await self.reader_of(principal, row["match_id"], None)
                if not reader.public and not (reader.reviewer and not reader.playing):
                    row = {**row, **{k: None for k in DERIVED if k in row}, "sealed": True}
            shown.append(row)
        return shown

    async def seal_queue(self, principal: Principal, rows: list[dict[str, Any]], fields: Sequence[str],
                         load: Callable[[str], Awaitable[rules.MatchState | None]]) -> list[dict[str, Any]]:
        """A privileged queue's rows (reports, disputes) as `principal` may read them: a row
        about a match he plays in — a seat, or an entry of its tournament — keeps its place but
        not its `fields` (`sealed: true`) until the match is over and public (`refusal`'s
        `queue`). `load(match_id)`: the match, None when the store has none."""
        shown, refused = [], {}
        for row in rows:
            match_id = row.get("match_id")
            if match_id and match_id not in refused:
                state = await load(match_id)
                refused[match_id] = state is not None and await self.check(principal, state, "queue") is not None
            if match_id and refused[match_id]:
                row = {**row, **{k: None for k in fields}, "sealed": True}
            shown.append(row)
        return shown


def _seated(state: rules.MatchState, player_id: str) -> bool:
    return seat_of(state, player_id) is not None


def may_review(principal: Principal, organisers: set[str], players: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
    """Admins review every match; an organiser only the matches of his own tournaments;
    neither where he plays (`players`: who holds a seat or an entry)."""
    if principal.player_id in players:
        return False
    return principal.has_role("admin") or (principal.role == "organiser" and principal.player_id in organisers)


# --- the table chat (domain/chat.py) ------------------------------------------------------------
#
# Everyone who may watch a match reads its `table` channel (a seat's messages: presets only
# while it is played). The `spectators` channel is for whoever holds no seat: a message sent
# there while the match is played never reaches a seat — whatever the seat holder's role —
# neither live nor in the history while the match is still being played; once it is over, its
# seats may read the rail's whole history. A seat reads everything else.

def chat_shown(seated: bool, channel: str, sent_in: str, phase_now: str) -> bool:
    """Whether a chat message of `channel`, sent in phase `sent_in` (`domain.chat.phase_of`),
    reaches a reader who holds a seat (`seated`) or not, the match now being in `phase_now`
    (a live message: the phase it was sent in)."""
    if not seated or channel != chat.SPECTATORS:
        return True
    return not (sent_in == "playing" and phase_now == "playing")
