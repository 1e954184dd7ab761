"""What a route asks of the game service when one request is more than one command.

Routes stay thin: they decode, call one function here or one service handler, and map
errors. Kept here: turning a create request into the service's arguments (with 400s that
name the field), taking a seat and then starting the match when it was the last one
(matches auto-start, see docs/api.md), a rematch that keeps the seats, and showing
events and views to one seat. No rule lives here: every decision is the domain's.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from domain import fair
from domain import match as rules
from domain.cards import Seat
from domain.game import RuleViolation
from domain.games import GAME_NAMES, load
from infra.players import Principal
from infra.store import ConcurrencyError
from services.api.errors import ApiError, malformed
from services.api.schemas import CreateMatch, EventOut
from services.matches import MatchService, Outcome

log = logging.getLogger(__name__)

SEAT_NAMES = ("N", "E", "S", "W")
REMATCH_LOCK = 0x726D7463  # 'rmtc'


def command_id_for(match_id: str, purpose: str) -> uuid.UUID:
    """A deterministic command id, so that two callers doing the same thing at once (two
    players taking the last seats, two asking for a rematch) make one command, not two."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"atout:{match_id}:{purpose}")


def seat_of(state: rules.MatchState, player_id: str) -> Seat | None:
    seats = [Seat(s) for s, h in state.seats.items() if h is not None and h.player_id == player_id]
    if len(seats) > 1:
        raise ApiError(422, "ambiguous_seat", "you hold more than one seat in this match", {"seats": seats})
    return seats[0] if seats else None


def parse_seat(seat: str) -> Seat:
    if seat not in SEAT_NAMES:
        raise malformed("seat", f"seat must be one of {', '.join(SEAT_NAMES)}, got {seat!r}", source="path")
    return Seat(seat)


def show(state: rules.MatchState, events: list[tuple[int, Any]], seat: Seat | None) -> list[EventOut]:
    """Events as `seat` (None: a spectator) may see them; a hidden one keeps its version."""
    out = []
    for version, event in events:
        shown = rules.redact(state, event, seat)
        out.append(EventOut(version=version, event=None if shown is None else msgspec.to_builtins(shown)))
    return out


def view(state: rules.MatchState, seat: Seat | None) -> dict[str, Any]:
    """The domain's view of the match for `seat`, plus whose turn it is, the clock and the
    deadline (the view route fills those two in from the clock stream: `services.workers.clocks`)."""
    out = msgspec.to_builtins(rules.view(state, seat))
    to_act: tuple[Seat, ...] = ()
    if state.status == "playing" and state.game_state is not None:
        to_act = state.game.status(state.game_state).to_act
    out["to_act"] = [str(s) for s in to_act]
    out["clock"] = out["deadline"] = None
    return out


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


# --- create ----------------------------------------------------------------------------------

_FIELD_OF = {"bad_entropy": "$.entropy", "bad_seats": "$.seats", "bad_deck": "$.record.deals", "wrong_dealer": "$.record.deals",
             "bad_record": "$.game", "not_rateable": "$.rated"}


def _creation_error(violation: RuleViolation) -> ApiError:
    """Creating a match only validates its request: a refusal is a 400 naming the field."""
    details = dict(violation.details)
    if violation.code == "bad_option":
        option = details.get("option")
        field = f"$.options.{option}" if option else "$.options"
    elif violation.code == "bad_seats" and "seat" in details:
        field = f"$.seats.{details['seat']}"
    elif violation.code == "bad_entropy":
        details.pop("field", None)
        field = "$.entropy"
    elif "deal" in details:
        field = f"$.record.deals[{details['deal']}]"
    else:
        field = _FIELD_OF.get(violation.code, "$")
    return ApiError(400, violation.code, violation.message, {"field": field, **details})


def _predefined(game: str, record: dict[str, Any]) -> list[dict[str, Any]]:
    if record.get("game", game) != game:
        raise malformed("$.record.game", f"the record is of {record.get('game')!r}, not {game!r}")
    deals = record.get("deals")
    if not isinstance(deals, list) or not deals:
        raise malformed("$.record.deals", "a record needs a non-empty list of deals")
    out = []
    for d, deal in enumerate(deals):
        if not isinstance(deal, dict) or "dealer" not in deal or "deck" not in deal:
            raise malformed(f"$.record.deals[{d}]", "each deal needs 'dealer' and 'deck'")
        out.append({"dealer": deal["dealer"], "deck": deal["deck"]})
    return out


