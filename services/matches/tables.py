"""The table's application logic: when one request is several commands, and who may ask.

Service-layer handlers over the game service, called by the match routes (which only parse,
call and map): creating a match (with its turn clock set before the start), taking a seat
and then starting the match when it was the last one (matches auto-start, docs/api.md),
who may start a match or send a bot away, and a rematch that keeps the seats, made once
under an advisory lock however many players ask. No rule lives here: every decision about
the game is the domain's; what is decided here is who may ask, and in which order the
commands go.

A refusal is one of `services.refusals`' kinds (code, message, details); the API maps the
kind to its status.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from domain import fair
from domain import match as rules
from domain.cards import Seat
from domain.game import RuleViolation
from infra.players import Principal
from infra.projections import invitations
from infra.store import ConcurrencyError
from services.matches import seating
from services.matches.clocks import Clocks, match_clock, rated_clock, set_clock
from services.matches.service import MatchService, Outcome, UnknownMatch
from services.refusals import BadField, Forbidden, NotNow
from services.visibility import Visibility

log = logging.getLogger(__name__)

SEAT_NAMES = ("N", "E", "S", "W")
REMATCH_LOCK = 0x726D7463  # 'rmtc'


def command_id_for(match_id: str, purpose: str) -> uuid.UUID:
    """A deterministic command id, so that two callers doing the same thing at once (two
    players taking the last seats, two asking for a rematch) make one command, not two."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"atout:{match_id}:{purpose}")


def seat_of(state: rules.MatchState, player_id: str) -> Seat | None:
    """The caller's seat in this match (None: he holds none); one caller, one seat."""
    seats = [Seat(s) for s, h in state.seats.items() if h is not None and h.player_id == player_id]
    if len(seats) > 1:
        raise NotNow("ambiguous_seat", "you hold more than one seat in this match", {"seats": seats})
    return seats[0] if seats else None


def checked_entropy(entropy: str | None, field: str = "$.entropy") -> str | None:
    """The one entropy limit (domain.fair.check_entropy), as a 400 naming the field."""
    if entropy is None:
        return None
    try:
        return fair.check_entropy(entropy)
    except fair.FairDealError as error:
        raise BadField("bad_entropy", str(error), {"field": field, "max_bytes": fair.MAX_ENTROPY_BYTES}) from None


async def retrying(command: Callable[[], Awaitable[Outcome]], attempts: int = 5) -> Outcome:
    """Seat commands carry no client version: on a concurrent write, decide again."""
    for attempt in range(attempts):
        try:
            return await command()
        except ConcurrencyError:
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(0.005 * (attempt + 1))
    raise AssertionError("unreachable")


async def create(svc: MatchService, principal: Principal, game: str, options: dict[str, Any],
                 seats: dict[str, str], *, entropy: str | None = None,
                 predefined: list[dict[str, Any]] | None = None, clock: dict[str, float] | None = None,
                 rated: bool = False, private: bool = False,
                 command_id: uuid.UUID | None = None) -> rules.MatchState:
    """A new match (its clock set before the start, so the first turn is already timed),
    started at once when its seats are all taken. A refused creation is the domain's
    RuleViolation (the routes make it a 400 naming the field). A rated match always has a
    clock (`clocks.match_clock`). A banned player creates none (`seating.admit`)."""
    await seating.admit(svc.store, [principal.player_id], asker=principal.player_id)
    clock = match_clock(clock, rated=rated)
    created = await svc.create_match(game, options, seats, player_id=principal.player_id, entropy=entropy,
                                     predefined=predefined, rated=rated, private=private, command_id=command_id)
    if clock is not None:
        await set_clock(svc.store, created.match_id, clock)
    await autostart(svc, created.match_id)
    return await svc.load(created.match_id)


