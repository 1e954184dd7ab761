"""A field of a request body described for a client that draws a form from it (the web
client's organiser's console): a choice and its values, an integer and its bounds, a flag or a
date-time, whether it is required and what the server takes without it. Tournament formats
(`GET /v1/tournaments/formats`) and games (`GET /v1/games`) are described with it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

Kind = Literal["choice", "integer", "boolean", "datetime"]


class FieldOut(msgspec.Struct):
    """A field: `name` is its path in the body (`bots.level` is `{"bots": {"level": …}}`,
    `options.deals` the game's option); `values` a choice's, `minimum`/`maximum` a number's
    bounds (null: none); `default` what the server takes when it is left out (null: nothing,
    or the game's own default)."""

    name: str
    kind: Kind
    required: bool
    default: str | int | bool | None
    values: list[str] | None
    minimum: int | None
    maximum: int | None


def field(name: str, kind: Kind, *, required: bool = False, default: Any = None, values: list[str] | None = None,
          minimum: int | None = None, maximum: int | None = None) -> dict[str, Any]:
    return {"name": name, "kind": kind, "required": required, "default": default, "values": values,
            "minimum": minimum, "maximum": maximum}


def from_schema(name: str, schema: Mapping[str, Any], default: Any = None) -> dict[str, Any]:
    """A field from its JSON Schema (a game's `options_schema`, its bounds added); an integer
    that may be null is unset by default (the game's own default applies)."""
    nullable = next((s for s in schema.get("anyOf", ()) if s.get("type") != "null"), None)
    shape = {**nullable, "maximum": schema.get("maximum", nullable.get("maximum"))} if nullable else schema
    if "enum" in shape:
        return field(name, "choice", default=default, values=[str(v) for v in shape["enum"]])
    if shape.get("type") == "boolean":
        return field(name, "boolean", default=default)
    assert shape.get("type") == "integer", (name, schema)     # a new kind of option is described here first
    return field(name, "integer", default=None if nullable else default, minimum=shape.get("minimum"),
                 maximum=shape.get("maximum"))
