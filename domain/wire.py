"""JSON Schema for what every game sends alike — a card, a suit, a seat, a side, a
"choose N of these cards" — so the API's documents type a game's view and actions down to
its cards. Each game's own shapes (`domain/<game>/schema.py`) are built from these."""

from __future__ import annotations

from typing import Any

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
            "properties": {"action": {"const": name}, **fields}}


def choose(description: str) -> dict[str, Any]:
    """A compact choice among cards: pick `choose` of `from` (the client sends the cards)."""
    return {"type": "object", "description": description, "required": ["choose", "from"],
            "properties": {"choose": {"type": "integer", "minimum": 0}, "from": CARDS}}


def concrete(shape: dict[str, Any]) -> dict[str, Any]:
    """An action as a seat sends it: a legal action's `choose`/`from` becomes the cards chosen."""
    props = {name: CARDS if isinstance(field, dict) and set(field.get("required", ())) == {"choose", "from"} else field
             for name, field in shape.get("properties", {}).items()}
    return {**shape, "properties": props}
