"""A match view's `table`, typed per game, for the served OpenAPI document.

Each game's view is a msgspec Struct (`GameRules.view`'s return type): its JSON Schema comes
from the Struct itself, so the document cannot drift from the code. What the Struct leaves
as plain values — the legal actions, and the parts a game builds as dicts — is typed by the
game's own wire shapes (`domain/<game>/schema.py`). Components are named after their game
(`BeloteView`, `FiveHundredContract`), so two games' `Contract`s never collide; so are the
legal actions a view lists (`CinchRobLegal`), each one class of a generated client.
"""

from __future__ import annotations

from typing import Any, Union, get_type_hints

import msgspec

from domain.games import GAMES
from domain.wire import BOARD, DEAL_SUMMARY, FAIR, OPTIONS, SEAT, concrete

REF = "#/components/schemas/{name}"
SHARED = {"Seat", "Trick"}            # domain.cards / domain.tricks: the same in every game


def _camel(game: str) -> str:
    return "".join(part.capitalize() for part in game.split("_"))


def _rename(node: Any, names: dict[str, str]) -> Any:
    """`node` with its references renamed, and each tuple (`prefixItems`, `items: false`, which
    client generators cannot read) a fixed-length array of what its places hold."""
    if isinstance(node, dict):
        out = {k: _rename(v, names) for k, v in node.items()}
        if "prefixItems" in out:
            places = out.pop("prefixItems")
            unique = [p for i, p in enumerate(places) if p not in places[:i]]
            out["items"] = unique[0] if len(unique) == 1 else {"anyOf": unique}
        if isinstance(out.get("$ref"), str):
            name = out["$ref"].rsplit("/", 1)[-1]
            out["$ref"] = REF.format(name=names.get(name, name))
        if isinstance(out.get("mapping"), dict):            # a discriminator's: tag -> reference
            out["mapping"] = {tag: REF.format(name=names.get(ref.rsplit("/", 1)[-1], ref.rsplit("/", 1)[-1]))
                              for tag, ref in out["mapping"].items()}
        return out
    if isinstance(node, list):
        return [_rename(v, names) for v in node]
    return node