async def autostart(svc: MatchService, match_id: str) -> Outcome | None:
    """Start the match if every seat is taken; None when it is not (yet), already started, or
    the start failed: the request that took the seat is answered for what it did, and the
    sweeper starts the full match later (`services.bots.reactor.start_full`)."""
    state = await svc.load(match_id)
    if state.status != "open" or state.free_seats:
        return None
    try:
        return await svc.start(match_id, command_id=command_id_for(match_id, "start"))
    except (RuleViolation, ConcurrencyError):
        return None  # someone else started it, or a seat was left meanwhile
    except Exception as error:  # the type only: a dealing error's text is not for logs
        log.error("match %s is full but could not start: %s", match_id, type(error).__name__)
        return None


async def autostart_when_ready(svc: MatchService, match_id: str) -> Outcome | None:
    """Start a full open match once every player seat has given entropy under its chain:
    a rematch waits for its players' entropy (docs/fair-deal.md, "Entropy when it helps")."""
    state = await svc.load(match_id)
    players = {seat for seat, holder in state.seats.items() if holder is not None and holder.kind == "player"}
    if players - set(await svc.vault.entropy(match_id, 1)):
        return None
    return await autostart(svc, match_id)


async def give_entropy(svc: MatchService, principal: Principal, match_id: str, seat: Seat, entropy: str) -> int:
    """A seated player's (new) entropy; the chain it went under. The last player's entropy
    a waiting rematch needs starts it."""
    chain = await svc.give_entropy(match_id, seat, player_id=principal.player_id, entropy=entropy)
    await autostart_when_ready(svc, match_id)
    return chain


CODE_CONTEXT = b"atout:invitation-code:"


async def invitation_code(svc: MatchService, match_id: str) -> str:
    """A private table's invitation code: 16 characters (80 bits) drawn from the match's
    secret in the vault, so it is kept nowhere else, is the same however often the creation
    is retried, and says nothing of the deals (a one-way function of another input)."""
    secret = (await svc.vault.secret(match_id)).secret
    digest = hmac.new(secret, CODE_CONTEXT + match_id.encode(), hashlib.sha256).digest()
    return base64.b32encode(digest[:10]).decode()


async def may_sit(svc: MatchService, state: rules.MatchState, player_id: str, *, code: str | None = None,
                  invited: bool = False) -> None:
    """Refused unless `player_id` may ask for a seat here. At a private table: its host, an
    invitee, or whoever brings its code; anyone else (a wrong code included) is answered as
    if the match did not exist, so a code cannot be probed. At any table: through the one
    door (`seating.admit`): not banned, and no block between him and its host or a player
    seated at it, either way (docs/social.md)."""
    if state.private and not invited and player_id != state.host:
        if code is not None:
            expected = await invitation_code(svc, state.match_id)
            if not hmac.compare_digest(code.strip().upper().encode(), expected.encode()):
                raise UnknownMatch(state.match_id)
        elif player_id not in await invitations.invited_players(svc.store.pool, state.match_id):
            raise UnknownMatch(state.match_id)
    present = {h.player_id for h in state.seats.values() if h is not None and h.player_id}
    if state.host is not None:
        present.add(state.host)
    await seating.admit(svc.store, [player_id], asker=player_id, beside=present - {player_id})


async def take_seat(svc: MatchService, principal: Principal, match_id: str, seat: Seat,
                    entropy: str | None, command_id: uuid.UUID | None, *, code: str | None = None,
                    invited: bool = False) -> Outcome:
    """Sit down (if this player may: `may_sit`); the last seat taken starts the match (the
    answer holds both). `invited`: an accepted invitation already admitted him."""
    checked_entropy(entropy)
    await may_sit(svc, await svc.load(match_id), principal.player_id, code=code, invited=invited)
    taken = await retrying(lambda: svc.take_seat(match_id, seat, player_id=principal.player_id, entropy=entropy,
                                                 command_id=command_id))
    started = await autostart(svc, match_id)
    if started is None:
        return taken
    return Outcome(match_id=match_id, version=started.version, events=taken.events + started.events)