async def create(svc: MatchService, principal: Principal, body: CreateMatch) -> rules.MatchState:
    if body.game not in GAME_NAMES:
        raise malformed("$.game", f"unknown game {body.game!r}; known games: {', '.join(GAME_NAMES)}",
                        code="unknown_game", known=list(GAME_NAMES))
    predefined = _predefined(body.game, body.record) if body.record is not None else None
    from services.workers.clocks import parse_clock, set_clock

    try:
        clock = parse_clock(body.clock) if body.clock is not None else None
    except RuleViolation as violation:
        raise malformed(f"$.{violation.details.get('option', 'clock')}", violation.message, code="bad_clock") from None
    try:
        load(body.game).parse_options(body.options)
        created = await svc.create_match(body.game, body.options, body.seats, player_id=principal.player_id,
                                         entropy=body.entropy, predefined=predefined, rated=body.rated,
                                         command_id=body.command_id)
    except RuleViolation as violation:
        raise _creation_error(violation) from None
    if clock is not None:  # before the start, so the first turn is already timed
        await set_clock(svc.store, created.match_id, clock)
    await autostart(svc, created.match_id)
    return await svc.load(created.match_id)


# --- seats, start, rematch -------------------------------------------------------------------

async def autostart(svc: MatchService, match_id: str) -> Outcome | None:
    """Start the match if every seat is taken; None when it is not (yet), already started, or
    the start failed: the request that took the seat is answered for what it did, and the
    sweeper starts the full match later (`services.workers.reactor.start_full`)."""
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


def checked_entropy(entropy: str | None, field: str = "$.entropy") -> str | None:
    """The one entropy limit (domain.fair.check_entropy), as a 400 naming the field."""
    if entropy is None:
        return None
    try:
        return fair.check_entropy(entropy)
    except fair.FairDealError as error:
        raise malformed(field, str(error), code="bad_entropy", max_bytes=fair.MAX_ENTROPY_BYTES) from None


async def take_seat(svc: MatchService, principal: Principal, match_id: str, seat: Seat,
                    entropy: str | None, command_id: uuid.UUID | None) -> Outcome:
    checked_entropy(entropy)
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
        raise ApiError(403, "forbidden", "only a player of this match or an organiser may remove a bot")
    return await retrying(lambda: svc.leave_seat(match_id, seat, player_id=principal.player_id))


async def start(svc: MatchService, principal: Principal, match_id: str) -> Outcome:
    state = await svc.load(match_id)
    if seat_of(state, principal.player_id) is None and not principal.has_role("organiser"):
        raise ApiError(403, "forbidden", "only a seated player or an organiser may start a match")
    return await svc.start(match_id, command_id=command_id_for(match_id, "start"))


async def rematch(svc: MatchService, principal: Principal, match_id: str,
                  entropy: str | None = None) -> rules.MatchState:
    """A new match with the same game, options and seat holders, made once however many
    players ask for it (a deterministic command id, under a lock so that one secret and
    one commitment are ever made for it). The caller's `entropy` goes to his seat in it."""
    checked_entropy(entropy)
    old = await svc.load(match_id)
    if seat_of(old, principal.player_id) is None and not principal.has_role("organiser"):
        raise ApiError(403, "forbidden", "only a player of this match or an organiser may ask for a rematch")
    if old.status != "finished":
        raise ApiError(422, "match_not_finished", "a rematch follows a finished match")
    if entropy is not None and seat_of(old, principal.player_id) is None:
        raise malformed("$.entropy", "entropy goes to the caller's seat, and you hold none in this match",
                        code="bad_entropy")
    command_id = command_id_for(match_id, "rematch")
    async with svc.store.pool.acquire() as conn:
        await conn.execute("SELECT pg_advisory_lock($1, hashtext($2))", REMATCH_LOCK, match_id)
        try:
            created = await svc.create_match(old.game_name, old.raw_options, {s: "open" for s in SEAT_NAMES},
                                             command_id=command_id)
            new_id = created.match_id
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
    await autostart(svc, new_id)
    return await svc.load(new_id)
