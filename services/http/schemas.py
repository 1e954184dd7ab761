"""Request and response bodies of the public API, with the examples the OpenAPI shows.

Bodies are msgspec Structs, decoded by Litestar before a handler runs (after the guards,
so an unauthenticated request never reaches the decoder). The examples are real: they
are the shapes the tests exchange, so the document at `/schema` can be trusted.
"""

from __future__ import annotations

import re
import uuid
from typing import Annotated, Any, Literal

import msgspec
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.params import Body, FromQuery, PathParameter, QueryParameter

from domain.envelope import ENVELOPE_FIELDS
from domain.games import GAMES
from services.http.examples import ex  # noqa: F401  (the routes' examples, nulls kept)
from infra.players import Principal
from services.http.query_once import MAX_VERSION
from services.runtime import Runtime as OpenRuntime

MATCH_ID = "5b0c1f9e-3a0d-5d8a-9b1e-2f4c6a8e0d12"
PLAYER_ID = "0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"
COMMAND_ID = "7d444840-9dc0-11d1-b245-5ffdce74fad2"
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
# The characters `str.strip()` takes away, named one by one: `\s` differs between the document's
# regular expressions (ECMAScript: U+FEFF is white space, U+001C-U+001F and U+0085 are not) and
# Python's, so a pattern saying "not blank" with `\s` would let through what the handler refuses.
BLANK = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
SAYS_SOMETHING = f"[^{BLANK}]"          # a text with something left after strip()
Said = Annotated[str, msgspec.Meta(min_length=1, pattern=SAYS_SOMETHING)]

# Handler parameter kinds, spelled out as Litestar 3 will require.
Runtime = NamedDependency[OpenRuntime]  # the process's runtime, from app.state
Caller = NamedDependency[Principal]     # the authenticated caller (services.http.auth)
# An id in a path is what the server mints (UUIDs and the like): printable ASCII but `%` (so
# that an id is the same escaped or not), so a NUL byte or a megabyte of text is a 400 naming
# the parameter, never a query Postgres refuses.
ID_PATTERN = r"^[!-$&-~]+$"
MAX_ID = 128
PathStr = Annotated[str, PathParameter(min_length=1, max_length=MAX_ID, pattern=ID_PATTERN)]
Limit = Annotated[int, QueryParameter(ge=1, le=200)]
# A version: one rule for `after` on every route that takes it (events, streams, WebSockets),
# read by services.http.query_once.version before Litestar's own (laxer) integer parsing.
After = Annotated[int, QueryParameter(ge=0, le=MAX_VERSION)]
AfterOrNone = Annotated[int | None, QueryParameter(ge=0, le=MAX_VERSION)]
__all__ = ["FromQuery", "Runtime", "Caller", "PathStr", "Limit", "After", "AfterOrNone", "live_params"]
_ID = re.compile(ID_PATTERN)


def live_params(name: str, ident: str, after: str | None, query: bytes = b"") -> int | None:
    """A WebSocket's id and `after`, by the HTTP routes' rules (the handshake cannot answer a
    400, so the socket checks them itself): `after` as an int, or ApiError 400 naming the field
    (a parameter of the `query` string given twice included, as `services.http.query_once` says)."""
    from services.http.errors import malformed
    from services.http.query_once import refusal, repeated, version

    if (twice := repeated(query)) is not None:
        raise malformed(twice, refusal(twice)[1], source="query")
    if not (0 < len(ident) <= MAX_ID and _ID.match(ident)):
        raise malformed(name, f"{name}: expected printable ASCII but %, 1 to {MAX_ID} characters", source="path")
    return None if after is None else version(after)


# --- requests -------------------------------------------------------------------------------

class Register(msgspec.Struct, forbid_unknown_fields=True):
    name: Name


class SetRole(msgspec.Struct, forbid_unknown_fields=True):
    role: Literal["player", "organiser", "admin"]


Locale = Literal["en", "fr", "ru", "pl"]


class SetMe(msgspec.Struct, forbid_unknown_fields=True):
    """What a player changes of himself: the language the web client shows him (null: the
    browser's again). Another code: 400 `invalid_field` naming `$.locale`."""

    locale: Locale | None


Entropy = Annotated[str, msgspec.Meta(
    description="A seat's entropy: any string of at most 1024 bytes in UTF-8, without U+0000; the empty string is "
                "a value, different from none (docs/fair-deal.md). Longer: 400 bad_entropy naming the field.")]


