"""How a request body becomes a value: JSON only, nested at most `MAX_DEPTH` levels.

Litestar decodes every body route's JSON through `Request.json()`, so the limits live in
one request class (`JsonRequest`, set on the app) rather than in each route: a body sent
as another media type is refused with 415 `unsupported_media_type` instead of being read
as JSON anyway, and a body nested deeper than `MAX_DEPTH` is refused with 400 `too_deep`
before msgspec's decoder can run out of stack on it; a string holding U+0000 is refused
with 400 `nul_character` (Postgres stores no NUL in text, so it would fail on the append). The live routes' first WebSocket
frame goes through `loads`, the same limits.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request
from litestar.serialization import decode_json
from litestar.types import Empty

from domain import text as shown_text
from services.http.errors import ApiError, field_path

INTEGRAL = 2**63                # floats with no fraction below this become ints
MAX_DEPTH = 32                 # arrays and objects inside one another; a match record needs 5
JSON_TYPES = ("application/json",)
_decoder = msgspec.json.Decoder()


# Top-level fields whose own check refuses a NUL with its own code (`bad_entropy`, naming the
# field): the body check leaves them to it.
OWN_NUL_CHECK = frozenset({"entropy"})


def _integral(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() and abs(value) < INTEGRAL else value


def refusal(value: Any, limit: int = MAX_DEPTH) -> tuple[str, str] | None:
    """(code, JSON path) of why a decoded body cannot be taken, or None when it can: `too_deep`
    when arrays/objects nest more than `limit` levels (a scalar is level 0), `nul_character`
    when a string or a key holds U+0000, which no text column of Postgres stores. On the way,
    each number without a fraction becomes an integer: JSON has one number type, and JSON
    Schema's `integer` includes 2.0."""
    if isinstance(value, str):
        return ("nul_character", "$") if "\x00" in value else None
    stack = [(value, 1, "$")] if isinstance(value, (dict, list)) else []
    while stack:
        item, level, path = stack.pop()
        if level > limit:
            return "too_deep", "$"
        pairs = list(item.items()) if isinstance(item, dict) else list(enumerate(item))
        for key, child in pairs:
            here = f"{path}.{key}" if isinstance(item, dict) else f"{path}[{key}]"
            if isinstance(key, str) and "\x00" in key:
                return "nul_character", path
            child = item[key] = _integral(child)
            if isinstance(child, str):
                if "\x00" in child and not (level == 1 and key in OWN_NUL_CHECK):
                    return "nul_character", here
            elif isinstance(child, (dict, list)):
                stack.append((child, level + 1, here))
    return None


def _refused(code: str, path: str) -> ApiError:
    if code == "nul_character":
        return ApiError(400, code, f"{path}: a string holds U+0000 (NUL), which no field accepts", {"field": path})
    return ApiError(400, "too_deep", f"the JSON body nests more than {MAX_DEPTH} levels of arrays and objects",
                    {"field": "$", "max_depth": MAX_DEPTH})


def is_json(content_type: str | None) -> bool:
    """`application/json`, `application/<anything>+json`, or no Content-Type at all."""
    if not content_type:
        return True
    media = content_type.split(";", 1)[0].strip().lower()
    return media in JSON_TYPES or (media.startswith("application/") and media.endswith("+json"))


def loads(data: str | bytes) -> Any:
    """Decode JSON within the limits; anything else raises msgspec.DecodeError."""
    try:
        value = _decoder.decode(data)
    except RecursionError:
        raise msgspec.DecodeError(f"nested more than {MAX_DEPTH} levels") from None
    if (why := refusal(value)) is not None:
        raise msgspec.DecodeError(why[0])
    return value


def shown(text: str, field: str) -> str:
    """`text`, if others may be shown it (domain/text.py: no bidi control, something visible),
    else 400 with that rule's code naming `field`. Every name goes through it."""
    if (why := shown_text.refusal(text)) is not None:
        raise ApiError(400, why[0], f"{field}: {why[1]}", {"field": field})
    return text


class JsonRequest(Request):
    """Litestar's request, whose body is JSON within the limits above (or an error saying which)."""

    async def json(self) -> Any:
        if self._json is not Empty:
            return self._json
        if (cached := self._connection_state.json) is not Empty:
            self._json = cached
            return cached
        body = await self.body()
        content_type = self.headers.get("content-type")
        if body and not is_json(content_type):
            raise ApiError(415, "unsupported_media_type", f"send the body as application/json, not {content_type!r}",
                           {"content_type": content_type})
        try:
            value = decode_json(body or b"null", type_decoders=self.route_handler.resolve_type_decoders())
        except RecursionError:
            raise _refused("too_deep", "$") from None
        if (why := refusal(value)) is not None:
            raise _refused(*why)
        _strictly(value, self.route_handler, sent=bool(body.strip()))
        self._json = self._connection_state.json = value
        return value


def _strictly(value: Any, handler: Any, sent: bool = True) -> None:
    """The body as its route's type reads it with no coercion: Litestar converts leniently
    (a 0 for a boolean, "3" for an integer), which would accept what the document refuses;
    a value of the wrong JSON type is a 400 naming its field, as any invalid field is. A body
    the route may go without is left out, not sent as JSON null: the document says an object."""
    parameter = handler.parsed_fn_signature.parameters.get("data")
    if parameter is None:
        return
    if value is None:
        if sent and parameter.has_default:
            raise ApiError(400, "invalid_field", "$: Expected `object`, got `null` (leave the body out instead)",
                           {"field": "$", "source": "body"})
        return
    try:
        msgspec.convert(value, parameter.annotation, strict=True, str_keys=True)
    except msgspec.ValidationError as error:
        path, message = field_path(error)
        raise ApiError(400, "invalid_field", f"{path}: {message}", {"field": path, "source": "body"}) from None
    except TypeError:                    # a type msgspec cannot check: Litestar's own validation decides
        return
