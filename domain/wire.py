"""JSON Schema for what every game sends alike — a card, a suit, a seat, a side, a
"choose N of these cards" — so the API's documents type a game's view and actions down to
its cards. Each game's own shapes (`domain/<game>/schema.py`) are built from these."""

from __future__ import annotations

from typing import Any

import msgspec

CARD: dict[str, Any] = {"type": "string", "pattern": "^([2-9TJQKA][SHDC]|JK)$",
                        "description": "a card: rank (2-9, T, J, Q, K, A) then suit (S, H, D, C), or JK, the Joker"}
SUIT: dict[str, Any] = {"type": "string", "enum": ["S", "H", "D", "C"]}
SEAT: dict[str, Any] = {"type": "string", "enum": ["N", "E", "S", "W"]}
SIDE: dict[str, Any] = {"type": "string", "enum": ["NS", "EW", "N", "E", "S", "W"],
                        "description": "a team (NS, EW), or a seat in a game played without partners"}
CARDS: dict[str, Any] = {"type": "array", "items": CARD}
BY_SIDE: dict[str, Any] = {"type": "object", "additionalProperties": {"type": "integer"},
                           "description": "by side (NS, EW, or the seats without partners)"}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def action(name: str, **fields: dict[str, Any]) -> dict[str, Any]:
    """One legal action's shape: `{"action": name, **fields}`, every field required."""
    return {"type": "object", "title": name, "required": ["action", *fields],
            "properties": {"action": {"type": "string", "const": name}, **fields}}


def choose(description: str) -> dict[str, Any]:
    """A compact choice among cards: pick `choose` of `from` (the client sends the cards)."""
    return {"type": "object", "description": description, "required": ["choose", "from"],
            "properties": {"choose": {"type": "integer", "minimum": 0}, "from": CARDS}}


def concrete(shape: dict[str, Any]) -> dict[str, Any]:
    """An action as a seat sends it: a legal action's `choose`/`from` becomes the cards chosen."""
    props = {name: CARDS if isinstance(field, dict) and set(field.get("required", ())) == {"choose", "from"} else field
             for name, field in shape.get("properties", {}).items()}
    return {**shape, "properties": props}


def shown_events(module: Any, hidden: frozenset[str] = frozenset()) -> tuple[type, ...]:
    """The event Structs of a game's `events` module that a seat may be sent: every tagged one
    but those its redaction always replaces (`hidden`, by tag: the raw deal)."""
    return tuple(kind for kind in vars(module).values()
                 if isinstance(kind, type) and issubclass(kind, msgspec.Struct) and kind.__module__ == module.__name__
                 and isinstance(kind.__struct_config__.tag, str) and kind.__struct_config__.tag not in hidden)


TRICK_SUMMARY: dict[str, Any] = {"type": "object", "required": ["leader", "cards", "winner"], "properties": {
    "leader": SEAT, "cards": CARDS, "winner": nullable(SEAT)}}
GAME_CONTRACT: dict[str, Any] = {
    "type": "object", "required": ["seat", "trump"], "description": "the game's contract: always the contractor's "
    "`seat` and `trump` (null: no trump), with the game's own fields (team, value, tricks, contract, coinche...)",
    "properties": {"seat": SEAT, "trump": nullable({"type": "string", "enum": [*SUIT["enum"], "TA"],
                                                    "description": "a suit, or TA: every suit trumps (Coinche's tout atout)"}),
                   "team": {"type": "string"}}}
DEAL_SUMMARY: dict[str, Any] = {
    "type": "object", "required": ["contract", "result", "tricks", "points", "score"],
    "description": "a deal as the match record's result object sums it up (the rules' README)",
    "properties": {"contract": nullable(GAME_CONTRACT), "result": {"type": "string"},
                   "tricks": {"type": "array", "items": TRICK_SUMMARY}, "points": BY_SIDE, "score": BY_SIDE}}
FAIR: dict[str, Any] = {
    "type": "object", "description": "a deal's verifiable-shuffle inputs (docs/fair-deal.md); the seed once revealed",
    "properties": {"commitment": {"type": "string"}, "context": {"type": "string"},
                   "entropy": nullable({"type": "object", "additionalProperties": {"type": "string"}}),
                   "seed": {"type": "string"}}}
OPTIONS: dict[str, Any] = {"type": "object", "description": "the game's options (docs/rules-*.md)",
                           "additionalProperties": {"anyOf": [{"type": "string"}, {"type": "integer"},
                                                              {"type": "boolean"}, {"type": "null"}]}}
BOARD: dict[str, Any] = {"type": "object", "required": ["dealer", "deck"], "properties": {
    "dealer": SEAT, "deck": CARDS, "fair": nullable(FAIR)}}
