"""A match view's `table`, typed per game, for the served OpenAPI document.

Each game's view is a msgspec Struct (`GameRules.view`'s return type): its JSON Schema comes
from the Struct itself, so the document cannot drift from the code. What the Struct leaves
as plain values — the legal actions, and the parts a game builds as dicts — is typed by the
game's own wire shapes (`domain/<game>/schema.py`). Components are named after their game
(`BeloteView`, `FiveHundredContract`), so two games' `Contract`s never collide.
"""

from __future__ import annotations

from typing import Any, get_type_hints

import msgspec

from domain.game_schemas import SCHEMAS
from domain.games import GAMES
from domain.wire import SEAT, concrete

REF = "#/components/schemas/{name}"
SHARED = {"Seat", "Trick"}            # domain.cards / domain.tricks: the same in every game


def _camel(game: str) -> str:
    return "".join(part.capitalize() for part in game.split("_"))


def _rename(node: Any, names: dict[str, str]) -> Any:
    if isinstance(node, dict):
        out = {k: _rename(v, names) for k, v in node.items()}
        if isinstance(out.get("$ref"), str):
            name = out["$ref"].rsplit("/", 1)[-1]
            out["$ref"] = REF.format(name=names.get(name, name))
        return out
    if isinstance(node, list):
        return [_rename(v, names) for v in node]
    return node


def tables() -> tuple[dict[str, Any], dict[str, Any]]:
    """(the `table` schema: one branch per game, discriminated by `game`; the components it uses)."""
    components: dict[str, Any] = {}
    branches = []
    for game, rules in GAMES.items():
        view_type = get_type_hints(rules.view)["return"]
        (ref,), found = msgspec.json.schema_components([view_type], ref_template=REF)
        prefix = _camel(game)
        names = {name: name if name in SHARED else f"{prefix}{name.rsplit('.', 1)[-1]}" for name in found}
        view_name = names[ref["$ref"].rsplit("/", 1)[-1]]
        names[ref["$ref"].rsplit("/", 1)[-1]] = view_name = f"{prefix}View"
        for name, schema in found.items():
            schema = _rename(schema, names)
            schema["title"] = names[name]
            components[names[name]] = schema
        view = components[view_name]
        shapes = SCHEMAS[game]
        view["properties"]["game"] = {"const": game}
        view["properties"]["legal"] = {"type": "array", "items": {"oneOf": shapes.LEGAL},
                                       "description": "the seat's legal actions now, in the action vocabulary "
                                                      "(a `choose`/`from` value: send `choose` cards of `from`)"}
        view["properties"].update(shapes.VIEW_FIELDS)
        branches.append({"$ref": REF.format(name=view_name)})
    return {"oneOf": branches, "discriminator": {"propertyName": "game"}}, components


def actions() -> dict[str, Any]:
    """Any game's action as a seat sends it (`anyOf`: `pass` is every game's)."""
    shapes: list[dict[str, Any]] = []
    for game in GAMES:
        for shape in SCHEMAS[game].LEGAL:
            shape = concrete(shape)
            if shape not in shapes:
                shapes.append(shape)
    return {"anyOf": shapes}


def _match_view(schema: dict[str, Any], components: dict[str, Any]) -> None:
    table, found = tables()
    components.update(found)
    schema["properties"]["table"] = {**table, "description": "the game's own view for this seat (by `game`)"}


def _hint(schema: dict[str, Any], components: dict[str, Any]) -> None:
    schema["properties"]["action"] = {"anyOf": [actions(), {"type": "null"}],
                                      "description": "ready to send (with `expected_version`); null: nothing to do"}


def _deal_record(schema: dict[str, Any], components: dict[str, Any]) -> None:
    schema["properties"]["actions"] = {"type": "array", "items": {"allOf": [
        {"type": "object", "required": ["seat"], "properties": {"seat": SEAT}}, actions()]}}


# Response schemas a game types: the component's name -> its rule.
RESPONSE_RULES = {"MatchViewOut": _match_view, "HintOut": _hint, "DealRecordOut": _deal_record}
