"""Playing and reading a match: actions, events after a version, the match record.

The order of checks for an action is the contract's, and each step sits where it can be
nowhere else: auth in the guards (before the body is even decoded), malformed in the
decoding and the envelope check below, then the game service answers unknown match,
replayed command, command conflict, stale version and rule violation in that order
(services/matches/service.py `act`). Nothing is appended unless every check passed, in one
statement, so an action is never half-applied.
"""

from __future__ import annotations

import logging
import time
from typing import Annotated, Any

import msgspec
from litestar import Response, get, post

from domain import match as rules
from domain.chains import as_record
from domain.game import RuleViolation
from infra.store import CommandConflictError, ConcurrencyError
from services.audit import append_audit
from services.http.auth import authenticated
from services.http.errors import ApiError, convert
from services.http.logs import bind
from services.http.metrics import observe_action
from services.http.ratelimit import rate_limited
from services.http.schemas import (
    ACTION_BODY,
    MATCH_ID,
    BEARER,
    COMMAND_EXAMPLE,
    EVENTS_EXAMPLE,
    After,
    Caller,
    CommandOut,
    Envelope,
    EventsOut,
    PathStr,
    Runtime,
    ex,
    responses,
)
from services.matches.routes.answers import RecordOut
from services.matches import tables
from services.matches.routes import flows, records
from services.matches.service import UnknownMatch
from services.visibility import PRIVILEGED_WHILE_PLAYING, Read

log = logging.getLogger("atout.actions")
TAGS = ["play"]
PLAYER = [authenticated, rate_limited]
ENVELOPE_FIELDS = ("command_id", "expected_version")

_OUTCOMES: tuple[tuple[type[BaseException], str], ...] = (
    (UnknownMatch, "unknown_match"), (CommandConflictError, "command_conflict"), (ConcurrencyError, "stale_version"),
    (RuleViolation, "rejected"), (ApiError, "malformed"))


@post("/v1/matches/{match_id:str}/actions", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER,
      summary="Act at my seat",
      description="Checks, in this order: auth (401/403), malformed (400, with the field path), unknown match (404), "
                  "a command_id already seen answers its first answer again (another body: 409 command_conflict), "
                  "stale expected_version (409 stale_version with the current version), the rules (422 with the "
                  "rule's code, e.g. not_your_turn). The answer holds the new version and the events as my seat sees "
                  "them (a hidden one: `event: null`). A replayed answer has the header `Idempotent-Replayed: true`.",
      responses=responses(200, CommandOut, [ex("a card played", COMMAND_EXAMPLE)], "The new version and events",
                          400, 401, 404, 409, 422, 429))
async def act(match_id: PathStr, data: Annotated[dict[str, Any], ACTION_BODY], principal: Caller,
              runtime: Runtime) -> Response:
    started, outcome_label = time.perf_counter(), "error"
    action = data.get("action")
    try:
        envelope = convert(data, Envelope)
        bind(str(envelope.command_id))
        # The seats are fixed once a match plays: a cached state names the caller's seat without a
        # read (the service itself reads what is fresh). Anything else is read from the store.
        state = await runtime.matches.peek(match_id)
        seat = tables.seat_of(state, principal.player_id)
        if seat is None or state.status != "playing":
            state = await runtime.matches.load(match_id)
            seat = tables.seat_of(state, principal.player_id)
        fields = {k: v for k, v in data.items() if k not in ENVELOPE_FIELDS}
        # A caller without a seat still goes through the service, which answers replays and
        # staleness first and then the rules' not_your_seat, keeping the order of checks.
        fields["seat"] = fields.get("seat") or str(seat or "N")
        outcome = await runtime.matches.act(match_id, fields, player_id=principal.player_id,
                                            expected_version=envelope.expected_version,
                                            command_id=envelope.command_id)
        outcome_label = "replayed" if outcome.replayed else "accepted"
    except Exception as error:
        outcome_label = next((label for kind, label in _OUTCOMES if isinstance(error, kind)), "error")
        raise
    finally:
        elapsed = time.perf_counter() - started
        observe_action(action, outcome_label, elapsed)
        log.info("action", extra={"match_id": match_id, "player_id": principal.player_id, "action": action,
                                  "outcome": outcome_label, "ms": round(elapsed * 1000, 2)})
    body = CommandOut(match_id=match_id, version=outcome.version, events=flows.show(state, outcome.events, seat))
    headers = {"Idempotent-Replayed": "true"} if outcome.replayed else {}
    return Response(body, status_code=200, headers=headers)