class CreateMatch(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    seats: dict[str, str]
    options: dict[str, Any] = {}
    record: dict[str, Any] | None = None        # a match record: its deals' dealer+deck are played in order
    entropy: Entropy | None = None              # for the seat "me" (400 without one), mixed into every shuffled deal
    command_id: uuid.UUID | None = None         # makes a retried creation return the same match
    clock: dict[str, Any] | None = None         # {"bid": seconds, "play": seconds} per decision; none: untimed
    rated: bool = False                         # ranked play (docs/ratings.md): 400 not_rateable where it cannot be
    visibility: Literal["public", "private"] = "public"   # private: out of every public list (docs/social.md)


InvitationCode = Annotated[str, msgspec.Meta(min_length=1, max_length=64, description=(
    "A private table's invitation code (given to its creator at creation): a seat for whoever brings it"))]


class TakeSeat(msgspec.Struct, forbid_unknown_fields=True):
    entropy: Entropy | None = None
    command_id: uuid.UUID | None = None
    code: InvitationCode | None = None


class GiveEntropy(msgspec.Struct, forbid_unknown_fields=True):
    entropy: Entropy


class Rematch(msgspec.Struct, forbid_unknown_fields=True):
    entropy: Entropy | None = None              # for the caller's seat in the new match


class Envelope(msgspec.Struct):
    """What every action carries besides the action itself (unknown fields are the action's)."""

    command_id: uuid.UUID
    expected_version: Annotated[int, msgspec.Meta(ge=0)]
    action: str


# --- responses ------------------------------------------------------------------------------

class Registered(msgspec.Struct):
    player_id: str
    token: str


class PlayerOut(msgspec.Struct):
    player_id: str
    name: str | None
    role: str


class MeOut(msgspec.Struct):
    """The caller, with what only he sees of himself: the language he chose (null: none)."""

    player_id: str
    name: str | None
    role: str
    locale: Locale | None


class EventOut(msgspec.Struct):
    """One event as a seat may see it; `event` is null when it is hidden from that seat."""

    version: int
    event: dict[str, Any] | None


class CommandOut(msgspec.Struct):
    match_id: str
    version: int
    events: list[EventOut]


class EventsOut(msgspec.Struct):
    match_id: str
    version: int
    events: list[EventOut]


class ErrorOut(msgspec.Struct):
    code: str
    message: str
    details: dict[str, Any]


# --- examples -------------------------------------------------------------------------------

ACTION_BODY = Body(
    title="Action",
    description="`command_id` (a client-made UUID, unique per match), `expected_version` (the version of the "
                "view the decision was made from), `action` and its fields in the shared vocabulary. The seat "
                "is the caller's own.",
    examples=[ex("play a card", {"command_id": COMMAND_ID, "expected_version": 12, "action": "play", "card": "JH"}),
              ex("coinche bid", {"command_id": COMMAND_ID, "expected_version": 9, "action": "bid", "value": 90,
                                 "suit": "H"}),
              ex("pass", {"command_id": COMMAND_ID, "expected_version": 8, "action": "pass"})],
    schema_extra={"required": ["command_id", "expected_version", "action"],
                  "properties": {"command_id": {"type": "string", "format": "uuid"},
                                 "expected_version": {"type": "integer", "minimum": 0},
                                 "action": {"type": "string", "examples": ["pass", "play", "bid"]}}},
)

COMMAND_EXAMPLE = {"match_id": MATCH_ID, "version": 14, "events": [
    {"version": 13, "event": {"type": "action_taken", "seat": "S", "action": {"seat": "S", "action": "play",
                                                                               "card": "JH"}, "by": "player"}},
    {"version": 14, "event": {"type": "card_played", "seat": "S", "card": "JH"}}]}

EVENTS_EXAMPLE = {"match_id": MATCH_ID, "version": 3, "events": [
    {"version": 1, "event": {"type": "match_created", "match_id": MATCH_ID, "game": "belote",
                             "options": {"variant": "coinche"}, "seats": {"N": None, "E": None, "S": None,
                                                                          "W": None},
                             "commitment": "9f2c…", "chain_length": 1000, "predefined_deals": 0,
                             "created_by": PLAYER_ID}},
    {"version": 2, "event": None},
    {"version": 3, "event": {"type": "seat_taken", "seat": "E", "holder": {"kind": "player",
                                                                             "player_id": PLAYER_ID,
                                                                             "level": None}}}]}

VIEW_EXAMPLE = {"match_id": MATCH_ID, "game": "belote", "options": {"variant": "classic", "deals": 1},
                "seats": {"N": {"kind": "player", "player_id": PLAYER_ID, "level": None}, "E": None, "S": None,
                          "W": None},
                "status": "playing", "version": 9, "commitment": "9f2c…", "seat": "N", "details": None,
                "table": {"game": "belote", "seat": "N", "phase": "auction", "match_score": {"NS": 0, "EW": 0},
                          "deal_index": 0, "dealer": "W", "turn": "N", "contract": None, "trick": None, "tricks": [],
                          "hand": ["7S", "JH", "AD", "KC", "9H"], "legal": [{"action": "take"}, {"action": "pass"}],
                          "deal_points": {"NS": 0, "EW": 0}, "winner": None,
                          "options": {"variant": "classic", "rules": "house", "combinations": True, "target": 1000,
                                      "deals": 1},
                          "history": [], "pool": 0, "deal": 1, "points": {"NS": 0, "EW": 0},
                          "hand_sizes": {"N": 5, "E": 5, "S": 5, "W": 5}, "turn_up": "TS", "calls": [],
                          "announces": [], "declared": {}, "combinations_team": None, "combinations_shown": [],
                          "result": None, "deal_score": {"NS": 0, "EW": 0}},
                "to_act": ["N"], "clock": None, "deadline": None, "visibility": "public", "hints_used": {"N": 1, "E": 0, "S": 0, "W": 0},
                "hints_limit": 10}

TABLE_ENVELOPE = (
    "`table` is the game's view for the seat. In every game it carries the same fields with the same meaning "
    f"(docs/api.md, \"The view envelope\"): {', '.join(f'`{f}`' for f in ENVELOPE_FIELDS)}; `deal_index` counts "
    "deals from 0, as the events, records, replays and exports do. The game's own fields sit beside them. "
    "Deprecated aliases, kept with the same value: "
    + "; ".join(f"{game}: " + ", ".join(f"`{old}` (= `{new}`)" for old, new in names.items())
                for game, names in ((game.name, game.view_aliases) for game in GAMES.values()))
    + "; and `deal` in Belote and Five Hundred, the deals started (= `deal_index` + 1).")

ERRORS: dict[int, tuple[str, list[Example]]] = {
    400: ("Malformed request: bad JSON, a wrong type, an unknown game or option", [
        ex("wrong type", {"code": "invalid_field", "message": "$.expected_version: Expected `int`, got `str`",
                          "details": {"field": "$.expected_version"}}),
        ex("bad option", {"code": "bad_option", "message": "option 'variant': expected one of classic, sans_atout, "
                          "coinche, got 'rubber'", "details": {"field": "$.options.variant", "option": "variant"}})]),
    401: ("No token, or an unknown or revoked one", [
        ex("missing token", {"code": "unauthorized", "message": "send 'Authorization: Bearer <token>'",
                             "details": {}})]),
    403: ("The caller's role does not allow this (`forbidden`); a tournament board not yet public "
          "(`board_sealed`); a role read beyond the seat by someone who plays in the match or its tournament "
          "(`privileged_while_playing`, written to the audit). See docs/api.md, \"Who may read what\".", [
        ex("not an admin", {"code": "forbidden", "message": "this needs the admin role",
                            "details": {"required_role": "admin", "role": "player"}}),
        ex("a sealed board", {"code": "board_sealed", "message": "a tournament board is shown only to its seats, "
                              "and its hand records to no one, until its round has closed at every table",
                              "details": {"match_id": MATCH_ID}}),
        ex("a role that plays", {"code": "privileged_while_playing", "message": "you hold a seat in this match or an "
                                 "entry in its tournament: you read only what your seat may see, whatever your "
                                 "role, until it is public", "details": {"match_id": MATCH_ID, "deal": 0}})]),
    404: ("No such match (or player)", [
        ex("unknown match", {"code": "unknown_match", "message": f"no match '{MATCH_ID}'",
                             "details": {"match_id": MATCH_ID}})]),
    409: ("A stale expected_version, or a command_id reused with another body", [
        ex("stale version", {"code": "stale_version", "message": "the match is at version 14, not 12",
                             "details": {"current_version": 14, "expected_version": 12}}),
        ex("command conflict", {"code": "command_conflict",
                                "message": "this command_id was already used with another body",
                                "details": {"command_id": COMMAND_ID}})]),
    422: ("The rules refuse it; `code` is the rule's", [
        ex("not your turn", {"code": "not_your_turn", "message": "it is W's turn", "details": {}}),
        ex("illegal card", {"code": "illegal_card", "message": "you must follow suit", "details": {}})]),
    429: ("Too many requests from this token; see Retry-After", [
        ex("rate limited", {"code": "rate_limited", "message": "too many requests; retry in 12s",
                            "details": {"retry_after": 12}})]),
}


def responses(status: int, container: Any, examples: list[Example], description: str,
              *errors: int) -> dict[int, ResponseSpec]:
    """The success response with its examples, plus the listed error responses with theirs. A
    bare `list` is a list of JSON objects: an array schema without `items` leaves generated
    clients unable to read the answer."""
    container = list[dict[str, Any]] if container is list else container
    out = {status: ResponseSpec(data_container=container, description=description, examples=examples,
                                generate_examples=False)}
    for code in errors:
        text, error_examples = ERRORS[code]
        out[code] = ResponseSpec(data_container=ErrorOut, description=text, examples=error_examples,
                                 generate_examples=False)
    return out


BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
