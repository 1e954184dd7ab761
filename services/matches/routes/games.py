"""`GET /v1/games`: the games the server runs and each one's options at creation, typed as a
form draws them (`services/http/fields.py`), from the very schemas the creation bodies are
checked by (`services/http/contract_requests.py` `OPTIONS`): a client offers a game's options,
and a game or an option the server adds, without a release of its own."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import get

from domain.games import GAME_NAMES, GAMES
from services.http.auth import authenticated
from services.http.contract_requests import OPTIONS
from services.http.fields import FieldOut, from_schema
from services.http.ratelimit import rate_limited
from services.http.schemas import BEARER, ex, responses


class GameOut(msgspec.Struct):
    """A game and its options (`options.<name>` in a creation body); an option's `default` is
    the game's, null where it depends on the others (a target by variant) or is unset (`deals`)."""

    game: str
    fields: list[FieldOut]


def games() -> list[dict[str, Any]]:
    out = []
    for game in GAME_NAMES:
        defaults = GAMES[game].parse_options({})
        out.append({"game": game, "fields": [from_schema(f"options.{name}", schema, getattr(defaults, name, None))
                                             for name, schema in OPTIONS[game].items()]})
    return out


EXAMPLE = [{"game": "five_hundred", "fields": [
    {"name": "options.misere", "kind": "boolean", "required": False, "default": True, "values": None, "minimum": None,
     "maximum": None}]}]


@get("/v1/games", guards=[authenticated, rate_limited], tags=["matches"], security=BEARER,
     summary="The games and each one's options at creation",
     description="Every game `POST /v1/matches` and `POST /v1/tournaments` accept, each with its options (the body's "
                 "`options`): a choice with its `values`, an integer with its bounds, a boolean; the game's default "
                 "(null: unset, or depending on the other options).",
     responses=responses(200, list[GameOut], [ex("Five Hundred (abridged)", EXAMPLE)], "The games", 401, 429))
async def list_games() -> list[dict[str, Any]]:
    return games()


ROUTES = [list_games]
