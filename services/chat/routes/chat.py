"""Table chat routes: a match's chat history and sending to it (docs/chat.md).

`GET /v1/matches/{id}/chat` pages the messages the caller may read, newest first (a `Link`
to the next page, as every list: services/http/paging.py); `POST /v1/matches/{id}/chat`
sends a preset or a free text with a `command_id`, so a retry is answered, not sent twice.
The rules are `domain.chat`'s, who reads what `services.visibility`'s; the live routes are
in `services.chat.routes.live`. `FEATURE` declares the chat: these routes, the live ones, the
moderation ones (`services.chat.routes.moderation`), the publisher of the chat streams, the reports
queue and the chat's AsyncAPI channels.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.params import Body

from domain import chat
from services.chat.moderation import chat_checks
from services.chat.routes import live as chat_live
from services.chat.routes.answers import ChatMessageOut, ChatSentOut
from services.chat.service import ChatService
from services.http import paging
from services.http.auth import authenticated
from services.http.examples import ex
from services.http.ratelimit import rate_limited
from services.http.schemas import (
    BEARER,
    BLANK,
    COMMAND_ID,
    MATCH_ID,
    PLAYER_ID,
    Caller,
    ErrorOut,
    Limit,
    PathStr,
    Runtime,
)

TAGS = ["chat"]
PLAYER = [authenticated, rate_limited]
CONTROL = "\\u0000-\\u001f\\u007f-\\u009f"
TEXT_PATTERN = f"^[^{CONTROL}]*[^{BLANK}{CONTROL}][^{CONTROL}]*$"


# The document states the limits; the service checks them itself, to answer with the chat's codes.
Preset = Annotated[str, msgspec.Meta(extra_json_schema={"enum": list(chat.PRESETS)})]
Text = Annotated[str, msgspec.Meta(extra_json_schema={"minLength": 1, "maxLength": chat.MAX_TEXT,
                                                      "pattern": TEXT_PATTERN})]


class ChatIn(msgspec.Struct, forbid_unknown_fields=True):
    """Exactly one of `preset` and `text` (services/http/contract.py says so in the document).
    Absent and null are not the same: a null one is refused, as the schema says."""

    command_id: uuid.UUID
    preset: Preset | msgspec.UnsetType = msgspec.UNSET
    text: Text | msgspec.UnsetType = msgspec.UNSET


CHAT_BODY = Body(
    title="ChatIn",
    description=f"`command_id` (a client-made UUID: a retry with it is answered, not sent twice) and either "
                f"`preset`, a code of the catalogue (clients translate it), or `text`, at most {chat.MAX_TEXT} "
                "characters once trimmed, any script, no control characters. While the match is played a seat "
                "sends presets only (422 `chat_free_text_during_play`).",
    examples=[Example(summary="a preset", value={"command_id": COMMAND_ID, "preset": "well_played"}),
              Example(summary="free text", value={"command_id": COMMAND_ID, "text": "Bien joué, à la revanche !"})])

MESSAGE_EXAMPLE = {"version": 3, "type": "chat_message", "message_id": "2c9a6f1e-…", "channel": "table",
                   "player_id": PLAYER_ID, "name": "Ada", "seat": "N", "preset": "well_played", "text": None,
                   "phase": "playing", "match_version": 41, "at": "2026-12-01T14:03:10.120+00:00"}
RAIL_EXAMPLE = {**MESSAGE_EXAMPLE, "version": 4, "channel": "spectators", "seat": None, "preset": None,
                "text": "Quelle partie ! Отличная игра", "name": None}


def _spec(description: str, *examples: tuple[str, str, dict[str, Any]]) -> ResponseSpec:
    return ResponseSpec(data_container=ErrorOut, description=description, generate_examples=False,
                        examples=[Example(summary=code, value={"code": code, "message": message, "details": details})
                                  for code, message, details in examples])


UNAUTHORIZED = _spec("No token, or an unknown or revoked one", ("unauthorized", "send 'Authorization: Bearer <token>'",
                                                                {}))
NOT_WATCHABLE = ("board_sealed", "a tournament board is shown only to its seats, and its hand records to no one, "
                                 "until its round has closed at every table", {"match_id": MATCH_ID})
UNKNOWN = _spec("No such match", ("unknown_match", f"no match '{MATCH_ID}'", {"match_id": MATCH_ID}))
TOO_MANY = ("rate_limited", "too many requests; retry in 12s", {"retry_after": 12})


@get("/v1/matches/{match_id:str}/chat", guards=PLAYER, tags=TAGS, security=BEARER,
     summary="The match's chat as I may read it, newest first",
     description="Whoever may watch the match reads it. A seat does not read the spectators' messages sent while "
                 "the match is played until it is over; nobody reads the players he blocked. Paged: `limit` "
                 "(1..200, 50) messages, a `Link: <…>; rel=\"next\"` header to the older ones. Names are null "
                 "for erased players. See docs/chat.md.",
     responses={200: ResponseSpec(data_container=list[ChatMessageOut], description="Messages, newest first",
                                  generate_examples=False,
                                  examples=[ex("messages", [RAIL_EXAMPLE, MESSAGE_EXAMPLE])]),
                400: _spec("A bad `cursor` or `limit`", ("invalid_field", "cursor: not a cursor this server gave",
                                                         {"field": "cursor"})),
                401: UNAUTHORIZED, 403: _spec("Not for this reader", NOT_WATCHABLE), 404: UNKNOWN,
                429: _spec("Too many requests from this token", TOO_MANY)})
async def chat_history(request: Request, match_id: PathStr, principal: Caller, runtime: Runtime, limit: Limit = 50,
                       cursor: paging.Cursor = None) -> Response:
    before = paging.version_before(cursor)
    service = ChatService(runtime)
    state, reader = await service.reader(match_id, principal, "chat")
    rows = await service.history(state, reader, before, limit)
    return paging.page(request, rows, limit, "at", "version")


@post("/v1/matches/{match_id:str}/chat", guards=PLAYER, status_code=201, tags=TAGS, security=BEARER,
      summary="Say something at the table (a seat) or on the rail (a spectator)",
      description=f"A seat writes the `table` channel: presets only from the match's start to its end, free text "
                  f"in the waiting room and once it is over. Whoever else may watch writes the `spectators` channel, "
                  f"free text at any time; no seat receives it while the match is played. Free text: at most "
                  f"{chat.MAX_TEXT} characters, no control characters. At most `ATOUT_CHAT_RATE_MESSAGES` (5) messages "
                  f"per `ATOUT_CHAT_RATE_WINDOW` (10 s) per player per match (429 `chat_rate_limited`). A muted player "
                  f"gets 403 `chat_muted` (with `until`), a banned one 403 `player_banned`. See docs/chat.md.",
      responses={201: ResponseSpec(data_container=ChatSentOut, description="The message, as readers get it",
                                   generate_examples=False, examples=[ex("sent", {
                                       "match_id": MATCH_ID, "version": 3, "message": MESSAGE_EXAMPLE})]),
                 400: _spec("A malformed message", ("chat_too_long", f"a message is at most {chat.MAX_TEXT} "
                                                    "characters, not 300", {"field": "$.text", "max": chat.MAX_TEXT,
                                                                            "length": 300}),
                            ("chat_control_character", "a message holds no control characters (newlines, tabs, "
                                                       "escapes)", {"field": "$.text"}),
                            ("chat_unknown_preset", "no preset 'ace_of_spades'", {"field": "$.preset"}),
                            ("chat_preset_or_text", "send either a preset or a text", {"field": "$"})),
                 401: UNAUTHORIZED,
                 403: _spec("Not for this caller", NOT_WATCHABLE,
                            ("chat_muted", "you are muted until 2026-12-01T15:00:00+00:00",
                             {"until": "2026-12-01T15:00:00+00:00", "reason": "insults"}),
                            ("player_banned", "you are banned: repeated insults", {"reason": "repeated insults"})),
                 404: UNKNOWN,
                 409: _spec("This command_id was already used with another body",
                            ("command_conflict", "this command_id was already used with another body",
                             {"command_id": COMMAND_ID})),
                 422: _spec("Not now", ("chat_free_text_during_play", "while the match is played a seat sends "
                                        "presets only: free text returns when it ends",
                                        {"presets": list(chat.PRESETS)})),
                 429: _spec("Too many messages", ("chat_rate_limited", "at most 5 messages in 10s per player per "
                                                  "match; retry in 7s", {"retry_after": 7, "messages": 5,
                                                                        "window": 10.0}), TOO_MANY)})
async def send_chat(match_id: PathStr, data: Annotated[ChatIn, CHAT_BODY], principal: Caller,
                    runtime: Runtime) -> dict[str, Any]:
    return await ChatService(runtime, chat_checks(runtime)).send(
        match_id, principal, preset=None if data.preset is msgspec.UNSET else data.preset,
        text=None if data.text is msgspec.UNSET else data.text, command_id=data.command_id)


ROUTES = [chat_history, send_chat, *chat_live.ROUTES]