def tables() -> tuple[dict[str, Any], dict[str, Any]]:
    """(the `table` schema: one branch per game, discriminated by `game`; the components it uses)."""
    components: dict[str, Any] = {}
    mapping: dict[str, str] = {}
    for game, rules in GAMES.items():
        view_type = get_type_hints(rules.view)["return"]
        (ref,), found = msgspec.json.schema_components([view_type], ref_template=REF)
        prefix = _camel(game)
        names = {name: name if name in SHARED else f"{prefix}{name.rsplit('.', 1)[-1]}" for name in found}
        names[ref["$ref"].rsplit("/", 1)[-1]] = view_name = f"{prefix}View"
        for name, schema in found.items():
            schema = _rename(schema, names)
            schema["title"] = names[name]
            components[names[name]] = schema
        view = components[view_name]
        view["properties"]["game"] = {"type": "string", "const": game}
        view["properties"]["legal"] = {"type": "array", "items": {"anyOf": legal_refs(game, components)},
                                       "description": "the seat's legal actions now, in the action vocabulary "
                                                      "(a `choose`/`from` value: send `choose` cards of `from`)"}
        view["properties"].update(rules.view_fields)
        mapping[game] = REF.format(name=view_name)
    return {"oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "game", "mapping": mapping}}, components


def legal(game: str, sent: bool = False) -> list[dict[str, Any]]:
    """A game's action shapes, as its legal actions list them or (`sent`) as a seat sends them
    (a choice of cards as the cards chosen), each titled after its game: generators name a
    class after a title, and three games' `bid`s are three shapes. The shapes that require more
    fields come first: a generated client reads a value as the first branch it fits, and the
    Joker led naming a suit fits the plain `play` too, losing its suit."""
    out, seen = [], {}
    for shape in GAMES[game].action_shapes:
        name = f"{_camel(game)}{_camel(shape['title'])}"
        seen[name] = seen.get(name, 0) + 1
        title = name if seen[name] == 1 else f"{name}{seen[name]}"
        out.append({**(concrete(shape) if sent else shape), "title": f"{title}{'Sent' if sent else 'Legal'}"})
    return sorted(out, key=lambda shape: -len(shape["required"]))


def legal_refs(game: str, components: dict[str, Any]) -> list[dict[str, Any]]:
    """References to a game's legal action shapes, each put in `components` under its title."""
    shapes = legal(game)
    components.update((shape["title"], shape) for shape in shapes)
    return [{"$ref": REF.format(name=shape["title"])} for shape in shapes]


def actions() -> dict[str, Any]:
    """Any game's action as a seat sends it (`anyOf`)."""
    return {"anyOf": [shape for game in GAMES for shape in legal(game, sent=True)]}


def with_seat(action: dict[str, Any]) -> dict[str, Any]:
    return {"allOf": [{"type": "object", "required": ["seat"], "properties": {"seat": SEAT}}, action]}


def _match_view(schema: dict[str, Any], components: dict[str, Any]) -> None:
    table, found = tables()
    components.update(found)
    schema["properties"]["table"] = {**table, "description": "the game's own view for this seat (by `game`)"}


def _hint(schema: dict[str, Any], components: dict[str, Any]) -> None:
    schema["properties"]["action"] = {"anyOf": [*actions()["anyOf"], {"type": "null"}],
                                      "description": "ready to send (with `expected_version`); null: nothing to do"}


def _deal_record(schema: dict[str, Any], components: dict[str, Any]) -> None:
    schema["properties"]["actions"] = {"type": "array", "items": with_seat(actions())}


def _record_play(schema: dict[str, Any], components: dict[str, Any]) -> None:
    schema["properties"]["deals"] = {"type": "array", "items": DEAL_SUMMARY}
    schema["properties"]["legal"] = {"type": "object", "description": "by seat: its legal actions now",
                                     "additionalProperties": {"type": "array", "items": {
                                         "anyOf": [ref for game in GAMES for ref in legal_refs(game, components)]}}}


def _event_out(schema: dict[str, Any], components: dict[str, Any]) -> None:
    event, found = events()
    components.update(found)
    schema["properties"]["event"] = {"anyOf": [event, {"type": "null"}],
                                     "description": "the event as this seat may see it; null: hidden from it"}


# Event fields the Structs keep as plain values, by name, typed alike in every event.
EVENT_FIELDS: dict[str, Any] = {"fair": {"anyOf": [FAIR, {"type": "null"}]}, "options": OPTIONS,
                                "summary": DEAL_SUMMARY, "board": {"anyOf": [BOARD, {"type": "null"}]}}


def _plain_values(schema: dict[str, Any]) -> None:
    props = schema.get("properties", {})
    for name, typed in EVENT_FIELDS.items():
        if name in props:
            props[name] = typed
    if schema.get("title") == "ActionTaken":
        props["action"] = with_seat(actions())
    if schema.get("title") == "DealFinished":
        props["actions"] = {"type": "array", "items": with_seat(actions())}


def _fields(**typed: Any) -> Any:
    """A rule that types the named properties of a component (the game's parts of an answer
    whose Struct holds them as documented maps); a callable builds a schema when it runs."""

    def rule(schema: dict[str, Any], components: dict[str, Any]) -> None:
        for name, value in typed.items():
            if callable(value):
                value = value(components)
            schema["properties"][name] = value

    return rule


def _table_or_null(components: dict[str, Any]) -> dict[str, Any]:
    table, found = tables()
    components.update(found)
    return {"anyOf": [table, {"type": "null"}]}


def _event_or_null(components: dict[str, Any]) -> dict[str, Any]:
    event, found = events()
    components.update(found)
    return {"anyOf": [event, {"type": "null"}]}


def _null(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


# Response schemas a game types: the component's name -> its rule.
RESPONSE_RULES = {
    "MatchViewOut": _match_view, "HintOut": _hint, "RecordDeal": _deal_record, "RecordPlayOut": _record_play,
    "EventOut": _event_out,
    "MatchRecordOut": _fields(options=OPTIONS), "RecordResult": _fields(deal=DEAL_SUMMARY),
    "TournamentOut": _fields(options=OPTIONS), "ReplayRuling": _fields(board=_null(BOARD)),
    "IllegalAction": _fields(action=lambda _: with_seat(actions())),
    "ReplayStep": _fields(seen=_event_or_null, view=_table_or_null),
    "DealReplay": _fields(options=OPTIONS),
}


def events() -> tuple[dict[str, Any], dict[str, Any]]:
    """(an event as a seat is sent it: one tagged union per game — the match layer's events, the
    game's own as redacted, a ruling's — by `type`; the components it uses)."""
    from domain.game import DealVoided, ScoreAdjusted
    from domain.match_events import MATCH_EVENTS, DealDealt

    components: dict[str, Any] = {}
    branches = []
    for game in GAMES:
        kinds = [k for k in MATCH_EVENTS if k is not DealDealt] + list(GAMES[game].shown_events) + [DealVoided,
                                                                                                      ScoreAdjusted]
        (ref,), found = msgspec.json.schema_components([Union[tuple(kinds)]], ref_template=REF)  # type: ignore[misc]
        prefix = _camel(game)
        shared = {k.__name__ for k in (*MATCH_EVENTS, DealVoided, ScoreAdjusted)} | {"Seat", "SeatHolder",
                                                                                      "TournamentRound"}
        # An event's component is named after its tag (its wire name), not its Python class.
        by_tag = {k.__name__: _camel(k.__struct_config__.tag) for k in kinds}
        names = {name: by_tag.get(name, name) if name in shared
                 else f"{prefix}{by_tag.get(name.rsplit('.', 1)[-1], name.rsplit('.', 1)[-1])}" for name in found}
        for name, schema in found.items():
            schema = _rename(schema, names)
            schema["title"] = names[name]
            _plain_values(schema)
            components[names[name]] = schema
        branches.append({**_rename(ref, names), "title": f"{prefix}Event"})
    return {"anyOf": branches}, components


def live_messages(schemas: dict[str, Any]) -> None:
    """The live streams' match messages (the AsyncAPI document's `Snapshot` and `Event`) typed
    from the same schemas as the OpenAPI document's view and events: one source for both. A
    component whose name another stream's message already holds (the account stream's
    `MatchStarted` notice is not the match's event) comes in as `Match…`."""
    from services.matches.routes.answers import MatchViewOut

    _, found = msgspec.json.schema_components([MatchViewOut], ref_template=REF)
    incoming: dict[str, Any] = dict(found)
    _match_view(incoming["MatchViewOut"], incoming)
    event: dict[str, Any] = {"type": "object", "properties": {}}
    _event_out(event, incoming)
    taken = {name for name in incoming if name in schemas and schemas[name] != incoming[name]}
    names = {name: f"Match{name}" if name in taken else name for name in incoming}
    for name, schema in incoming.items():
        schemas[names[name]] = {**_rename(schema, names), **({"title": names[name]} if name in taken else {})}
    if "Snapshot" in schemas:
        schemas["Snapshot"]["properties"]["view"] = {"$ref": REF.format(name=names["MatchViewOut"])}
    if "Event" in schemas:
        schemas["Event"]["properties"]["event"] = _rename(event["properties"]["event"], names)


ENVELOPE = {"command_id": {"type": "string", "format": "uuid", "description": "client-made, unique per match"},
            "expected_version": {"type": "integer", "minimum": 0,
                                 "description": "the version of the view the decision was made from"}}


def action_body(operation: dict[str, Any], components: dict[str, Any]) -> None:
    """`POST …/actions`' body as a union a generator types: per game and action, the envelope
    (`command_id`, `expected_version`) with the action's own fields (`anyOf`: `pass` is every
    game's, and a game's `bid` may have two shapes), each branch titled `<Game><Action>Command`."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if not content:
        return
    old = content["schema"]
    branches = []
    for game in GAMES:
        for shape in legal(game, sent=True):
            name = shape["title"].removesuffix("Sent") + "Command"
            components[name] = {"type": "object", "title": name,
                                "required": ["command_id", "expected_version", *shape["required"]],
                                "properties": {**ENVELOPE, **shape["properties"]}}
            branches.append({"$ref": REF.format(name=name)})
    content["schema"] = {"title": old.get("title", "Action"), "description": old.get("description", ""),
                         "anyOf": branches, **({"examples": old["examples"]} if "examples" in old else {})}
