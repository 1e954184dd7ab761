"""The request schemas' rules that the validation checks but msgspec cannot say, added to the
served OpenAPI document by `services.http.contract.finish`: a game's options and their
bounds, the seats (`me` once), a match record's deals, the names (printable, not blank), a
tournament's boards. Each rule edits one component schema in place (`REQUEST_RULES`: the
schema's title -> the rule), so a generated client and schemathesis refuse what the server
refuses.
"""

from __future__ import annotations

from typing import Any

from domain.bots import LEVELS
from domain.games import GAME_NAMES, load
from domain.match import MAX_DEALS, MAX_TARGET
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


def _options_by_game(record: str | None = None, most: int | None = None) -> list[dict[str, Any]]:
    """One branch per game: its name, only its options with their values (and its record)."""
    branches = []
    for game in GAME_NAMES:
        if game not in OPTIONS:
            continue
        props: dict[str, Any] = {"game": {"const": game}, "options": {
            "type": "object", "additionalProperties": False, "properties": OPTIONS[game]}}
        if record is not None:
            props[record] = {"anyOf": [{"type": "null"}, _record(game, most)]}
        branches.append({"properties": props})
    return branches


def _me_once() -> dict[str, Any]:
    pairs = [(a, b) for i, a in enumerate(SEATS) for b in SEATS[i + 1:]]
    return {"not": {"anyOf": [{"required": [a, b], "properties": {a: {"const": "me"}, b: {"const": "me"}}}
                              for a, b in pairs]}}


def _create_match(schema: dict[str, Any]) -> None:
    props = schema["properties"]
    props["game"] = {"type": "string", "enum": list(GAME_NAMES)}
    props["seats"] = {"type": "object", "required": list(SEATS), "additionalProperties": False,
                      "properties": {seat: SEAT_SPEC for seat in SEATS}, **_me_once()}
    props["clock"] = {"oneOf": [{"type": "null"}, {
        "type": "object", "additionalProperties": False, "minProperties": 1,
        "properties": {k: {"type": "number", "exclusiveMinimum": 0, "maximum": 86400} for k in ("bid", "play")}}]}
    schema["allOf"] = [{"oneOf": _options_by_game("record")}]
    schema["description"] = ("`me` may stand in at most one seat. A `record`'s dealers follow the game's rotation "
                             "from deal to deal (else 400 `wrong_dealer`).")


def _register(schema: dict[str, Any]) -> None:
    schema["properties"]["name"]["pattern"] = NAME_PATTERN


MAX_BOARDS = 2000


def _create_tournament(schema: dict[str, Any]) -> None:
    props = schema["properties"]
    props["game"] = {"type": "string", "enum": list(GAME_NAMES)}
    props["format"] = {"type": "string", "enum": list(FORMATS)}
    props["schedule"] = {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]}
    props["closes_at"] = {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]}
    schema["allOf"] = [{"oneOf": _options_by_game("boards", MAX_BOARDS)}]
    schema["description"] = ("`boards`: a match record whose decks are the boards, enough of them for the "
                             "tournament's rounds (else 400 `not_enough_boards`).")


def _chat(schema: dict[str, Any]) -> None:
    schema["oneOf"] = [{"required": ["preset"]}, {"required": ["text"]}]


def _report(schema: dict[str, Any]) -> None:
    schema["anyOf"] = [{"required": ["player_id"]}, {"required": ["match_id", "message_id"]}]
    schema["dependentRequired"] = {"message_id": ["match_id"], "match_id": ["message_id"]}


REQUEST_RULES = {"CreateMatch": _create_match, "Register": _register, "CreateIn": _create_tournament,
                 "ChatIn": _chat, "ReportIn": _report}
