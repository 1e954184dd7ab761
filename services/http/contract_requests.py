"""The request schemas' rules that the validation checks but msgspec cannot say, added to the
served OpenAPI document by `services.http.contract.finish`: a game's options and their
bounds, the seats (`me` once), a match record's deals, the names (printable, not blank), a
tournament's boards. Each rule edits one component schema in place (`REQUEST_RULES`: the
schema's title -> the rule), so a generated client and schemathesis refuse what the server
refuses. A game's options and records are components of their own (`COMPONENTS`:
`CinchOptionsIn`, `BeloteRecordIn`, ...), named in both the field and the per-game branch, so
a generator gives each a class rather than an object it cannot type.
"""

from __future__ import annotations

from typing import Any

from domain.bots import LEVELS
from domain.games import GAME_NAMES, load
from domain.match import MAX_DEALS, MAX_TARGET
from domain.quickplay import BOTS_AFTER_BOUNDS
from domain.tournaments import FORMATS
from services.http.schemas import BLANK

SEATS = ("N", "E", "S", "W")


def _positive(most: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": 1, "maximum": most}


def _game_options(game: str) -> dict[str, Any]:
    """A game's options at creation (its `options_schema`), with the bounds a new match takes
    (domain/match.py)."""
    bounds = {"target": MAX_TARGET[game], "deals": MAX_DEALS}
    return {name: {**schema, "maximum": bounds[name]} if name in bounds else dict(schema)
            for name, schema in load(game).options_schema.items()}


OPTIONS = {game: _game_options(game) for game in GAME_NAMES}
SEAT_SPEC = {"type": "string", "pattern": "^(open|me|bot:(" + "|".join(LEVELS) + "))$"}
NAME_PATTERN = f"^[^\\x00-\\x1f]*[^\\x00-\\x1f{BLANK}][^\\x00-\\x1f]*$"   # printable, not blank


def _record(game: str, most: int | None = None) -> dict[str, Any]:
    """A match record's deals as creation reads them: each a dealer and a permutation of the
    game's deck (the dealers' rotation from deal to deal is the rules' check: `wrong_dealer`)."""
    deck = list(load(game).deck)
    return {"type": "object", "required": ["deals"], "properties": {
        "game": {"const": game},
        "deals": {"type": "array", "minItems": 1, **({"maxItems": most} if most else {}), "items": {
            "type": "object", "required": ["dealer", "deck"], "properties": {
                "dealer": {"enum": list(SEATS)},
                "deck": {"type": "array", "items": {"enum": deck}, "uniqueItems": True,
                         "minItems": len(deck), "maxItems": len(deck)}}}}}}


def _camel(game: str) -> str:
    return "".join(part.capitalize() for part in game.split("_"))


MAX_BOARDS = 2000


def _components() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for game in GAME_NAMES:
        name = _camel(game)
        out[f"{name}OptionsIn"] = {"type": "object", "title": f"{name}OptionsIn", "additionalProperties": False,
                                   "description": f"{game}'s options at creation", "properties": OPTIONS[game]}
        out[f"{name}RecordIn"] = {"title": f"{name}RecordIn", **_record(game)}
        out[f"{name}BoardsIn"] = {"title": f"{name}BoardsIn", **_record(game, MAX_BOARDS)}
    return out


COMPONENTS = _components()


def _ref(game: str, kind: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{_camel(game)}{kind}In"}


def _per_game(schema: dict[str, Any], record: str | None, kind: str = "") -> None:
    """The game's options and record (or boards): in the fields, any game's; in one branch per
    game, only that game's, with its name (so the server's pairing of game and options holds)."""
    props = schema["properties"]
    props["options"] = {"anyOf": [_ref(game, "Options") for game in GAME_NAMES],
                        "description": "left out: the game's defaults"}    # a `default` here stops generators
    if record is not None:
        props[record] = {"anyOf": [*(_ref(game, kind) for game in GAME_NAMES), {"type": "null"}], "default": None}
    schema["allOf"] = [{"oneOf": [{"properties": {
        "game": {"const": game}, "options": _ref(game, "Options"),
        **({record: {"anyOf": [{"type": "null"}, _ref(game, kind)]}} if record is not None else {})}}
        for game in GAME_NAMES]}]


def _me_once() -> dict[str, Any]:
    pairs = [(a, b) for i, a in enumerate(SEATS) for b in SEATS[i + 1:]]
    return {"not": {"anyOf": [{"required": [a, b], "properties": {a: {"const": "me"}, b: {"const": "me"}}}
                              for a, b in pairs]}}


CLOCK = {"oneOf": [{"type": "null"}, {
    "type": "object", "additionalProperties": False, "minProperties": 1,
    "properties": {k: {"type": "number", "exclusiveMinimum": 0, "maximum": 86400} for k in ("bid", "play")}}]}


def _create_match(schema: dict[str, Any]) -> None:
    props = schema["properties"]
    props["game"] = {"type": "string", "enum": list(GAME_NAMES)}
    props["seats"] = {"type": "object", "required": list(SEATS), "additionalProperties": False,
                      "properties": {seat: SEAT_SPEC for seat in SEATS}, **_me_once()}
    props["clock"] = CLOCK
    _per_game(schema, "record", "Record")
    schema["description"] = ("`me` may stand in at most one seat. A `record`'s dealers follow the game's rotation "
                             "from deal to deal (else 400 `wrong_dealer`).")


def _register(schema: dict[str, Any]) -> None:
    schema["properties"]["name"]["pattern"] = NAME_PATTERN


def _create_tournament(schema: dict[str, Any]) -> None:
    props = schema["properties"]
    props["game"] = {"type": "string", "enum": list(GAME_NAMES)}
    props["format"] = {"type": "string", "enum": list(FORMATS)}
    props["schedule"] = {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]}
    props["closes_at"] = {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]}
    _per_game(schema, "boards", "Boards")
    schema["description"] = ("`boards`: a match record whose decks are the boards, enough of them for the "
                             "tournament's rounds (else 400 `not_enough_boards`).")


