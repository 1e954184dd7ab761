"""Identity routes: register, who am I, revoke my token, roles, erasure.

Registration is open, limited per client address (requests a minute, and registrations an
hour: fresh accounts are what rating farming needs): a player is a display name and a
token, nothing more. Roles are granted by an admin; the first admin comes from
`atout admin create NAME`.
"""

from __future__ import annotations

from typing import Annotated

from litestar import Request, delete, get, patch, post, put
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Body, QueryParameter

from services.http.auth import authenticated, requires
from services.http.bodies import shown
from services.http.errors import ApiError
from services.http.ratelimit import rate_limited, registration_limited
from services.http.schemas import (
    BEARER,
    ERRORS,
    PLAYER_ID,
    Caller,
    ErrorOut,
    MeOut,
    PathStr,
    PlayerOut,
    Register,
    Registered,
    Runtime,
    SetMe,
    SetRole,
    ex,
    responses,
)

TAGS = ["players"]
PLAYER = [authenticated, rate_limited]
ORGANISER = [authenticated, rate_limited, requires("organiser")]
ADMIN = [authenticated, rate_limited, requires("admin")]
FOUND_AT_MOST = 20
NameQuery = Annotated[str, QueryParameter(min_length=1, max_length=64, description="a display name, or an id")]
TOKEN = "atk_Jd8x2m…"
REGISTRATION_429 = ResponseSpec(
    data_container=ErrorOut, generate_examples=False,
    description="Too many requests from this address, or too many registrations from it this hour; see Retry-After",
    examples=[*ERRORS[429][1], ex("registration limit", {
        "code": "registration_limited", "message": "at most 20 registrations an hour from one address; retry in 1800s",
        "details": {"retry_after": 1800, "limit": 20}})])


@post("/v1/players", guards=[rate_limited, registration_limited], status_code=201, tags=TAGS,
      summary="Register a player",
      description="A display name in, a player id and a bearer token out. The token is shown only here. At most "
                  "`ATOUT_REGISTRATIONS_PER_HOUR` (20) registrations per client address per clock hour: past it, "
                  "429 `registration_limited` with `Retry-After` (docs/api.md, \"Rate limits\").",
      responses={**responses(201, Registered, [ex("registered", {"player_id": PLAYER_ID, "token": TOKEN})],
                             "The new player and its token", 400), 429: REGISTRATION_429})
async def register(data: Annotated[Register, Body(examples=[ex("a name", {"name": "Ada"})])],
                   runtime: Runtime) -> Registered:
    name = data.name.strip()
    if not name or any(ord(c) < 32 for c in data.name):   # a control character anywhere, as the schema says
        raise ApiError(400, "invalid_field", "$.name: a name needs printable characters", {"field": "$.name"})
    shown(name, "$.name")
    player_id, token = await runtime.players.register(name)
    return Registered(player_id=player_id, token=token)


ME = {"player_id": PLAYER_ID, "name": "Ada", "role": "player", "locale": "fr"}


async def _me(principal: Caller, runtime: Runtime) -> MeOut:
    info = await runtime.players.get(principal.player_id)
    return MeOut(player_id=principal.player_id, name=info.name if info else None, role=principal.role,
                 locale=info.locale if info else None)


@get("/v1/players/me", guards=PLAYER, tags=TAGS, summary="Who am I", security=BEARER,
     description="`locale`: the language the player chose for the web client (`en`, `fr`, `ru`, `pl`), null when "
                 "he chose none.",
     responses=responses(200, MeOut, [ex("me", ME)], "The caller", 401, 429))
async def me(principal: Caller, runtime: Runtime) -> MeOut:
    return await _me(principal, runtime)


@patch("/v1/players/me", guards=PLAYER, tags=TAGS, summary="Change my preferences (the client's language)",
       security=BEARER,
       description="`{\"locale\": \"en\" | \"fr\" | \"ru\" | \"pl\" | null}`: the language the web client shows "
                   "this player on every device (null: the browser's again). Another value: 400 `invalid_field` "
                   "naming `$.locale`. Setting the same value again answers the same.",
       responses=responses(200, MeOut, [ex("French", ME)], "The caller as now kept", 400, 401, 429))
