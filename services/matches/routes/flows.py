"""What the match routes share to parse a request and show an answer.

Routes stay thin: they decode, call the service layer (`services.matches.tables` when a request is
several commands or depends on who asks, else one `MatchService` handler) and map errors.
Kept here: turning a create request into the service's arguments (with 400s that name the
field), parsing a seat, and showing events and views to one seat. No rule lives here, and
no decision about who may do what (that is `services.matches.tables`').
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain import match as rules
from domain.cards import Seat
from domain.game import RuleViolation
from domain.games import GAME_NAMES, load
from infra.players import Principal
from services.http.errors import ApiError, malformed
from services.http.schemas import CreateMatch, EventOut
from services.matches import tables
from services.matches.clocks import parse_clock
from services.matches.service import MatchService
from services.matches.tables import SEAT_NAMES


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
    """The domain's view of the match for `seat`, plus whose turn it is, whether it is a
    private table (`visibility`), the clock and the deadline (the view route fills those two in from the clock stream: `services.matches.clocks`)."""
    out = msgspec.to_builtins(rules.view(state, seat))
    to_act: tuple[Seat, ...] = ()
    if state.status == "playing" and state.game_state is not None:
        to_act = state.game.status(state.game_state).to_act
    out["to_act"] = [str(s) for s in to_act]
    out["clock"] = out["deadline"] = None
    out["visibility"] = "private" if state.private else "public"
    return out


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
    """Parse a create request (400s naming the field) and create the match through the
    service layer (`services.matches.tables.create`: its clock, its auto-start)."""
    if body.game not in GAME_NAMES:
        raise malformed("$.game", f"unknown game {body.game!r}; known games: {', '.join(GAME_NAMES)}",
                        code="unknown_game", known=list(GAME_NAMES))
    predefined = _predefined(body.game, body.record) if body.record is not None else None
    try:
        clock = parse_clock(body.clock) if body.clock is not None else None
    except RuleViolation as violation:
        raise malformed(f"$.{violation.details.get('option', 'clock')}", violation.message, code="bad_clock") from None
    try:
        load(body.game).parse_options(body.options)
        return await tables.create(svc, principal, body.game, body.options, body.seats, entropy=body.entropy,
                                   predefined=predefined, clock=clock, rated=body.rated,
                                   private=body.visibility == "private", command_id=body.command_id)
    except RuleViolation as violation:
        raise _creation_error(violation) from None
