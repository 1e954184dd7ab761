"""The AsyncAPI 3.0 document of the live streams, served at `GET /schema/asyncapi.json` beside
the OpenAPI one, which cannot describe a WebSocket or what a stream carries.

It is built from declarations, not written by hand: each message is a msgspec Struct (its
JSON schema is the payload), each stream route a `Channel` naming its messages, and a
feature lists its channels in its `Feature(channels=…)` (services/bootstrap.py), so a new
kind of message is one Struct and one line in its channel, and the document cannot drift
from what the code declares. The tests decode real messages of every stream with these
Structs and validate the document with an AsyncAPI parser.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import msgspec
from litestar import Request, get
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example

from services.http.contract import CONTRACT_VERSION

Transport = Literal["ws", "http"]


@dataclass(frozen=True)
class Message:
    name: str
    payload: type
    summary: str


@dataclass(frozen=True)
class Channel:
    """One live route: its address (path parameters in braces), what the server sends on it,
    and what a client may send (a WebSocket's first `auth` message)."""

    name: str
    address: str
    transport: Transport
    description: str
    receives: tuple[Message, ...]
    sends: tuple[Message, ...] = ()
    query: dict[str, str] | None = None          # query parameter -> what it means


# --- the messages every stream shares (docs/live.md, "One rule for every message") ----------

class Snapshot(msgspec.Struct, tag_field="type", tag="snapshot"):
    """The stream's first message: the state as this reader may see it, at `version`."""

    version: int
    view: dict[str, Any]


class Event(msgspec.Struct, tag_field="type", tag="event"):
    """One event with its version; `event` is null for what this reader may not see."""

    version: int
    event: dict[str, Any] | None


class Error(msgspec.Struct, tag_field="type", tag="error"):
    """The stream's last message when it ends other than normally; `version` is the last it
    sent (0 before any): reconnect with `after=` it."""

    version: int
    code: str
    message: str
    details: dict[str, Any]


class TournamentSnapshot(msgspec.Struct, tag_field="type", tag="snapshot"):
    """A tournament stream's first message: the tournament and its standings at `version`."""

    version: int
    view: dict[str, Any]
    standings: list[dict[str, Any]]


class Auth(msgspec.Struct, tag_field="type", tag="auth"):
    """A WebSocket's first message when no `Authorization` header was sent."""

    token: str


SNAPSHOT = Message("snapshot", Snapshot, "the view at the stream's current version")
EVENT = Message("event", Event, "one event, redacted for this reader")
ERROR = Message("error", Error, "why the stream ends: resync, unauthorized, board_sealed, unknown_match, …")
TOURNAMENT_SNAPSHOT = Message("tournamentSnapshot", TournamentSnapshot, "the tournament and its standings")
AUTH = Message("auth", Auth, "the bearer token, as the first message")
AFTER = {"after": "resume: only the events after this version follow the snapshot"}


def document(channels: list[Channel], title: str = "Atout live streams") -> dict[str, Any]:
    """The AsyncAPI 3.0 document of `channels`."""
    messages = {m.name: m for c in channels for m in (*c.receives, *c.sends)}
    _, schemas = msgspec.json.schema_components([m.payload for m in messages.values()],
                                                ref_template="#/components/schemas/{name}")
    doc_channels: dict[str, Any] = {}
    operations: dict[str, Any] = {}
    for channel in channels:
        names = [part[1:-1] for part in channel.address.split("/") if part.startswith("{")]
        doc_channels[channel.name] = {
            "address": channel.address,
            "description": channel.description + _query(channel.query),
            "servers": [{"$ref": f"#/servers/{channel.transport}"}],
            "parameters": {n: {"description": f"the {n.replace('_', ' ')}"} for n in names},
            "messages": {m.name: {"$ref": f"#/components/messages/{m.name}"} for m in (*channel.receives, *channel.sends)},
        }
        ref = f"#/channels/{channel.name}"
        operations[f"{channel.name}Receive"] = {
            "action": "receive", "channel": {"$ref": ref},
            "messages": [{"$ref": f"{ref}/messages/{m.name}"} for m in channel.receives]}
        if channel.sends:
            operations[f"{channel.name}Send"] = {
                "action": "send", "channel": {"$ref": ref},
                "messages": [{"$ref": f"{ref}/messages/{m.name}"} for m in channel.sends]}
    from services.http.contract_views import live_messages

    live_messages(schemas)
    _asyncapi_discriminators(schemas)
    return {
        "asyncapi": "3.0.0",
        "info": {"title": title, "version": CONTRACT_VERSION,
                 "description": "Every message is JSON with `type` and `version` (docs/live.md). HTTP streams are "
                                "SSE (`Accept: text/event-stream`) or NDJSON (`application/x-ndjson`)."},
        "servers": {"ws": {"host": "127.0.0.1:8000", "protocol": "ws", "description": "WebSocket routes"},
                    "http": {"host": "127.0.0.1:8000", "protocol": "http",
                             "description": "HTTP streams (SSE or NDJSON by Accept)"}},
        "channels": doc_channels,
        "operations": operations,
        "components": {
            "messages": {name: {"name": name, "summary": m.summary, "contentType": "application/json",
                                "payload": {"$ref": f"#/components/schemas/{m.payload.__name__}"}}
                         for name, m in messages.items()},
            "schemas": schemas,
        },
    }


def _asyncapi_discriminators(node: Any) -> None:
    """msgspec writes a tagged union's `discriminator` as OpenAPI's object; an AsyncAPI
    schema's is the property's name alone (each variant's `type` enum already maps it)."""
    if isinstance(node, dict):
        found = node.get("discriminator")
        if isinstance(found, dict) and "propertyName" in found:
            node["discriminator"] = found["propertyName"]
        for value in node.values():
            _asyncapi_discriminators(value)
    elif isinstance(node, list):
        for value in node:
            _asyncapi_discriminators(value)


def _query(query: dict[str, str] | None) -> str:
    return "".join(f" Query `{k}`: {v}." for k, v in (query or {}).items())


@get("/schema/asyncapi.json", tags=["health"], summary="The AsyncAPI 3.0 document of the live streams",
     sync_to_thread=False, responses={200: ResponseSpec(
         data_container=dict, description="The live streams' channels and messages", generate_examples=False,
         examples=[Example(summary="the document", value={"asyncapi": "3.0.0", "info": {"title": "Atout live streams",
                                                                                          "version": CONTRACT_VERSION},
                                                          "channels": {}, "operations": {}})])})
def asyncapi(request: Request) -> dict[str, Any]:
    return document(list(request.app.state.get("live_channels") or ()))


ROUTES = [asyncapi]
