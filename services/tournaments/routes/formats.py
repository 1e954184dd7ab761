"""`GET /v1/tournaments/formats`: the formats the server runs and the creation fields each
reads, typed (`services/http/fields.py`: a choice and its values, a number and its bounds, a
flag, a date-time) and read from `CreateIn` itself, so the answer cannot drift from what
`POST /v1/tournaments` accepts. A client draws its creation form from it (the web client's
organiser's console) and offers a new format the day the server has it; the game's own
options come from `GET /v1/games`."""

from __future__ import annotations

from typing import Any

import msgspec
import msgspec.inspect as mi
from litestar import get

from domain.match import MAX_DEALS
from domain.tournaments import events as ev
from domain.tournaments.robot import MAX_BOARDS
from services.http.fields import FieldOut, field
from services.http.schemas import BEARER, ex
from services.tournaments.routes import examples as X
from services.tournaments.routes.tournaments import READER, TAGS, BotsIn, CreateIn

DATETIMES = {"schedule", "closes_at"}      # strings the route reads as ISO 8601 with an offset


class FormatOut(msgspec.Struct):
    format: str
    fields: list[FieldOut]


def _field(name: str, required: bool, robot: bool) -> dict[str, Any]:
    if name == "options.deals":              # the game's option; a robot event's boards are bounded
        return field(name, "integer", required=required, minimum=1, maximum=MAX_BOARDS if robot else MAX_DEALS)
    struct, key = (BotsIn, name[5:]) if name.startswith("bots.") else (CreateIn, name)
    info = next(f for f in mi.type_info(struct).fields if f.name == key)
    kind = info.type
    if isinstance(kind, mi.UnionType):       # `X | None`: optional, null is the default
        kind = next(k for k in kind.types if not isinstance(k, mi.NoneType))
    default = None if info.default is mi.NODEFAULT else info.default
    default = ev.NO_SHOW_GRACE if name == "no_show_grace" else default     # null in the body: the server's
    if isinstance(kind, mi.LiteralType):
        return field(name, "choice", required=required, default=default, values=[str(v) for v in kind.values])
    if isinstance(kind, mi.BoolType):
        return field(name, "boolean", required=required, default=default)
    if isinstance(kind, mi.IntType):
        return field(name, "integer", required=required, default=default, minimum=kind.ge, maximum=kind.le)
    assert name in DATETIMES, name           # a new kind of field is described here first
    return field(name, "datetime", required=required, default=default)


def formats() -> list[dict[str, Any]]:
    return [{"format": name, "fields": [_field(f, (f == "options.deals" and name in ev.NEEDS_DEALS)
                                               or (f == "closes_at" and name == "robot"), name == "robot")
                                        for f in ev.FORMAT_FIELDS[name]]}
            for name in ev.FORMATS]


EXAMPLE = [{"format": "swiss", "fields": [
    {"name": "rounds", "kind": "integer", "required": False, "default": None, "values": None, "minimum": 1,
     "maximum": 50},
    {"name": "seeding", "kind": "choice", "required": False, "default": "registration",
     "values": ["rating", "registration"], "minimum": None, "maximum": None}]}]


@get("/v1/tournaments/formats", guards=READER, tags=TAGS, security=BEARER,
     summary="The tournament formats and the creation fields each reads",
     description="Every format `POST /v1/tournaments` accepts, each with the fields of its body it reads beside "
                 "`name` and `game` (a choice with its `values`, an integer with its bounds, a boolean, a "
                 "date-time with its offset), whether each is required and its default.",
     responses=X.answers(200, list[FormatOut], [ex("a Swiss (abridged)", EXAMPLE)], "The formats", 401, 429))
async def list_formats() -> list[dict[str, Any]]:
    return formats()


ROUTES = [list_formats]