@get("/v1/matches/{match_id:str}/events", guards=PLAYER, tags=TAGS, security=BEARER,
     summary="Events after a version, as my seat sees them",
     description="Every version after `after`, without gaps: an event hidden from my seat is `{version, event: "
                 "null}`. A reconnecting client asks from the version it holds.",
     responses=responses(200, EventsOut, [ex("from the start", EVENTS_EXAMPLE)], "The events", 400, 401, 403, 404, 429))
async def events(match_id: PathStr, principal: Caller, runtime: Runtime,
                 after: After = 0) -> EventsOut:
    state = await runtime.matches.load(match_id)
    await ensure_readable(runtime, principal, state, "view", route="events")
    recorded = await runtime.matches.events(match_id, after)
    seat = tables.seat_of(state, principal.player_id)
    shown = flows.show(state, [(v, e) for v, e, _ in recorded], seat)
    return EventsOut(match_id=match_id, version=max([state.version, *(e.version for e in shown)]), events=shown)


RECORD_EXAMPLE = {"match_id": MATCH_ID, "game": "belote", "options": {"variant": "classic", "deals": 1},
                  "deals": [{"dealer": "N", "deck": ["7S", "8S", "…32 codes…"],
                             "actions": [{"seat": "W", "action": "take"}, {"seat": "W", "action": "play", "card": "AS"}],
                             "fair": {"seed": "4be1…", "commitment": "9f2c…", "context": "atout/1 match …",
                                      "entropy": {"N": "…"}}}],
                  "signature": {"alg": "ed25519", "key_id": "56475aa75463474c0285df5dbf2bcab7",
                                "value": "…64 bytes in base64…"}}


@get("/v1/matches/{match_id:str}/record", guards=PLAYER, tags=TAGS, security=BEARER,
     summary="The match record of the finished deals",
     description="Each finished deal's dealer, deck, actions and verifiable-shuffle inputs with the revealed seed: "
                 "public once the deal is over; a sealed tournament board's only once the match is over and its "
                 "round has closed at every table (403 `board_sealed`, its own seats included). `POST "
                 "/v1/records/play` replays it. Signed by the server (`signature`; `GET /v1/records/key`, "
                 "docs/fair-deal.md \"Signed records\"). Who may read what: docs/api.md.",
     responses=responses(200, RecordOut, [ex("one finished deal", RECORD_EXAMPLE)], "The record", 401, 403, 404, 429))
async def record(match_id: PathStr, principal: Caller, runtime: Runtime) -> dict[str, Any]:
    state = await runtime.matches.load(match_id)
    await ensure_readable(runtime, principal, state, "record", route="record")
    deals = []
    for _, event, _ in await runtime.matches.events(match_id):
        if isinstance(event, rules.DealFinished):
            deal = {"dealer": str(event.dealer), "deck": list(event.deck), "actions": list(event.actions)}
            if event.fair is not None:
                deal["fair"] = msgspec.to_builtins(event.fair)
            deals.append(deal)
    return await records.sign(runtime, {"match_id": match_id, "game": state.game_name,
                                        "options": state.raw_options, "deals": deals, **as_record(state.chains)})


async def ensure_readable(runtime: Runtime, principal: Any, state: Any, read: Read = "view",
                          deal: int | None = None, route: str = "") -> None:
    """Raise the 403 the runtime's visibility policy answers for this read (`board_sealed`,
    `forbidden`, `privileged_while_playing`), writing a privileged refusal to the audit first.
    Every route that can show a deck, a seed, a hand or a table's play calls it (the one check)."""
    refused = await runtime.visibility.check(principal, state, read, deal)
    if refused is None:
        return
    if refused.hidden:   # a private table he has no part in: answered as no match at all
        raise UnknownMatch(state.match_id)
    details: dict[str, Any] = {"match_id": state.match_id}
    if deal is not None:
        details["deal"] = deal
    if refused.code == PRIVILEGED_WHILE_PLAYING:
        await append_audit(runtime.store, principal, "refused", match_id=state.match_id, deal=deal,
                           detail={"code": refused.code, "read": read, "route": route})
    raise ApiError(403, refused.code, refused.message, details)


ROUTES = [act, events, record]
