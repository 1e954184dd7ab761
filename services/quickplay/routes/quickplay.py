"""Quick-play routes: join a queue, see my entry, leave it, and who is playing.

Thin: decode with msgspec, call `services.quickplay.queue` / `stats`, answer typed Structs
(`answers`). Refusals are `services.refusals` kinds, mapped once by the HTTP edge.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

import msgspec
from litestar import delete, get, post
from litestar.params import Body

from domain import quickplay as rules
from services.http.auth import authenticated
from services.http.examples import ex
from services.http.ratelimit import rate_limited
from services.http.schemas import (
    BEARER,
    COMMAND_ID,
    MATCH_ID,
    PLAYER_ID,
    Caller,
    Runtime,
    responses,
)
from services.quickplay import queue, stats
from services.quickplay.routes.answers import QuickplayEntryOut, QuickplayStatsOut

TAGS = ["quickplay"]
PLAYER = [authenticated, rate_limited]
PlayerRef = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=r"^[!-$&-~]+$")]


class JoinIn(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    options: dict[str, Any] = {}
    rated: bool = False
    clock: dict[str, Any] | None = None
    partner: PlayerRef | None = None
    bots_after: Annotated[float, msgspec.Meta(ge=0)] | None = None
    bot_level: str = "basic"
    command_id: uuid.UUID | None = None


ENTRY = {"entry_id": "a7c1e0b2-6f3d-5e4a-9b8c-1d2e3f4a5b6c", "status": "waiting", "game": "belote",
         "options": {"variant": "coinche"}, "pool": "belote_coinche", "rated": True,
         "clock": {"bid": 60.0, "play": 30.0}, "players": [PLAYER_ID], "partner": None, "rating": 12.4,
         "bots_after": None, "bot_level": "basic", "casual_with_bots": False,
         "joined_at": "2025-05-01T18:00:00+00:00", "ready_at": "2025-05-01T18:00:00+00:00", "waited": 12.5,
         "band": 4.5, "match_id": None, "seat": None}
SEATED = {**ENTRY, "status": "seated", "waited": 21.0, "band": 6.2, "match_id": MATCH_ID, "seat": "E"}
WITH_BOTS = {**ENTRY, "options": {"deals": 4}, "game": "belote", "pool": "belote_classic", "rated": False,
             "clock": None, "bots_after": 30.0, "bot_level": "expert", "casual_with_bots": True, "waited": 0.0,
             "band": 2.0}
JOIN_EXAMPLES = [ex("rated Coinche", {"game": "belote", "options": {"variant": "coinche"}, "rated": True,
                                      "command_id": COMMAND_ID}),
                 ex("casual, bots after 30 s", {"game": "belote", "options": {"deals": 4}, "bots_after": 30,
                                                "bot_level": "expert"}),
                 ex("with a partner", {"game": "cinch", "partner": PLAYER_ID})]
STATS = {"online": 37, "queues": [{"game": "belote", "options": {"variant": "coinche"}, "pool": "belote_coinche",
                                   "rated": True, "clock": {"bid": 60.0, "play": 30.0}, "waiting": 3}],
         "tables": [{"pool": "belote_coinche", "playing": 12}, {"pool": "five_hundred", "playing": 2}],
         "at": "2025-05-01T18:00:00+00:00", "cached_for": 5}
BANDS = (f"The rating band (`band`: its half-width in display-rating points, null once any rating will do) "
         f"starts at {rules.BAND_START:g} and grows by {rules.BAND_GROWTH:g} a second waited; after "
         f"{rules.BAND_OPEN_AFTER:g} s it is open. A table is made when its entries' ratings spread no wider than "
         "the narrowest band among them.")


@post("/v1/quickplay", guards=PLAYER, status_code=201, tags=TAGS, security=BEARER, summary="Join a quick-play queue",
      description="A queue is a way of playing (`game` and `options`, as at `POST /v1/matches`; 400 naming the option), "
                  "rated or casual, and its clock (a rated queue's defaults to the rated clock). The account stream says "
                  "`quickplay_seated` (the match and my seat) or `quickplay_expired`. " + BANDS + " `partner`: both "
                  "partners join naming each other (the first waits, `status: partner`); not in an individual way of "
                  f"playing (400 `no_partners`). `bots_after` ({rules.BOTS_AFTER_BOUNDS[0]:g} to "
                  f"{rules.BOTS_AFTER_BOUNDS[1]:g} s, 400 `bad_bots_after`): bots at `bot_level` fill the table if no "
                  "one is found by then, and the table is casual (`casual_with_bots`); a rated queue is people only "
                  "(400 `bots_not_rated`). One live entry per player (409 `already_queued`); 429 `quickplay_cooldown` "
                  "just after leaving (ATOUT_QUICKPLAY_COOLDOWN); a banned player joins nothing (403 `player_banned`), "
                  "partners who block each other are none (403 `blocked`). Tables left early (a bot took the seat over) "
                  "within a day delay `ready_at`. A retried `command_id` answers the entry as it stands.",
      responses=responses(201, QuickplayEntryOut, [ex("waiting", ENTRY), ex("casual, bots on consent", WITH_BOTS)],
                          "My entry", 400, 401, 403, 404, 409, 429))
async def join(data: Annotated[JoinIn, Body(examples=JOIN_EXAMPLES)], principal: Caller, runtime: Runtime) -> QuickplayEntryOut:
    request = queue.Join(**msgspec.structs.asdict(data))
    return msgspec.convert(await queue.join(runtime, principal, request), QuickplayEntryOut)


@get("/v1/quickplay", guards=PLAYER, tags=TAGS, security=BEARER, summary="My quick-play entry",
     description="My live entry, else my latest (`seated` with its `match_id` and `seat`, `expired`, `left`): what a "
                 "waiting screen shows after a reload. 404 `not_queued` when I never joined.",
     responses=responses(200, QuickplayEntryOut, [ex("waiting", ENTRY), ex("seated", SEATED)], "My entry", 401, 404, 429))
async def mine(principal: Caller, runtime: Runtime) -> QuickplayEntryOut:
    return msgspec.convert(await queue.mine(runtime, principal), QuickplayEntryOut)


@delete("/v1/quickplay", guards=PLAYER, status_code=200, tags=TAGS, security=BEARER, summary="Leave my queue",
        description="Ends my live entry (a partnership's for both: the other is told `partner_left`) and starts the "
                    "cooldown. 404 `not_queued`; 422 `quickplay_seating` once its table is being opened.",
        responses=responses(200, QuickplayEntryOut, [ex("left", {**ENTRY, "status": "left"})], "My entry, ended", 401, 404,
                            422, 429))
async def leave(principal: Caller, runtime: Runtime) -> QuickplayEntryOut:
    return msgspec.convert(await queue.leave(runtime, principal), QuickplayEntryOut)


@get("/v1/quickplay/stats", guards=PLAYER, tags=TAGS, security=BEARER, summary="Who is playing",
     description="Counts, never names: `online` (players with a live account stream open), players waiting per queue, "
                 "tables being played per way of playing. Computed at most every `cached_for` seconds.",
     responses=responses(200, QuickplayStatsOut, [ex("counts", STATS)], "Counts", 401, 429))
async def who_is_playing(runtime: Runtime) -> QuickplayStatsOut:
    return msgspec.convert(await stats.stats(runtime), QuickplayStatsOut)


ROUTES = (join, mine, leave, who_is_playing)