def _chat(schema: dict[str, Any]) -> None:
    schema["oneOf"] = [{"required": ["preset"]}, {"required": ["text"]}]


def _report(schema: dict[str, Any]) -> None:
    schema["anyOf"] = [{"required": ["player_id"]}, {"required": ["match_id", "message_id"]}]
    schema["dependentRequired"] = {"message_id": ["match_id"], "match_id": ["message_id"]}


def optional_body(operation: dict[str, Any]) -> None:
    """A body the route may go without (Litestar's `oneOf: [T, null]`) as `T`, not required:
    generators read a union with null as a body that must be sent (openapi-python-client's
    method then fails on a call without one), and the server takes no body, not a JSON null."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    branches = content.get("schema", {}).get("oneOf", [])
    if any(branch.get("type") == "null" for branch in branches):
        [body] = [branch for branch in branches if branch.get("type") != "null"]
        content["schema"] = {**{k: v for k, v in content["schema"].items() if k != "oneOf"}, "allOf": [body]}
        operation["requestBody"]["required"] = False


def _join_quickplay(schema: dict[str, Any]) -> None:
    props = schema["properties"]
    props["game"] = {"type": "string", "enum": list(GAME_NAMES)}
    props["clock"] = CLOCK
    low, high = BOTS_AFTER_BOUNDS
    props["bots_after"] = {"anyOf": [{"type": "number", "minimum": low, "maximum": high}, {"type": "null"}],
                           "default": None}
    props["bot_level"] = {"type": "string", "enum": list(LEVELS), "default": "basic"}
    _per_game(schema, None)
    schema["description"] = ("`bots_after` is for casual queues only (with `rated` true: 400 `bots_not_rated`); a "
                             "rated queue's clock is 5 to 300 s a decision (else 400 `bad_clock`).")


REQUEST_RULES = {"CreateMatch": _create_match, "JoinIn": _join_quickplay, "Register": _register, "CreateIn": _create_tournament,
                 "ChatIn": _chat, "ReportIn": _report}