async def leave_seat(svc: MatchService, principal: Principal, match_id: str, seat: Seat) -> Outcome:
    """A player leaves its own seat; a bot is sent away only by a player of the match (or
    an organiser), not by any passer-by."""
    state = await svc.load(match_id)
    holder = state.seats.get(seat.value)
    if holder is not None and holder.kind == "bot" and seat_of(state, principal.player_id) is None \
            and not principal.has_role("organiser"):
        raise Forbidden("forbidden", "only a player of this match or an organiser may remove a bot")
    return await retrying(lambda: svc.leave_seat(match_id, seat, player_id=principal.player_id))


async def start(svc: MatchService, principal: Principal, match_id: str) -> Outcome:
    """Start a fully seated match: a seated player or an organiser may ask."""
    state = await svc.load(match_id)
    if seat_of(state, principal.player_id) is None and not principal.has_role("organiser"):
        raise Forbidden("forbidden", "only a seated player or an organiser may start a match")
    return await svc.start(match_id, command_id=command_id_for(match_id, "start"))


async def rematch(svc: MatchService, principal: Principal, match_id: str, entropy: str | None = None, *,
                  visibility: Visibility) -> rules.MatchState:
    """A new match with the same game, options and seat holders, made once however many
    players ask for it (a deterministic command id, under a lock so that one secret and
    one commitment are ever made for it). The caller's `entropy` goes to his seat in it,
    after its tip was published; it starts once every player seat has entropy.

    Only the match's own players ask (anyone else is refused as `visibility` answers him:
    a private table hidden from him does not exist), and it sits again only players who may
    all sit together: none banned, no block between any two (`seating.admit`)."""
    checked_entropy(entropy)
    old = await svc.load(match_id)
    if seat_of(old, principal.player_id) is None:
        refusal = await visibility.check(principal, old, "view")
        if refusal is not None and refusal.hidden:
            raise UnknownMatch(match_id)
        raise Forbidden("forbidden", "only a player of this match may ask for its rematch")
    if old.status != "finished":
        raise NotNow("match_not_finished", "a rematch follows a finished match")
    players = {h.player_id for h in old.seats.values() if h is not None and h.player_id}
    await seating.admit(svc.store, players | ({old.host} if old.private and old.host else set()),
                        asker=principal.player_id)
    command_id = command_id_for(match_id, "rematch")
    async with svc.store.pool.acquire() as conn:
        await conn.execute("SELECT pg_advisory_lock($1, hashtext($2))", REMATCH_LOCK, match_id)
        try:
            created = await svc.create_match(old.game_name, old.raw_options, {s: "open" for s in SEAT_NAMES},
                                             rated=old.rated, private=old.private,
                                             player_id=old.host if old.private else None, command_id=command_id)
            new_id = created.match_id
            if old.rated:                                # its clock, before the rematch can start
                await set_clock(svc.store, new_id, rated_clock(await Clocks(svc.store, 1).of(match_id)))
            state = await svc.load(new_id)
            for seat, holder in old.seats.items():
                if holder is None or state.seats.get(seat) is not None:
                    continue
                await retrying(lambda: svc.take_seat(
                    new_id, Seat(seat), player_id=holder.player_id,
                    bot_level=holder.level if holder.kind == "bot" else None,
                    command_id=command_id_for(new_id, f"seat-{seat}")))
            mine = seat_of(await svc.load(new_id), principal.player_id)
            if entropy is not None and mine is not None:   # before the start when this caller made it
                await svc.give_entropy(new_id, mine, player_id=principal.player_id, entropy=entropy)
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1, hashtext($2))", REMATCH_LOCK, match_id)
    # The rematch's tip exists before any of its entropy: it starts when every player has
    # given his (asking for the rematch with entropy, or PUT), when a seated player starts
    # it, or when the sweeper starts the full matches left idle (ATOUT_BOT_OVERDUE seconds).
    await autostart_when_ready(svc, new_id)
    return await svc.load(new_id)