async def update_me(data: Annotated[SetMe, Body(examples=[ex("French", {"locale": "fr"})])], principal: Caller,
                    runtime: Runtime) -> MeOut:
    await runtime.players.set_locale(principal.player_id, data.locale)
    return await _me(principal, runtime)


@delete("/v1/players/me/token", guards=PLAYER, status_code=204, tags=TAGS, summary="Revoke the token of this request",
        description="Sign out: the token used for this request stops working at once.", security=BEARER,
        responses=responses(204, None, [ex("revoked", None)], "Revoked", 401, 429))
async def revoke_token(request: Request, runtime: Runtime) -> None:
    await runtime.players.revoke(request.state["token"])


@get("/v1/players/{player_id:str}", guards=PLAYER, tags=TAGS, summary="A player's public profile", security=BEARER,
     responses=responses(200, PlayerOut, [ex("a player", {"player_id": PLAYER_ID, "name": "Ada", "role": "player"})],
                         "The player (name null once erased)", 401, 404, 429))
async def player(player_id: PathStr, runtime: Runtime) -> PlayerOut:
    info = await runtime.players.get(player_id)
    if info is None:
        raise ApiError(404, "unknown_player", f"no player {player_id!r}", {"player_id": player_id})
    return PlayerOut(player_id=info.player_id, name=info.name, role=info.role)


@get("/v1/players", guards=ORGANISER, tags=TAGS, security=BEARER,
     summary="Players by display name (organisers and admins)",
     description="`?name=`: the player with that id, else every player whose display name is exactly `name` "
                 f"(several may share one), by id, at most {FOUND_AT_MOST}; none: `[]`. What an organiser "
                 "needs to take an entry for people he knows by name. Not a search: nothing partial matches.",
     responses=responses(200, list[PlayerOut], [ex("one Ada", [{"player_id": PLAYER_ID, "name": "Ada",
                                                                 "role": "player"}])],
                         "The players so named", 400, 401, 403, 429))
async def find_players(name: NameQuery, runtime: Runtime) -> list[PlayerOut]:
    return [PlayerOut(player_id=info.player_id, name=info.name, role=info.role)
            for info in await runtime.players.found(name.strip(), FOUND_AT_MOST)]


@put("/v1/players/{player_id:str}/role", guards=ADMIN, tags=TAGS, summary="Grant a role (admin)", security=BEARER,
     responses=responses(200, PlayerOut, [ex("now an organiser", {"player_id": PLAYER_ID, "name": "Ada",
                                                                   "role": "organiser"})],
                         "The player with its new role", 400, 401, 403, 404, 429))
async def set_role(player_id: PathStr, data: Annotated[SetRole, Body(examples=[ex("organiser", {"role": "organiser"})])],
                   runtime: Runtime) -> PlayerOut:
    if not await runtime.players.set_role(player_id, data.role):
        raise ApiError(404, "unknown_player", f"no player {player_id!r}", {"player_id": player_id})
    info = await runtime.players.get(player_id)
    return PlayerOut(player_id=player_id, name=info.name, role=info.role)


@delete("/v1/players/{player_id:str}", guards=PLAYER, status_code=204, tags=TAGS, security=BEARER,
        summary="Erase a player's personal data (the player or an admin)",
        description="Drops the display name and revokes every token. Matches keep the player id and still replay.",
        responses=responses(204, None, [ex("erased", None)], "Erased", 401, 403, 404, 429))
async def erase(player_id: PathStr, principal: Caller, runtime: Runtime) -> None:
    if principal.player_id != player_id and not principal.has_role("admin"):
        raise ApiError(403, "forbidden", "only the player or an admin may erase a player",
                       {"required_role": "admin", "role": principal.role})
    if await runtime.players.get(player_id) is None:
        raise ApiError(404, "unknown_player", f"no player {player_id!r}", {"player_id": player_id})
    await runtime.players.erase(player_id)


ROUTES = [register, me, update_me, revoke_token, find_players, player, set_role, erase]
